import { parseJsonObject } from '../../lib/json.js';

/** What stands in a stored notification for a shared secret its provider puts in the body. */
export const MASKED_SECRET = '[masked]';

/**
 * The body with `field` masked (re-serialised JSON, every other field as
 * received), for adapters whose provider authenticates notifications with a
 * secret in the body (Adapter.storableBody): a shared secret never reaches the
 * database. A body that is not a JSON object, or has no such field, is kept as
 * it is.
 */
export function maskedJsonField(body: Buffer, field: string): Buffer {
  const object = parseJsonObject(body);
  if (!object || !Object.hasOwn(object, field)) return body;
  return Buffer.from(JSON.stringify({ ...object, [field]: MASKED_SECRET }));
}
