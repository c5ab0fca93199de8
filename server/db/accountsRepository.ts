import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { SecretBox } from '../lib/secretBox.js';
import type { AccountChange, ProviderAccount, ProviderAccountInput, ProviderAccountPatch, ProviderAccountWithSecrets, StatusEvent } from '../domain/types.js';
import { ProviderAccountEntity, type ProviderAccountRow } from './entities.js';
import { findOneConsistent, type Consistency } from './consistency.js';
import { unitOf } from './unitOfWork.js';
import { announceAccountChange } from './accountChanges.js';
import { isUuid } from '../lib/ids.js';
import { recordStatusEvent, toStatusEvent } from './statusRepository.js';

const orUndefined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

/** An account with its opened secrets, as read, and until when it may be served from memory. */
interface CachedAccount {
  account: ProviderAccountWithSecrets;
  deleted: boolean;
  until: number;
}

/**
 * Provider accounts, with secrets sealed on the way in and opened only on request.
 *
 * Every money call reads its account and opens both secrets: those are kept in memory for `cacheMs` (ACCOUNT_CACHE_MS),
 * so a burst of charges on one account reads and decrypts it once. A change or deletion announces itself in its own
 * database transaction (accountChanges.ts): this process drops the entry at once, and every other process of the
 * database drops it when the announcement reaches it, as soon as the change commits, while its listener is listening.
 * `cacheMs` stays the upper bound: a process not listening (embedded database, connection lost) sees another
 * process's change within that time, and so does every process for a change written by hand in SQL.
 */
export class AccountsRepository {
  private readonly cache = new Map<string, CachedAccount>();
  /** Moves on every drop: a read that started before one does not cache what it read, which may predate the change. */
  private generation = 0;

  constructor(
    private readonly secrets: SecretBox,
    private readonly cacheMs = 5_000,
    private readonly clock: () => number = Date.now,
  ) {}

  private toAccount(row: ProviderAccountRow): ProviderAccount {
    return {
      id: row.id,
      provider: row.provider,
      name: row.name,
      publicKey: row.publicKey,
      hasSecretKey: row.secretKeySealed !== '',
      baseUrl: orUndefined(row.baseUrl),
      platformId: orUndefined(row.platformId),
      certCashInUrl: orUndefined(row.certCashInUrl),
      certCashOutUrl: orUndefined(row.certCashOutUrl),
      apiVersion: orUndefined(row.apiVersion),
      installmentPlan: orUndefined(row.installmentPlan),
      hasWebhookSecret: Boolean(row.webhookSecretSealed),
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
    };
  }

  private seal(value: string | undefined): string | null {
    return value ? this.secrets.seal(value) : null;
  }

  /**
   * Writes the account's pending changes and an event saying what happened, in one database transaction: the event
   * names the account only, never what changed in it. A change of an existing account is announced in the same
   * transaction, so that other processes drop their copy exactly when it commits.
   */
  private async flushWithEvent(em: EntityManager, row: ProviderAccountRow, change: AccountChange, at: Date): Promise<StatusEvent> {
    if (change === 'CREATED') {
      const event = recordStatusEvent(em, 'PROVIDER_ACCOUNT', row.id, row.id, change, 'api', at);
      await em.flush();
      return toStatusEvent(event);
    }
    return em.transactional(async (tx) => {
      const event = recordStatusEvent(tx, 'PROVIDER_ACCOUNT', row.id, row.id, change, 'api', at);
      await tx.flush();
      await announceAccountChange(tx, row.id);
      return toStatusEvent(event);
    });
  }

  /** Drops one account's entry: it changed, through this process or (announced by the database) another. */
  forget(id: string): void {
    this.generation += 1;
    this.cache.delete(id);
  }

  /** Drops every entry: changes may have gone unannounced to this process (its listener was not listening). */
  forgetAll(): void {
    this.generation += 1;
    this.cache.clear();
  }

  async create(em: EntityManager, input: ProviderAccountInput): Promise<{ account: ProviderAccount; event: StatusEvent }> {
    const now = new Date();
    const row = em.create(ProviderAccountEntity, {
      id: randomUUID(),
      provider: input.provider,
      name: input.name,
      publicKey: input.publicKey,
      secretKeySealed: this.seal(input.secretKey) ?? '',
      baseUrl: input.baseUrl ?? null,
      platformId: input.platformId ?? null,
      certCashInUrl: input.certCashInUrl ?? null,
      certCashOutUrl: input.certCashOutUrl ?? null,
      webhookSecretSealed: this.seal(input.webhookSecret),
      apiVersion: input.apiVersion || null,
      installmentPlan: input.installmentPlan ?? null,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
    });
    em.persist(row);
    const event = await this.flushWithEvent(em, row, 'CREATED', now);
    return { account: this.toAccount(row), event };
  }

