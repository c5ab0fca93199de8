import type pg from 'pg';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '../lib/logger.js';

/** The channel a committed change or deletion of a provider account is announced on; the payload is the account's id. */
export const ACCOUNT_CHANGES_CHANNEL = 'provider_account_changed';

/** How the listener's connection shows in pg_stat_activity. */
export const ACCOUNT_CHANGES_APPLICATION_NAME = 'payment-gateway-account-changes';

/**
 * Announces a change of an account in the caller's database transaction: PostgreSQL delivers a NOTIFY when that
 * transaction commits, and never when it rolls back, so no process drops its copy before the change is visible nor
 * for a change that did not happen.
 */
export async function announceAccountChange(tx: EntityManager, id: string): Promise<void> {
  await tx.execute('select pg_notify(?, ?)', [ACCOUNT_CHANGES_CHANNEL, id], 'run');
}

/**
 * Ends a session: politely when it is up (Terminate; the server closes it), cut if the server has not closed it within
 * a second (gone quiet), and cut at once while it is still being made. Not end() then: pg's end() waits for a server
 * that may never answer, and leaves a connect() under way unsettled for good.
 */
async function hangUp(client: pg.Client, politely: boolean): Promise<void> {
  if (politely) {
    const ended = client.end().catch(() => {});
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([ended.then(() => false), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), 1_000)))]);
    clearTimeout(timer);
    if (!late) return;
  }
  client.connection.stream.destroy();
}

/** What the listener tells the accounts cache. */
export interface AccountChangesTarget {
  /** This account changed or was deleted (through any process of this database, this one included). */
  forget(id: string): void;
  /** Changes may have gone unheard (the connection was lost, or is back after a gap): nothing cached can be trusted. */
  forgetAll(): void;
}

export interface AccountChangesOptions {
  /** A new connection of its own to the primary (NOTIFY is delivered there only), outside the ORM's pools. */
  connect: () => pg.Client;
  target: AccountChangesTarget;
  logger: Logger;
  /** Reconnection back-off: the first wait, doubled on each failure up to `maxRetryMs`. */
  firstRetryMs?: number;
  maxRetryMs?: number;
}

/**
 * Holds one connection LISTENing for account changes and drops the named account from the cache on each. While it
 * is not listening (before it first does, after losing its connection, between reconnection attempts), the cache's
 * own expiry (ACCOUNT_CACHE_MS) is the only bound: losing the connection clears the cache, and so does listening
 * again, since what was announced in between was lost.
 */
export class AccountChangesListener {
  private client: pg.Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private attempt: Promise<void> | undefined;
  private failures = 0;
  private closed = false;
  private listening = false;

  constructor(private readonly options: AccountChangesOptions) {}

  /** Resolves once listening, or once the first attempt failed (logged; it keeps trying in the background). */
  async start(): Promise<this> {
    await this.connect();
    return this;
  }

  get isListening(): boolean {
    return this.listening;
  }

  private connect(): Promise<void> {
    this.retry = undefined;
    const attempt = this.listen().finally(() => {
      if (this.attempt === attempt) this.attempt = undefined;
    });
    this.attempt = attempt;
    return attempt;
  }

  private async listen(): Promise<void> {
    const { target, logger } = this.options;
    const client = this.options.connect();
    this.client = client;
    let lost = false;
    const lose = (error?: Error) => {
      if (lost) return;
      lost = true;
      const wasListening = this.listening && this.client === client;
      if (this.client === client) {
        this.client = undefined;
        this.listening = false;
      }
      client.removeAllListeners('notification');
      void hangUp(client, false);
      if (this.closed) return;
      target.forgetAll();
      this.failures += 1;
      const delayMs = this.delayMs();
      logger.warn(
        { reason: error?.message ?? 'connection closed', retryInMs: delayMs, failures: this.failures },
        wasListening
          ? 'account changes: lost the listening connection; cached accounts cleared and now only expire after ACCOUNT_CACHE_MS until it is back'
          : 'account changes: could not listen; cached accounts only expire after ACCOUNT_CACHE_MS until it can',
      );
      this.retry = setTimeout(() => void this.connect(), delayMs);
      this.retry.unref();
    };
    client.on('error', lose);
    client.on('end', () => lose());
    client.on('notification', ({ channel, payload }) => {
      if (channel === ACCOUNT_CHANGES_CHANNEL && payload) target.forget(payload);
    });
    try {
      await client.connect();
      await client.query(`listen ${ACCOUNT_CHANGES_CHANNEL}`);
    } catch (error) {
      lose(error as Error);
      return;
    }
    if (lost) return;
    if (this.closed) {
      await hangUp(client, true);
      return;
    }
    this.listening = true;
    // Whatever was cached while not listening may have missed its announcement; from here on none is missed.
    target.forgetAll();
    if (this.failures > 0) logger.warn({ failures: this.failures }, 'account changes: listening again; cached accounts cleared');
    this.failures = 0;
  }

  /** Doubling from the first wait up to the ceiling, each drawn between half and all of it (processes do not retry in step). */
  private delayMs(): number {
    const first = this.options.firstRetryMs ?? 250;
    const ceiling = Math.max(first, this.options.maxRetryMs ?? 10_000);
    const full = Math.min(ceiling, first * 2 ** Math.min(this.failures - 1, 20));
    return Math.round(full / 2 + (Math.random() * full) / 2);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    const listening = this.listening;
    this.client = undefined;
    this.listening = false;
    // Cutting a connection still being made (a database that does not answer) also ends the attempt at once.
    if (client) await hangUp(client, listening);
    await this.attempt;
  }
}
