/**
 * Status mapping as data (DESIGN §3): a provider's statuses → ours, matched
 * case-insensitively on own keys only (so 'constructor' is not a status), with
 * the table's "unknown" default for anything else. Callers log unknown statuses.
 */
export interface StatusTable<S extends string> {
  readonly entries: Readonly<Record<string, S>>;
  readonly unknown: S;
}

export function statusTable<S extends string>(entries: Readonly<Record<string, S>>, unknown: S): StatusTable<S> {
  return { entries: Object.fromEntries(Object.entries(entries).map(([status, mapped]) => [status.toLowerCase(), mapped])), unknown };
}

/** The mapped status; `onUnknown` hears about a status the table lacks (to log a warning), which then gets the default. */
export function lookupStatus<S extends string>(table: StatusTable<S>, status: unknown, onUnknown: (status: unknown, mappedTo: S) => void = () => {}): S {
  const key = typeof status === 'string' ? status.trim().toLowerCase() : '';
  if (key && Object.hasOwn(table.entries, key)) return table.entries[key]!;
  onUnknown(status, table.unknown);
  return table.unknown;
}
