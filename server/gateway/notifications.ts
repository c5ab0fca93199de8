import { GatewayError, isGatewayError, notFound } from '../lib/errors.js';
import type { ProviderAccountWithSecrets, UnsolicitedPayment, WebhookNotification, WebhookOutcome, WebhookResult } from '../domain/types.js';
import {
  isDuplicateClaim,
  type DedupClaim,
  type NewNotificationRow,
  type NotificationFilter,
  type OutcomeUpdate,
  type QueueDepth,
  type StoredNotification,
} from '../db/notificationsRepository.js';
import { GroupedWrites } from '../lib/groupedWrites.js';
import type { StatusMove } from '../db/statusRepository.js';
import type { AdapterContext, IncomingNotification, NotificationVerdict, ProviderAdapter } from '../providers/adapter.js';
import { resolveAccount, type GatewayDeps } from './context.js';
import { isUuid } from '../lib/ids.js';
import { cancellableRead } from '../lib/callScope.js';
import { TokenBuckets } from '../lib/tokenBuckets.js';
import { isWholeCents } from '../lib/money.js';
import { refusedAnswer } from './flowIntegrity.js';
import { moveSubjectAsAnswered, TRANSACTIONS, WITHDRAWALS, type ProviderView, type SubjectKind, type Tracked } from './subjects.js';
import { firstStated } from '../domain/pixPayments.js';

type RecordOutcome = (outcome: WebhookOutcome, reason?: string, result?: WebhookResult, subjectId?: string, retryAt?: Date) => Promise<WebhookNotification>;

/** One notification being processed: where it came from, what its signature said, and how to record what came of it. */
interface Processing {
  stored: StoredNotification;
  account: ProviderAccountWithSecrets;
  adapter: ProviderAdapter;
  ctx: AdapterContext;
  verdict: NotificationVerdict;
  record: RecordOutcome;
  /**
   * Claims the notification's dedup key; true when another copy already holds it. Only a proven notification claims
   * one: signed (or authenticated at intake), or confirmed by the provider's read. One that was not (a forged claim
   * the read refused) never makes a later copy a duplicate.
   */
  claimKey(): Promise<boolean>;
  /** Whether another copy, proven, holds the key already: asked before an unsigned notification costs a read. */
  keyHeld(): Promise<boolean>;
}

const DUPLICATE_REASON = 'the same notification was already received';

export interface IncomingWebhook {
  /** The provider named in the sidecar path; the account must belong to it. */
  provider?: string;
  providerAccountId: string;
  body: Buffer;
  headers: Record<string, string>;
  /** The URL's query parameters, credential-like ones already left out (the sidecar's withoutCredentialParams). */
  query?: Record<string, string>;
}

export interface NotificationProcessingOptions {
  /** How long a worker holds a notification before another may take it over (a crashed worker's). */
  leaseMs: number;
  /** Attempts for a notification whose processing failed or whose charge is not known yet. */
  maxAttempts: number;
  /** Delay before attempt n + 1: baseRetryMs × 2^(n-1), at most an hour. */
  baseRetryMs: number;
  /** Notifications (or subjects) one worker round works on at once (WEBHOOK_CONCURRENCY); default 8. */
  concurrency?: number;
}

/**
 * Notifications one worker round leases, and how many of them (or of their subjects) are worked on at once by
 * default. More at once process a backlog faster and with less CPU each (more dedup keys per statement, a shorter
 * tail per batch), but take the cores first from an intake in the same process: 8 keeps a sidecar that also
 * processes answering quickly; a process that only processes may take more (docs/benchmarks.md).
 */
const NOTIFICATION_BATCH = 100;
export const DEFAULT_PROCESSING_CONCURRENCY = 8;

/** `work` over `items`, at most `limit` at a time; results in the items' order. */
async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}

export const DEFAULT_PROCESSING: NotificationProcessingOptions = { leaseMs: 30_000, maxAttempts: 8, baseRetryMs: 2_000 };

/** Notifications with a bad signature stored per account and hour (WEBHOOK_BAD_SIGNATURE_STORE_LIMIT): evidence is kept, a flood is not. */
export const DEFAULT_BAD_SIGNATURES_STORED_PER_HOUR = 100;

