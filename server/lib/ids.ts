const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The gateway's ids are UUIDs; anything else cannot name a row (and must not reach a uuid column as a query error). */
export const isUuid = (value: string): boolean => UUID.test(value);
