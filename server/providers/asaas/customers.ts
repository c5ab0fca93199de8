import { createHash } from 'node:crypto';
import type { AdapterContext } from '../adapter.js';

/**
 * Which Asaas customer an account's charges for a document go to, remembered
 * in memory (providers never touch the database). An Asaas card token belongs
 * to the customer it was created for, so a card is charged on that customer
 * and never on a new one; PIX and boleto reuse it too instead of adding a
 * duplicate per charge. The directory is only a shortcut: a restart, or an
 * entry pushed out, costs one lookup by document at Asaas (GET /customers?cpfCnpj=).
 *
 * Entries are promises, so that concurrent charges for one new document wait
 * for the same lookup instead of each creating a customer; a lookup that fails
 * is forgotten. At most `capacity` entries are kept, the least recently used
 * going first.
 */
export class CustomerDirectory {
  private readonly entries = new Map<string, Promise<string>>();

  constructor(private readonly capacity = 10_000) {}

  /**
   * The customer id for `document` on this account: remembered, else `resolve()`
   * (find or create at Asaas), remembered once it succeeds.
   */
  customerFor(ctx: AdapterContext, document: string, resolve: () => Promise<string>): Promise<string> {
    const key = entryKey(ctx, document);
    const known = this.entries.get(key);
    if (known) {
      this.entries.delete(key);
      this.entries.set(key, known);
      return known;
    }
    const pending = resolve();
    this.entries.set(key, pending);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    pending.catch(() => {
      if (this.entries.get(key) === pending) this.entries.delete(key);
    });
    return pending;
  }

  /** Forgets the account's customer for `document` (Asaas refused a charge on it: the next one looks it up again). */
  forget(ctx: AdapterContext, document: string): void {
    this.entries.delete(entryKey(ctx, document));
  }

  get size(): number {
    return this.entries.size;
  }
}

/**
 * The account, the Asaas environment and key it talks to (a changed key may be
 * another Asaas account, whose customers differ) and the document, hashed so
 * that the key held in memory is no credential.
 */
function entryKey(ctx: AdapterContext, document: string): string {
  return createHash('sha256').update([ctx.accountId, ctx.baseUrl, ctx.secretKey, document].join('\0')).digest('base64url');
}