const lowerCaseHeaders = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/**
 * Provider notifications: stored exactly as received before anything else,
 * signature checked where the provider signs, then processed from the store by
 * workers (deduplicated, confirmed with the provider when unsigned, applied
 * through the state machine).
 */
export class NotificationsService {
  private wake: () => void = () => {};
  private readonly badSignatureStores: TokenBuckets;
  /** Bad-signature notifications refused without being stored, per account, since this process started (logged with each). */
  private readonly unstoredBadSignatures = new Map<string, number>();
  /** Notifications arriving together are stored by one INSERT (group commit): a burst costs a statement per batch, not per notification. */
  private readonly intakeWrites = new GroupedWrites<NewNotificationRow>((rows) => this.deps.notifications.insertRows(this.deps.db.em(), rows));
  /**
   * Dedup keys claimed by notifications processed side by side go in one UPDATE. A claim refused because a copy holds
   * the key fails the group's statement; the group is then claimed row by row, so only the copy is told it is one.
   */
  private readonly dedupClaims = new GroupedWrites<DedupClaim>((claims) => this.deps.notifications.claimDedupKeys(this.deps.db.em(), claims));

  constructor(
    private readonly deps: GatewayDeps,
    private readonly options: NotificationProcessingOptions = DEFAULT_PROCESSING,
    badSignaturesStoredPerHour = DEFAULT_BAD_SIGNATURES_STORED_PER_HOUR,
  ) {
    this.badSignatureStores = new TokenBuckets({ perSecond: badSignaturesStoredPerHour / 3600, burst: badSignaturesStoredPerHour });
  }

  /** Called when a notification is stored, so a worker in this process starts at once. */
  onStored(wake: () => void): void {
    this.wake = wake;
  }

  private async account(provider: string | undefined, providerAccountId: string) {
    const adapter = provider ? this.deps.registry.find(provider) : undefined;
    if (provider && !adapter) throw notFound(`unknown provider ${provider}`);
    // Deleted accounts still take notifications: a charge made before the deletion must still settle.
    const missing = () => notFound(`provider account ${providerAccountId} not found${provider ? ` for provider ${provider}` : ''}`);
    // The account's one context (gateway/context.ts), so that its adapter's HTTP client is reused here too.
    const resolved = await resolveAccount(this.deps, providerAccountId, { includeDeleted: true }).catch((error: unknown) => {
      throw isGatewayError(error) && ['NOT_FOUND', 'FAILED_PRECONDITION', 'INVALID_ARGUMENT'].includes(error.code) ? missing() : error;
    });
    if (adapter && adapter !== resolved.adapter) throw missing();
    return resolved;
  }

  /** Stores the notification as received, for the workers; refuses (401) one whose signature does not match. */
  async intake(incoming: IncomingWebhook): Promise<WebhookNotification> {
    const row = await this.store(incoming);
    this.wake();
    return this.deps.notifications.summaryOf(row);
  }

  /**
   * Stores and processes at once (the ProcessWebhook RPC): the answer carries the outcome. The notification is stored
   * already leased to this call, so the workers, which poll the same queue, cannot take it first and leave the
   * caller with a bare RECEIVED; should this process die before finishing, the lease runs out and a worker takes it.
   */
  async receive(incoming: IncomingWebhook): Promise<WebhookNotification> {
    const row = await this.store(incoming, this.options.leaseMs);
    const step = await this.prepare(this.deps.notifications.storedOfRow(row));
    return step.apply();
  }

