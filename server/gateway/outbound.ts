import { GatewayError, invalidArgument, notFound } from '../lib/errors.js';
import { timestampedSignature } from '../lib/hmacSignature.js';
import type { DeliveryListFilter, DeliveryState, OutboundDelivery } from '../domain/types.js';
import type { BulkRequeue, OutboundBacklog } from '../db/outboundRepository.js';
import { openCallAudit } from './callAudit.js';
import { notAllowed } from './validation.js';
import type { GatewayDeps } from './context.js';
import type { OutboundAttemptOutcome } from './observer.js';

const ATTEMPT_OUTCOMES: Record<DeliveryState, OutboundAttemptOutcome> = { DELIVERED: 'delivered', PENDING: 'failed', GAVE_UP: 'gave_up' };

/** The most ids one ResendOutboundDeliveries takes; more are resent by filter. */
export const RESEND_MAX = 500;

export interface OutboundOptions {
  /** HMAC-SHA256 key of the `x-gateway-signature` header. */
  secret: string;
  retryScheduleMs: readonly number[];
  timeoutMs: number;
}

/**
 * The headers that let a receiver check a notification came from the gateway
 * and is not a replay (documented in the README): the signature carries its
 * own timestamp; x-gateway-timestamp repeats it for receivers that read it there.
 */
export function outboundHeaders(secret: string, eventId: string, body: string, timestamp = Math.floor(Date.now() / 1000)): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': 'payment-gateway-webhooks/1',
    'x-gateway-event-id': eventId,
    'x-gateway-timestamp': String(timestamp),
    'x-gateway-signature': timestampedSignature(secret, body, timestamp),
  };
}

/** Delivers queued status changes to callers' webhook_url, retrying on the schedule and recording every attempt. */
export class OutboundService {
  constructor(
    private readonly deps: GatewayDeps,
    private readonly options: OutboundOptions,
  ) {}

  async deliverDue(limit = 10): Promise<number> {
    const due = await this.deps.outbound.claimDue(this.deps.db.em(), limit, this.options.timeoutMs * 2);
    await Promise.all(
      due.map(async (delivery) => {
        let responseStatus = 0;
        let error: string | undefined;
        try {
          const response = await fetch(delivery.url, {
            method: 'POST',
            headers: outboundHeaders(this.options.secret, delivery.eventId, delivery.body),
            body: delivery.body,
            signal: AbortSignal.timeout(this.options.timeoutMs),
            redirect: 'manual',
          });
          responseStatus = response.status;
          await response.arrayBuffer().catch(() => undefined);
          if (responseStatus < 200 || responseStatus >= 300) error = `answered HTTP ${responseStatus}`;
        } catch (failure) {
          error = failure instanceof Error ? `${failure.name}: ${failure.message}` : String(failure);
        }
        const wait = this.options.retryScheduleMs[delivery.attempts];
        const state = !error ? 'DELIVERED' : wait === undefined ? 'GAVE_UP' : 'PENDING';
        await this.deps.outbound.recordAttempt(this.deps.db.em(), delivery, {
          responseStatus,
          error,
          state,
          nextAttemptAt: error && wait !== undefined ? new Date(Date.now() + wait) : undefined,
        });
        this.deps.observer.outboundAttempt(ATTEMPT_OUTCOMES[state]);
        if (error) this.deps.logger.info({ deliveryId: delivery.id, attempt: delivery.attempts + 1, error }, 'webhook delivery failed');
      }),
    );
    return due.length;
  }

  async list(
    filter: { transactionId?: string } & Partial<DeliveryListFilter>,
    pageSize: number,
    pageToken?: string,
  ): Promise<{ deliveries: OutboundDelivery[]; nextPageToken?: string }> {
    if (filter.transactionId) return { deliveries: await this.deps.outbound.listForTransaction(this.deps.db.em(), filter.transactionId, filter.state) };
    if (!filter.state) throw invalidArgument('transaction_id', 'transaction_id is required unless state is set', 'REQUIRED');
    return this.deps.outbound.listByState(this.deps.db.em(), { ...filter, state: filter.state }, pageSize, pageToken);
  }

  async resend(id: string): Promise<OutboundDelivery> {
    const em = this.deps.db.em();
    if (!(await this.deps.outbound.requeueGaveUp(em, id))) {
      const delivery = await this.deps.outbound.get(em, id);
      if (!delivery) throw notFound(`outbound delivery ${id} not found`);
      throw new GatewayError('FAILED_PRECONDITION', `outbound delivery ${id} is ${delivery.state}: only one that gave up can be resent`, {
        reason: 'DELIVERY_NOT_GAVE_UP',
      });
    }
    this.deps.logger.info({ deliveryId: id }, 'webhook delivery queued again by an operator');
    return (await this.deps.outbound.get(em, id))!;
  }

  /**
   * ResendOutboundDeliveries: the chosen deliveries (at most RESEND_MAX ids), or every one that gave up under the list's
   * filter, queued again by the gateway in one statement that also writes the call's audit row with the counts. A
   * delivery no longer GAVE_UP is skipped and counted, so a second click (or a second operator) queues nothing twice.
   */
  async resendMany(selection: { ids: readonly string[]; filter?: Omit<DeliveryListFilter, 'state'>; validateOnly?: boolean }): Promise<BulkRequeue> {
    const { ids, filter } = selection;
    if (ids.length && filter) throw notAllowed('filter', 'set either ids or filter, not both');
    if (!ids.length && !filter) throw invalidArgument('ids', 'ids or filter is required', 'REQUIRED');
    if (ids.length > RESEND_MAX)
      throw invalidArgument('ids', `ids must hold from 1 to ${RESEND_MAX} deliveries`, 'TOO_MANY_ITEMS', { max: String(RESEND_MAX) });
    const em = this.deps.db.em();
    // Nothing changes: the transport's own audit row says the call was made.
    if (selection.validateOnly) return this.deps.outbound.countRequeue(em, selection);
    const audit = openCallAudit();
    const at = new Date();
    const counts = filter
      ? await this.deps.outbound.requeueGaveUpMatching(em, filter, at, audit?.who)
      : await this.deps.outbound.requeueGaveUpByIds(em, ids, at, audit?.who);
    if (audit && counts.audited) audit.written = true;
    const { queued, skipped, notFound } = counts;
    this.deps.logger.info({ queued, skipped, notFound, byFilter: Boolean(filter) }, 'webhook deliveries queued again by an operator');
    return counts;
  }

  /** Deliveries still to be made, due now or waiting for their retry; the metrics endpoint reads it on each scrape. */
  backlog(): Promise<OutboundBacklog> {
    return this.deps.outbound.backlog(this.deps.db.em());
  }
}
