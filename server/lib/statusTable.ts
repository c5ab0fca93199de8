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

/**
 * What a provider declares about its statuses, over its family's table. One
 * rule everywhere: `table` replaces the family's entries (VENITIP's "only paid,
 * received, confirmed are APPROVED"), `overrides` are then added or changed,
 * and `unknown` replaces the default for a status in no entry.
 */
export interface StatusDeclaration<S extends string> {
  readonly table?: Readonly<Record<string, S>>;
  readonly overrides?: Readonly<Record<string, S>>;
  readonly unknown?: S;
}

export function declaredStatusTable<S extends string>(family: StatusTable<S>, declared: StatusDeclaration<S> = {}): StatusTable<S> {
  const base = declared.table ? statusTable(declared.table, family.unknown).entries : family.entries;
  const overrides = declared.overrides ? statusTable(declared.overrides, family.unknown).entries : {};
  return { entries: { ...base, ...overrides }, unknown: declared.unknown ?? family.unknown };
}
