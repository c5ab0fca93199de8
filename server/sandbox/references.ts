/** What the PSP keeps of a merchant's request beside the resource it made. */
export interface Notified {
  /** SHA-256 of the merchant's API key: the state file never holds a key in clear. */
  apiKey: string;
  /** The merchant's Idempotency-Key header: the same key gets the same resource, never a second one. */
  idempotencyKey?: string;
  notificationUrl?: string;
  /** The merchant's secret for signing this resource's notifications; unsigned without one. */
  notificationSecret?: string;
}

/**
 * Charges or withdrawals by merchant and Idempotency-Key, oldest first: a create or a lookup by reference reads one
 * entry, not every resource ever made. Keyed by the record's own key string (no copy of it), and one record is kept
 * without an array around it: most keys name one.
 */
export class ByReference<T extends Pick<Notified, 'apiKey' | 'idempotencyKey'>> {
  private readonly byMerchant = new Map<string, Map<string, T | T[]>>();

  /** The merchant's resources made under `reference`, oldest first. */
  find(apiKey: string, reference: string): readonly T[] {
    const found = this.byMerchant.get(apiKey)?.get(reference);
    return found === undefined ? [] : Array.isArray(found) ? found : [found];
  }

  add(item: T): void {
    if (!item.idempotencyKey) return;
    let references = this.byMerchant.get(item.apiKey);
    if (!references) this.byMerchant.set(item.apiKey, (references = new Map()));
    const earlier = references.get(item.idempotencyKey);
    if (earlier === undefined) references.set(item.idempotencyKey, item);
    else if (Array.isArray(earlier)) earlier.push(item);
    else references.set(item.idempotencyKey, [earlier, item]);
  }

  /** Puts `next` where `item` was (the same merchant and key): what is left of a record the PSP stops keeping whole. */
  replace(item: T, next: T): void {
    if (!item.idempotencyKey) return;
    const references = this.byMerchant.get(item.apiKey);
    const earlier = references?.get(item.idempotencyKey);
    if (earlier === item) references!.set(item.idempotencyKey, next);
    else if (Array.isArray(earlier) && earlier.includes(item)) earlier[earlier.indexOf(item)] = next;
  }
}
