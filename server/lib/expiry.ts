/**
 * PIX and boleto validity (spec doc 1 §9, doc 2 §9, doc 3 §9). The per-provider
 * values are tables keyed by the provider's upper-case identifier; a provider
 * not listed gets the spec's default ("1 day at most providers", "3 days at most
 * providers").
 */

const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 3_600;
export const SECONDS_PER_DAY = 86_400;
const MS_PER_SECOND = 1_000;

/** 1 day. */
export const PIX_DEFAULT_EXPIRY_SECONDS = SECONDS_PER_DAY;
/** 3 days. */
export const BOLETO_DEFAULT_DUE_DAYS = 3;

/** Providers whose PIX charge lives other than 1 day. Flow2Pay and PaySharkGateway state 24 h / 86400 s, the default, and are listed because the spec names them. */
export const PIX_EXPIRY_SECONDS_BY_PROVIDER: Readonly<Record<string, number>> = {
  NEWLEVEL: 2 * SECONDS_PER_DAY,
  SYNCPAY: 2 * SECONDS_PER_DAY,
  FASTSOFT: 2 * SECONDS_PER_DAY,
  BYNET: 2 * SECONDS_PER_DAY,
  CELCOIN: 5 * SECONDS_PER_DAY,
  OWEMPAY: 1 * SECONDS_PER_HOUR,
  FLOW2PAY: 24 * SECONDS_PER_HOUR,
  PAYSHARKGATEWAY: 1_440 * SECONDS_PER_MINUTE,
};

/** Providers whose boleto is due other than 3 days after creation. */
export const BOLETO_DUE_DAYS_BY_PROVIDER: Readonly<Record<string, number>> = {
  PAGARMEBAAS: 5,
  CELCOIN: 5,
  MAKEYOURBANK: 7,
  FASTSOFT: 7,
  BYNET: 7,
  PAYSHARKGATEWAY: 3,
};

export function pixExpirySecondsFor(provider: string): number {
  return PIX_EXPIRY_SECONDS_BY_PROVIDER[provider.toUpperCase()] ?? PIX_DEFAULT_EXPIRY_SECONDS;
}

export function boletoDueDaysFor(provider: string): number {
  return BOLETO_DUE_DAYS_BY_PROVIDER[provider.toUpperCase()] ?? BOLETO_DEFAULT_DUE_DAYS;
}

/** `now` is a parameter, never read from the clock here, so callers and tests control time. */
export function pixExpiresAt(now: Date, seconds: number = PIX_DEFAULT_EXPIRY_SECONDS): Date {
  return new Date(now.getTime() + seconds * MS_PER_SECOND);
}

/** `days` whole days of 24 h after `now` (Brazil has had no daylight saving since 2019, so 24 h is one calendar day there). */
export function boletoDueDate(now: Date, days: number = BOLETO_DEFAULT_DUE_DAYS): Date {
  return new Date(now.getTime() + days * SECONDS_PER_DAY * MS_PER_SECOND);
}