  /** Stores the notification (leased for `leaseMs` when given); refuses (401) one whose signature does not match. */
  private async store(incoming: IncomingWebhook, leaseMs?: number): Promise<NewNotificationRow> {
    const { account, adapter, ctx } = await this.account(incoming.provider, incoming.providerAccountId);
    // The stored account's provider, never the one in the path: a label must not be whatever a sender typed.
    this.deps.observer.notificationReceived(account.provider);
    const headers = lowerCaseHeaders(incoming.headers);
    const query = incoming.query ?? {};
    const verdict = adapter.verifyNotification(ctx, { body: incoming.body, headers, query });
    if (verdict === 'invalid' && this.badSignatureStores.take(account.id) > 0) {
      this.deps.observer.notificationProcessed(account.provider, 'REJECTED');
      const unstored = (this.unstoredBadSignatures.get(account.id) ?? 0) + 1;
      this.unstoredBadSignatures.set(account.id, unstored);
      this.deps.logger.warn(
        { provider: account.provider, providerAccountId: account.id, unstoredBadSignatures: unstored },
        'notification with a bad signature refused and not stored: the account has used its budget of stored bad-signature notifications',
      );
      throw new GatewayError('UNAUTHENTICATED', 'invalid notification signature', { reason: 'BAD_SIGNATURE' });
    }
    const row = this.deps.notifications.newRow(
      {
        provider: account.provider,
        providerAccountId: account.id,
        body: adapter.storableBody(incoming.body),
        headers,
        query,
        authenticatedAtIntake: verdict === 'valid',
        rejected: verdict === 'invalid',
      },
      leaseMs,
    );
    // Acknowledged only once stored: the write that carries it (with the others that arrived meanwhile) has committed.
    await this.intakeWrites.add(row);
    if (verdict === 'invalid') {
      await this.deps.notifications.recordOutcome(this.deps.db.em(), row.id, {
        outcome: 'REJECTED',
        reason: 'the signature does not match the account webhook secret',
      });
      this.deps.observer.notificationProcessed(account.provider, 'REJECTED');
      throw new GatewayError('UNAUTHENTICATED', 'invalid notification signature', { reason: 'BAD_SIGNATURE' });
    }
    return row;
  }

  /** Processes one stored notification again, as if it had just arrived. */
  async reprocess(id: string): Promise<WebhookNotification> {
    if (!isUuid(id)) throw notFound(`notification ${id} not found`);
    const processed = await this.claimAndProcess(id);
    if (!processed)
      throw new GatewayError('FAILED_PRECONDITION', `notification ${id} is being processed right now, or does not exist`, { reason: 'NOTIFICATION_BUSY' });
    return processed;
  }

  /** One stored notification as received (body and headers), for an operator. */
  async get(id: string): Promise<StoredNotification> {
    const stored = isUuid(id) ? await cancellableRead(() => this.deps.notifications.get(this.deps.db.em(), id)) : null;
    if (!stored) throw notFound(`notification ${id} not found`);
    return stored;
  }

  list(filter: NotificationFilter, pageSize: number, pageToken?: string) {
    return this.deps.notifications.list(this.deps.db.em(), filter, pageSize, pageToken);
  }

  /** Notifications waiting to be processed, by where they are in the queue (the metrics endpoint reads it on each scrape). */
  queueDepth(): Promise<QueueDepth> {
    return this.deps.notifications.queueDepth(this.deps.db.em());
  }

  /**
   * One worker round: leases up to `limit` due notifications and processes them `concurrency` at a
   * time. Notifications about one subject (one charge or payout) are applied one after another in the order they
   * were received, since a later status may only be valid after an earlier one; different subjects go side by side.
   * Returns how many were processed.
   */
  async processDue(limit = NOTIFICATION_BATCH): Promise<number> {
    const leased = await this.deps.notifications.claimDue(this.deps.db.em(), limit, this.options.leaseMs);
    const concurrency = this.options.concurrency ?? DEFAULT_PROCESSING_CONCURRENCY;
    const prepared = await mapLimited(leased, concurrency, (stored) => this.prepare(stored));
    const bySubject = new Map<string, (() => Promise<WebhookNotification>)[]>();
    for (const step of prepared) {
      const queue = bySubject.get(step.subject);
      if (queue) queue.push(step.apply);
      else bySubject.set(step.subject, [step.apply]);
    }
    await mapLimited([...bySubject.values()], concurrency, async (queue) => {
      for (const apply of queue) await apply();
    });
    return leased.length;
  }

  /** Leases one notification and processes it; every path ends in a recorded outcome. */
  private async claimAndProcess(id: string): Promise<WebhookNotification | undefined> {
    const stored = await this.deps.notifications.claimOne(this.deps.db.em(), id, this.options.leaseMs);
    if (!stored) return undefined;
    const step = await this.prepare(stored);
    return step.apply();
  }