  private async row(em: EntityManager, id: string, includeDeleted: boolean, consistency: Consistency = 'replica'): Promise<ProviderAccountRow | null> {
    if (!isUuid(id)) return null;
    // An account is often used right after it is created: a replica miss is checked on the primary.
    const { row } = await findOneConsistent(em, ProviderAccountEntity, { id }, consistency);
    return row && (includeDeleted || !row.deletedAt) ? row : null;
  }

  async get(em: EntityManager, id: string): Promise<ProviderAccount | null> {
    const row = await this.row(em, id, false);
    return row && this.toAccount(row);
  }

  /** Deleted accounts are found too when `includeDeleted`: their late notifications must still land. */
  async getWithSecrets(em: EntityManager, id: string, { includeDeleted = false } = {}): Promise<ProviderAccountWithSecrets | null> {
    const cached = this.cache.get(id);
    if (cached && cached.until > this.clock()) return cached.deleted && !includeDeleted ? null : cached.account;
    const generation = this.generation;
    // What is kept is read on the primary: a lagging replica would hand back the version a change's announcement
    // just dropped, to be served for `cacheMs`. Once per account and `cacheMs`, so the primary hardly notices.
    const row = await this.row(unitOf(em), id, true, this.cacheMs > 0 ? 'primary' : 'replica');
    if (!row) return null;
    const account: ProviderAccountWithSecrets = {
      ...this.toAccount(row),
      secretKey: row.secretKeySealed ? this.secrets.open(row.secretKeySealed) : '',
      webhookSecret: row.webhookSecretSealed ? this.secrets.open(row.webhookSecretSealed) : undefined,
    };
    if (this.cacheMs > 0 && generation === this.generation) {
      this.cache.set(id, { account, deleted: Boolean(row.deletedAt), until: this.clock() + this.cacheMs });
    }
    return row.deletedAt && !includeDeleted ? null : account;
  }

  async list(em: EntityManager, provider?: string): Promise<ProviderAccount[]> {
    const rows = await em.find(ProviderAccountEntity, { deletedAt: null, ...(provider ? { provider } : {}) }, { orderBy: { createdAt: 'asc' } });
    return rows.map((row) => this.toAccount(row));
  }

  /** Unset fields keep their value; an empty string clears an optional one. */
  async update(em: EntityManager, id: string, patch: ProviderAccountPatch): Promise<{ account: ProviderAccount; event: StatusEvent } | null> {
    const row = await this.row(em, id, false);
    if (!row) return null;
    const clearable = (value: string | undefined, current: string | null): string | null => (value === undefined ? current : value || null);
    if (patch.name !== undefined) row.name = patch.name;
    if (patch.publicKey !== undefined) row.publicKey = patch.publicKey;
    if (patch.secretKey !== undefined) row.secretKeySealed = this.seal(patch.secretKey) ?? '';
    row.baseUrl = clearable(patch.baseUrl, row.baseUrl ?? null);
    row.platformId = clearable(patch.platformId, row.platformId ?? null);
    row.certCashInUrl = clearable(patch.certCashInUrl, row.certCashInUrl ?? null);
    row.certCashOutUrl = clearable(patch.certCashOutUrl, row.certCashOutUrl ?? null);
    row.apiVersion = clearable(patch.apiVersion, row.apiVersion ?? null);
    if (patch.installmentPlan !== undefined) row.installmentPlan = patch.installmentPlan;
    if (patch.webhookSecret !== undefined) row.webhookSecretSealed = this.seal(patch.webhookSecret);
    row.updatedAt = new Date();
    const event = await this.flushWithEvent(em, row, 'UPDATED', row.updatedAt);
    this.forget(id);
    return { account: this.toAccount(row), event };
  }

  /** The event of the deletion, or undefined when there is no such account. */
  async softDelete(em: EntityManager, id: string): Promise<StatusEvent | undefined> {
    const row = await this.row(em, id, false);
    if (!row) return undefined;
    row.deletedAt = new Date();
    const event = await this.flushWithEvent(em, row, 'DELETED', row.deletedAt);
    this.forget(id);
    return event;
  }
}
