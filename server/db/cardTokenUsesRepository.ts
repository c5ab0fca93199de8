import type { EntityManager } from '@mikro-orm/postgresql';

/** What using a token came to: its first use, a retry of the charge that used it, or a second use (refused). */
export type CardTokenUse = 'first' | 'retry' | 'reused';

/** How long after its token expired a use row is kept (a token past its expiry is refused before the table is read). */
const KEEP_AFTER_EXPIRY = `interval '1 day'`;

/** The uses of the gateway's card tokens (entities.ts, CardTokenUseEntity), by the token's hash only. */
export class CardTokenUsesRepository {
  /**
   * Records that a charge uses a token, atomically: the first use of its hash wins. Another use is a retry when it
   * comes from the same account with the same (non-empty) idempotency key as the first; anything else is a reuse.
   */
  async use(
    em: EntityManager,
    use: { tokenHash: string; providerAccountId: string; idempotencyKey?: string; expiresAt: Date; now?: Date },
  ): Promise<CardTokenUse> {
    const connection = em.getConnection('write');
    const now = use.now ?? new Date();
    const inserted = await connection.execute<unknown[]>(
      `insert into card_token_uses (token_hash, provider_account_id, idempotency_key, used_at, expires_at) values (?, ?, ?, ?, ?)
       on conflict (token_hash) do nothing returning token_hash`,
      [use.tokenHash, use.providerAccountId, use.idempotencyKey ?? null, now, use.expiresAt],
      'all',
    );
    if (inserted.length > 0) {
      // Rows whose tokens expired a while ago prove nothing any more; a few go with each new use.
      await connection.execute(
        `delete from card_token_uses where token_hash in (select token_hash from card_token_uses where expires_at < ?::timestamptz - ${KEEP_AFTER_EXPIRY} limit 100)`,
        [now],
      );
      return 'first';
    }
    const [first] = await connection.execute<{ provider_account_id: string; idempotency_key: string | null }[]>(
      'select provider_account_id, idempotency_key from card_token_uses where token_hash = ?',
      [use.tokenHash],
      'all',
    );
    const sameCharge = Boolean(use.idempotencyKey) && first?.provider_account_id === use.providerAccountId && first?.idempotency_key === use.idempotencyKey;
    return sameCharge ? 'retry' : 'reused';
  }
}
