/**
 * PIX and boleto validity (spec doc 1 §9, doc 2 §9, doc 3 §9), in seconds. The
 * spec's defaults live here; a provider whose values differ declares them in
 * its own declaration (`expiry: { pixSeconds, boletoSeconds }`), never in a
 * table of this toolkit.
 */

export const SECONDS_PER_MINUTE = 60;
export const SECONDS_PER_HOUR = 3_600;
export const SECONDS_PER_DAY = 86_400;
const MS_PER_SECOND = 1_000;

/** "1 day at most providers". */
export const PIX_DEFAULT_EXPIRY_SECONDS = SECONDS_PER_DAY;
/** "3 days at most providers". */
export const BOLETO_DEFAULT_EXPIRY_SECONDS = 3 * SECONDS_PER_DAY;

/** `now` is a parameter, never read from the clock here, so callers and tests control time. */
export function expiresAfter(now: Date, seconds: number): Date {
  return new Date(now.getTime() + seconds * MS_PER_SECOND);
}

/** Whole days for the providers that take validity in days: at least one, rounded to the nearest day. */
export const wholeDays = (seconds: number): number => Math.max(1, Math.round(seconds / SECONDS_PER_DAY));

/** The calendar day (yyyy-MM-dd) an instant falls on in Brazil (America/Sao_Paulo), whatever the server's time zone: providers date charges by the day. */
const BRAZIL_DATE = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' });
export const brazilDate = (instant: Date): string => BRAZIL_DATE.format(instant);