  private retryAt(attempts: number): Date | undefined {
    if (attempts >= this.options.maxAttempts) return undefined;
    return new Date(Date.now() + Math.min(this.options.baseRetryMs * 2 ** (attempts - 1), 3_600_000));
  }

  /**
   * Verifies and parses a notification this worker holds (as its lease answered it), and names its subject; `apply`
   * finishes it (every path ends in a recorded outcome). A notification that ends here (rejected, ignored, failed)
   * is its own subject.
   */
  private async prepare(stored: StoredNotification): Promise<{ subject: string; apply: () => Promise<WebhookNotification> }> {
    const { id } = stored;
    const finished = (outcome: Promise<WebhookNotification>) => ({ subject: `notification:${id}`, apply: () => outcome });
    const record: RecordOutcome = async (outcome, reason, result, subjectId, retryAt) => {
      const recorded = await this.deps.notifications.recordOutcome(this.deps.db.em(), id, { outcome, reason, result, subjectId, retryAt });
      this.deps.observer.notificationProcessed(stored.provider, outcome);
      return recorded;
    };
    const failed = (error: unknown) => {
      const reason = error instanceof Error ? error.message : String(error);
      if (isGatewayError(error) && error.code === 'UNAUTHENTICATED') return record('REJECTED', reason);
      this.deps.logger.warn({ err: error, notificationId: id }, 'notification processing failed; it will be retried');
      return record('FAILED', reason, undefined, undefined, this.retryAt(stored.attempts));
    };
    try {
      const { adapter, ctx, account } = await this.account(undefined, stored.providerAccountId);
      const notification: IncomingNotification = { body: stored.body, headers: stored.headers, query: stored.query, receivedAt: stored.receivedAt };
      const checked = adapter.verifyNotification(ctx, notification);
      if (checked === 'invalid') return finished(record('REJECTED', 'the signature does not match the account webhook secret'));
      // A credential header (a token, Basic auth) is not stored, so what it proved at intake is kept instead.
      const verdict = checked === 'unsigned' && stored.authenticatedAtIntake ? 'valid' : checked;
      const result = await adapter.processWebhook(ctx, notification);
      if (!result) return finished(record('IGNORED', 'the adapter yields nothing for this notification (an event it ignores, or a body it cannot parse)'));
      let key: string | undefined;
      const dedupKey = () => (key ??= adapter.notificationKey(ctx, notification));
      const processing: Processing = {
        stored,
        account,
        adapter,
        ctx,
        verdict,
        record,
        claimKey: () =>
          this.dedupClaims.add({ id, dedupKey: dedupKey() }).then(
            () => false,
            (error: unknown) => {
              if (isDuplicateClaim(error)) return true;
              throw error;
            },
          ),
        keyHeld: () => this.deps.notifications.isDedupKeyHeld(this.deps.db.em(), { id, providerAccountId: account.id, dedupKey: dedupKey() }),
      };
      // An unsolicited payment becomes a charge: its later notifications name the same provider id.
      const kind = result.type === 'WITHDRAW' ? 'WITHDRAW' : 'TRANSACTION';
      return {
        subject: `${account.id}:${kind}:${result.transactionId}`,
        apply: async () => {
          try {
            if (result.type === 'UNSOLICITED_PAYMENT') return await this.recordUnsolicitedPayment(processing, result);
            if (result.type === 'TRANSACTION') return await this.applyStatus(processing, TRANSACTIONS, result);
            return await this.applyStatus(processing, WITHDRAWALS, result);
          } catch (error) {
            return failed(error);
          }
        },
      };
    } catch (error) {
      return finished(failed(error));
    }
  }

