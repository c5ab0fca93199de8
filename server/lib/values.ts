/**
 * Reading single values out of a provider's JSON, where any field may be
 * missing, null or of another type than documented.
 */

/** An id as text: a non-blank string (trimmed) or a finite number; anything else is no id. */
export const idText = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

/** A non-blank string, trimmed; anything else is undefined. */
export const textOf = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** A date from an ISO text or epoch milliseconds; undefined when absent or unreadable. */
export function dateOf(value: unknown): Date | undefined {
  if (typeof value !== 'string' && typeof value !== 'number') return undefined;
  if (typeof value === 'string' && !value.trim()) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
