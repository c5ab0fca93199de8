import type { EntityManager } from '@mikro-orm/postgresql';

/**
 * A column holding values sealed under SECRETS_KEY (entities.ts): sealed by the key itself, or, with `accountColumn`,
 * by a key derived from it for the row's provider account (saved cards).
 */
export interface SealedColumn {
  table: string;
  column: string;
  accountColumn?: string;
}

/** Every sealed column of the schema, in the order a reseal goes through them. */
export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'provider_accounts', column: 'secret_key_sealed' },
  { table: 'provider_accounts', column: 'webhook_secret_sealed' },
  { table: 'receivers', column: 'secret_sealed' },
  { table: 'operators', column: 'totp_secret_sealed' },
  { table: 'operators', column: 'totp_pending_sealed' },
  { table: 'saved_cards', column: 'card_sealed', accountColumn: 'provider_account_id' },
];

/** One stored sealed value, with what its key is derived for. */
export interface SealedValue {
  id: string;
  sealed: string;
  accountId?: string;
}

/** The sealed values of the schema's sealed columns, read in batches and replaced one by one, only where unchanged. */
export class SealedSecretsRepository {
  /** Up to `limit` sealed values of a column with an id after `afterId`, in id order; empty values are none. */
  async batch(em: EntityManager, at: SealedColumn, afterId: string | undefined, limit: number): Promise<SealedValue[]> {
    const account = at.accountColumn ? `, "${at.accountColumn}" as "accountId"` : '';
    const after = afterId === undefined ? '' : ' and "id" > ?';
    return em
      .getConnection('write')
      .execute<SealedValue[]>(
        `select "id", "${at.column}" as "sealed"${account} from "${at.table}" where "${at.column}" <> ''${after} order by "id" limit ?`,
        [...(afterId === undefined ? [] : [afterId]), limit],
        'all',
      );
  }

  /**
   * Replaces one value if it still is `from` (compare-and-set): a live process that changed it meanwhile keeps its
   * change. Whether it was replaced.
   */
  async replace(em: EntityManager, at: SealedColumn, id: string, from: string, to: string): Promise<boolean> {
    const result = await em
      .getConnection('write')
      .execute<{ affectedRows: number }>(`update "${at.table}" set "${at.column}" = ? where "id" = ? and "${at.column}" = ?`, [to, id, from], 'run');
    return result.affectedRows === 1;
  }
}