  /**
   * A payment with no charge in the gateway (a static QR code paid, a PIX to the
   * account's key) becomes a transaction of its own, once per provider id: a later
   * notification about it is an ordinary status notification. Unsigned, it is
   * confirmed with the provider first, like any claim that money moved, and the
   * read's amount is the one recorded where it says another.
   */
  private async recordUnsolicitedPayment(processing: Processing, payment: UnsolicitedPayment): Promise<WebhookNotification> {
    const { account, adapter, ctx, verdict, record } = processing;
    if (await this.deps.transactions.findTransactionByProviderId(this.deps.db.em(), account.id, payment.transactionId))
      return this.applyStatus(processing, TRANSACTIONS, payment);
    const proven = verdict === 'valid';
    if (proven ? await processing.claimKey() : await processing.keyHeld()) return record('DUPLICATE', DUPLICATE_REASON, payment);
    if (!isWholeCents(payment.amount))
      return record('MISMATCH', `a payment with no charge whose amount is not a whole number of cents (${String(payment.amount)}): nothing recorded`, payment);
    let { status, amount } = payment;
    let unconfirmed: string | undefined;
    if (!proven && TRANSACTIONS.confirmBeforeApplying.has(status)) {
      if (!adapter.supports(TRANSACTIONS.lookup))
        return record('UNCONFIRMED', `unsigned ${status} cannot be confirmed: ${account.provider} offers no transaction lookup; nothing recorded`, payment);
      const actual = await TRANSACTIONS.askProvider(adapter, ctx, payment.transactionId);
      if (actual.providerId && actual.providerId !== payment.transactionId)
        return record('MISMATCH', `the provider answered about ${actual.providerId}, asked about ${payment.transactionId}: nothing recorded`, payment);
      if (actual.amount !== undefined && !isWholeCents(actual.amount))
        return record(
          'MISMATCH',
          `the provider answered an amount that is not a whole number of cents (${JSON.stringify(actual.amount)}): nothing recorded`,
          payment,
        );
      const differences = [
        ...(actual.status !== status ? [`the provider reports ${actual.status}, the notification claimed ${status}`] : []),
        ...(actual.amount !== undefined && actual.amount !== amount
          ? [`the provider reports ${actual.amount} cents, the notification claimed ${amount} cents`]
          : []),
      ];
      if (differences.length) {
        unconfirmed = differences.join('; ');
        status = actual.status;
        amount = actual.amount ?? amount;
      } else if (await processing.claimKey()) return record('DUPLICATE', DUPLICATE_REASON, payment);
    }
    const { transaction, event, created } = await this.deps.transactions.recordUnsolicitedPayment(this.deps.db.em(), {
      provider: account.provider,
      providerAccountId: account.id,
      // The notification's PIX payer and end-to-end id only where the read did not contradict it.
      payment: { ...payment, status, amount, ...(unconfirmed ? { pixPayment: undefined } : {}) },
      source: unconfirmed ? 'poll' : 'webhook',
    });
    // Another copy (a different event about the same payment) recorded it meanwhile: this one is a status notification.
    if (!created) return this.applyStatus(processing, TRANSACTIONS, payment);
    if (event) this.deps.events.published(event);
    const recorded = `recorded a payment with no charge as ${transaction.status}`;
    return record(unconfirmed ? 'UNCONFIRMED' : 'APPLIED', unconfirmed ? `${unconfirmed}; ${recorded}` : recorded, payment, transaction.id);
  }

