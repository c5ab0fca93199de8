import type { EntityManager } from '@mikro-orm/postgresql';

/** A saved card as the gateway reads it back: still sealed. */
export interface SavedCardRecord {
  id: string;
  providerAccountId: string;
  cardSealed: string;
  revokedAt: Date | null;
}

interface Row {
  id: string;
  provider_account_id: string;
  card_sealed: string;
  revoked_at: Date | null;
}

const record = (row: Row): SavedCardRecord => ({
  id: row.id,
  providerAccountId: row.provider_account_id,
  cardSealed: row.card_sealed,
  revokedAt: row.revoked_at,
});

/** The gateway's saved cards (entities.ts, SavedCardEntity), by their UUID. */
export class SavedCardsRepository {
  async insert(em: EntityManager, card: { id: string; providerAccountId: string; cardSealed: string; now: Date }): Promise<void> {
    await em
      .getConnection('write')
      .execute('insert into saved_cards (id, provider_account_id, card_sealed, created_at) values (?, ?, ?, ?)', [
        card.id,
        card.providerAccountId,
        card.cardSealed,
        card.now,
      ]);
  }

  /** Read from the primary: a revocation must be seen by the next charge. */
  async find(em: EntityManager, id: string): Promise<SavedCardRecord | undefined> {
    const [row] = await em
      .getConnection('write')
      .execute<Row[]>('select id, provider_account_id, card_sealed, revoked_at from saved_cards where id = ?', [id], 'all');
    return row ? record(row) : undefined;
  }

  /** Marks an account's card revoked (once: a second revocation keeps the first time); undefined when it has no such card. */
  async revoke(em: EntityManager, card: { id: string; providerAccountId: string; now: Date }): Promise<Date | undefined> {
    const [row] = await em
      .getConnection('write')
      .execute<{ revoked_at: Date | string }[]>(
        'update saved_cards set revoked_at = coalesce(revoked_at, ?) where id = ? and provider_account_id = ? returning revoked_at',
        [card.now, card.id, card.providerAccountId],
        'all',
      );
    // The driver may answer a timestamp as text.
    return row ? new Date(row.revoked_at) : undefined;
  }
}
