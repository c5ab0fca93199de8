/**
 * Days as the back-office shows and takes them: dd/mm/aaaa on screen (as Brazil writes them, in both languages),
 * yyyy-mm-dd in the address and in requests. Pure, so the unit tests read them without a browser.
 */

/** An ISO day (yyyy-mm-dd) as dd/mm/aaaa; anything else as it is. */
export function formatDay(iso: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : iso;
}

/** What a day field shows while it is typed: its digits (8 at most) with the slashes put in, dd/mm/aaaa. */
export function typingDay(text: string): string {
  const digits = text.replace(/\D/g, '').slice(0, 8);
  if (digits.length <= 2) return digits;
  if (digits.length <= 4) return `${digits.slice(0, 2)}/${digits.slice(2)}`;
  return `${digits.slice(0, 2)}/${digits.slice(2, 4)}/${digits.slice(4)}`;
}

/**
 * A typed dd/mm/aaaa as an ISO day: '' for an empty field, undefined while it is not a whole, real day (31/02/2026,
 * 12/13/2026 and 1/1/26 are not).
 */
export function parseDay(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return '';
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(trimmed);
  if (!match) return undefined;
  const [day, month, year] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (year < 1900 || date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return undefined;
  return `${match[3]}-${match[2]}-${match[1]}`;
}

/** A day from the address: kept only when it is an ISO day, so a mangled link filters nothing rather than everything. */
export const isoDayOrEmpty = (value: string | null): string => (value && /^\d{4}-\d{2}-\d{2}$/.test(value) && parseDay(formatDay(value)) ? value : '');

/** The reader's calendar day of an instant as an ISO day. */
export function isoDayOf(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}