  /**
   * A notification about a known charge or payout: deduplicated, its amount checked, confirmed with the provider when
   * unsigned, applied through the state machine.
   *
   * Dedup covers only what was proven. A signed notification claims its key at once; an unsigned one is a DUPLICATE
   * only of a proven copy, and claims the key itself only once the provider's read confirms it: a forged claim that
   * the read refused holds no key, so the genuine notification after it is checked, not skipped.
   *
   * Amounts: a money status is applied only for the record's amount (flowIntegrity.ts). Where the notification
   * states one, it is checked first; where the provider's format has none, the provider's read says it, for a signed
   * notification too (a signed one whose provider has no read is applied on its id: docs/decisions.md).
   */
  private async applyStatus<S extends string, T extends Tracked<S>>(
    processing: Processing,
    kind: SubjectKind<S, T>,
    result: WebhookResult & { status: S },
  ): Promise<WebhookNotification> {
    const { stored, account, adapter, ctx, verdict, record } = processing;
    const subject = await kind.findByProviderId(this.deps, account.id, result.transactionId);
    if (!subject)
      return record('UNKNOWN_SUBJECT', `no ${kind.name} ${result.transactionId} for this account`, result, undefined, this.retryAt(stored.attempts));
    const proven = verdict === 'valid';
    if (proven ? await processing.claimKey() : await processing.keyHeld()) return record('DUPLICATE', DUPLICATE_REASON, result, subject.id);
    const refused = (reason: string) => record('MISMATCH', `${reason}: not applied`, result, subject.id);
    let status: S = result.status;
    const stated = 'amount' in result ? result.amount : undefined;
    if (stated !== undefined) {
      // The notification's own claim, checked before anything else: a signature proves who sent it, not that it is about this record.
      const mismatch = await refusedAnswer(this.deps, kind, subject, { status, amount: stated, providerId: result.transactionId }, 'webhook');
      if (mismatch) return refused(mismatch);
    }
    let unconfirmed: string | undefined;
    let read: ProviderView<S> | undefined;
    const moves = kind.confirmBeforeApplying.has(status) && status !== subject.status;
    const confirm = moves && !proven;
    if (confirm || (moves && stated === undefined)) {
      if (!adapter.supports(kind.lookup)) {
        // No way to ask the provider: an unverifiable hint moves nothing (reconciliation cannot either). A signed one is
        // applied on its id: its signature is all the evidence there is (docs/decisions.md).
        if (confirm)
          return record('UNCONFIRMED', `unsigned ${status} cannot be confirmed: ${account.provider} offers no ${kind.name} lookup`, result, subject.id);
      } else {
        const actual = (read = await kind.askProvider(adapter, ctx, kind.providerId(subject), subject));
        // Unsigned, the read is the answer; signed but silent about the amount, the read lends its amount (and id) to the notification's status.
        const mismatch = await refusedAnswer(this.deps, kind, subject, confirm ? actual : { ...actual, status }, 'webhook');
        if (mismatch) return refused(mismatch);
        if (confirm && actual.status !== status) {
          unconfirmed = `the provider reports ${actual.status}, the notification claimed ${status}`;
          status = actual.status;
        } else if (confirm && (await processing.claimKey())) return record('DUPLICATE', DUPLICATE_REASON, result, subject.id);
      }
    }
    const outcomeOf = (move: StatusMove<S> | null): OutcomeUpdate => {
      if (unconfirmed)
        return {
          outcome: 'UNCONFIRMED',
          reason: move?.changed ? `${unconfirmed}; applied ${move.from} → ${move.to}` : unconfirmed,
          result,
          subjectId: subject.id,
        };
      return move?.changed
        ? { outcome: 'APPLIED', reason: `${move.from} → ${move.to}`, result, subjectId: subject.id }
        : { outcome: 'UNCHANGED', reason: `${move?.from ?? subject.status} → ${status} is not a move forward`, result, subjectId: subject.id };
    };
    // The outcome is written in the move's database transaction: a notification is applied and marked done together,
    // so no crash in between can leave it applied but still leased (to be taken, confirmed and tried again).
    // What else the answers state (a PIX payment's end-to-end id and payer, the provider's fee), kept with the move even when the status
    // stays (a late notification of a charge already paid): the read's first, then the notification's, unless the
    // read contradicted it.
    const claimed = 'pixPayment' in result && !unconfirmed ? result.pixPayment : undefined;
    const claimedFee = 'providerFee' in result && !unconfirmed ? result.providerFee : undefined;
    const facts = {
      status,
      pixPayment: firstStated(read?.pixPayment, claimed),
      providerFee: read?.providerFee ?? claimedFee,
      declineReason: read?.declineReason,
      declineMessage: read?.declineMessage,
      refusalReason: read?.refusalReason ?? ('refusalReason' in result && !unconfirmed ? result.refusalReason : undefined),
      // Read from the provider by the adapter (WebhookResult); kept on the dispute only where the charge is CHARGEBACK.
      chargeback: 'chargeback' in result ? result.chargeback : undefined,
    };
    let recorded: WebhookNotification | undefined;
    await moveSubjectAsAnswered(this.deps, kind, subject.id, facts, unconfirmed ? 'poll' : 'webhook', async (tx, move) => {
      recorded = await this.deps.notifications.recordOutcome(tx, stored.id, outcomeOf(move));
    });
    this.deps.observer.notificationProcessed(stored.provider, recorded!.outcome);
    return recorded!;
  }
}
