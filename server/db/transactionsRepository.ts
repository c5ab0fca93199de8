import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { transactionStatusesMovingTo } from '../domain/statusMachine.js';
import type {
  PaymentMethod,
  StatusEvent,
  StatusSource,
  Transaction,
  TransactionResult,
  TransactionOrigin,
  TransactionStatus,
  UnsolicitedPayment,
  ChargeCustomer,
  Item,
  PixPayment,
} from '../domain/types.js';
import { isUuid } from '../lib/ids.js';
import type { RoutingRecord } from '../domain/routing.js';
import type { RefundLedger } from '../domain/refundEvidence.js';
import { TransactionEntity, type TransactionRow } from './entities.js';
import type { OutboundRepository } from './outboundRepository.js';
import { REFUNDS_OF_ROW_T, RefundsRepository, refundsOfColumn } from './refundsRepository.js';
import type { Consistency } from './consistency.js';
import { prepared, runPrepared, runPreparedOn, type PreparedTarget } from './preparedSql.js';
import { unitOf } from './unitOfWork.js';
import { pixPaymentColumns, pixPaymentOf, statedPixPayment } from '../domain/pixPayments.js';
import {
  dateOf,
  findWithHistory,
  historyOf,
  leaseDueForPoll,
  onceMoreOnConflict,
  optionalDateOf,
  orUndefined,
  withHistory,
  type PollPace,
  type SqlRecord,
} from './subjectRows.js';
import { auditedByValues, type AuditedBy } from './auditedBy.js';
import { openChargebackDispute } from './disputesRepository.js';
import { LockMode, type ConnectionType } from '@mikro-orm/core';
import { moveStatus, recordStatusEvent, statusHistory, toStatusEvent, type MoveHooks, type StatusMove, type StatusTable } from './statusRepository.js';

export interface NewTransaction {
  provider: string;
  providerAccountId: string;
  result: TransactionResult;
  installments: number;
  currency: string;
  orderId?: string;
  /** For the back-office's search: the customer's document digits and lower-cased e-mail. */
  customerDocument?: string;
  customerEmail?: string;
  customerName?: string;
  description?: string;
  items?: Item[];
  cardBrand?: string;
  cardLast4?: string;
  webhookUrl?: string;
  idempotencyKey?: string;
  routing?: RoutingRecord;
}

/** A transaction's status change, as the caller's notification reports it. */
export interface TransactionStatusChanged {
  transaction: Pick<Transaction, 'id' | 'transactionId' | 'provider' | 'providerAccountId' | 'orderId' | 'paymentMethod' | 'amount'>;
  /** The event of the change: its id, new status, source and time. */
  event: StatusEvent;
  from: TransactionStatus;
}

/** A charge's row as the domain sees it, without its history (lists leave it out; a read by id adds it). */
export function transactionOf(row: TransactionRow): Transaction {
  return {
    id: row.id,
    provider: row.provider,
    providerAccountId: row.providerAccountId,
    transactionId: row.providerTransactionId,
    paymentMethod: row.paymentMethod as PaymentMethod,
    status: row.status as TransactionStatus,
    amount: row.amount,
    installments: row.installments,
    currency: row.currency,
    pixCode: orUndefined(row.pixCode),
    pixQrCode: orUndefined(row.pixQrCode),
    billetCode: orUndefined(row.billetCode),
    billetUrl: orUndefined(row.billetUrl),
    expiresAt: orUndefined(row.expiresAt),
    orderId: orUndefined(row.orderId),
    webhookUrl: orUndefined(row.webhookUrl),
    origin: row.origin as TransactionOrigin,
    refundedAmount: row.refundedAmount,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    statusHistory: [],
    ...(row.routing ? { routing: row.routing } : {}),
    ...customerOf(row),
    ...(row.description ? { description: row.description } : {}),
    ...(row.items?.length ? { items: row.items } : {}),
    ...(row.cardLast4 ? { cardLast4: row.cardLast4, ...(row.cardBrand ? { cardBrand: row.cardBrand } : {}) } : {}),
    ...(row.declineReason ? { declineReason: row.declineReason } : {}),
    ...(row.declineReason && row.declineMessage ? { declineMessage: row.declineMessage } : {}),
    ...(row.providerFee === null || row.providerFee === undefined ? {} : { providerFee: row.providerFee }),
    ...pixPaymentOfRow(row),
  };
}

/** A PIX payment's facts as the row's columns (null where not stated). */
function pixPaymentRowOf(
  facts: PixPayment | undefined,
): Pick<TransactionRow, 'pixEndToEndId' | 'pixPayerName' | 'pixPayerDocument' | 'pixPayerBankIspb' | 'pixPayerBankName'> {
  const [pixEndToEndId, pixPayerName, pixPayerDocument, pixPayerBankIspb, pixPayerBankName] = pixPaymentColumns(pixPaymentOf(facts) ?? {});
  return { pixEndToEndId, pixPayerName, pixPayerDocument, pixPayerBankIspb, pixPayerBankName };
}

const pixPaymentOfRow = (row: TransactionRow) =>
  statedPixPayment({
    endToEndId: row.pixEndToEndId,
    payerName: row.pixPayerName,
    payerDocument: row.pixPayerDocument,
    payerBankIspb: row.pixPayerBankIspb,
    payerBankName: row.pixPayerBankName,
  });

function customerOf(row: TransactionRow): { customer?: ChargeCustomer } {
  const customer = { name: orUndefined(row.customerName), email: orUndefined(row.customerEmail), document: orUndefined(row.customerDocument) };
  return customer.name || customer.email || customer.document ? { customer } : {};
}

const TRANSACTION_BY_ID = withHistory('transaction_by_id', 'transactions', 'TRANSACTION', 't.id = ?');
const TRANSACTION_WITH_REFUNDS_BY_ID = withHistory('transaction_with_refunds_by_id', 'transactions', 'TRANSACTION', 't.id = ?', REFUNDS_OF_ROW_T);
const TRANSACTION_BY_PROVIDER_ID = withHistory(
  'transaction_by_provider_id',
  'transactions',
  'TRANSACTION',
  't.provider_account_id = ? and t.provider_transaction_id = ?',
);

/** A raw `transactions` row (snake_case, bigints as text) as the entity's shape. */
function transactionRowOf(row: SqlRecord): TransactionRow {
  return {
    id: String(row.id),
    providerAccountId: String(row.provider_account_id),
    provider: String(row.provider),
    providerTransactionId: String(row.provider_transaction_id),
    paymentMethod: String(row.payment_method),
    status: String(row.status),
    amount: Number(row.amount),
    refundedAmount: Number(row.refunded_amount),
    refundPendingAmount: Number(row.refund_pending_amount),
    currency: String(row.currency),
    installments: Number(row.installments),
    pixCode: (row.pix_code as string | null) ?? null,
    pixQrCode: (row.pix_qr_code as string | null) ?? null,
    billetCode: (row.billet_code as string | null) ?? null,
    billetUrl: (row.billet_url as string | null) ?? null,
    expiresAt: optionalDateOf(row.expires_at),
    orderId: (row.order_id as string | null) ?? null,
    customerDocument: (row.customer_document as string | null) ?? null,
    customerEmail: (row.customer_email as string | null) ?? null,
    customerName: (row.customer_name as string | null) ?? null,
    description: (row.description as string | null) ?? null,
    items: (typeof row.items === 'string' ? JSON.parse(row.items) : row.items) ?? null,
    cardBrand: (row.card_brand as string | null) ?? null,
    cardLast4: (row.card_last4 as string | null) ?? null,
    declineReason: (row.decline_reason as string | null) ?? null,
    declineMessage: (row.decline_message as string | null) ?? null,
    providerFee: row.provider_fee === null || row.provider_fee === undefined ? null : Number(row.provider_fee),
    pixEndToEndId: (row.pix_end_to_end_id as string | null) ?? null,
    pixPayerName: (row.pix_payer_name as string | null) ?? null,
    pixPayerDocument: (row.pix_payer_document as string | null) ?? null,
    pixPayerBankIspb: (row.pix_payer_bank_ispb as string | null) ?? null,
    pixPayerBankName: (row.pix_payer_bank_name as string | null) ?? null,
    webhookUrl: (row.webhook_url as string | null) ?? null,
    idempotencyKey: (row.idempotency_key as string | null) ?? null,
    origin: String(row.origin),
    lastPolledAt: optionalDateOf(row.last_polled_at),
    routing: (typeof row.routing === 'string' ? JSON.parse(row.routing) : row.routing) ?? null,
    createdAt: dateOf(row.created_at),
    updatedAt: dateOf(row.updated_at),
  } as TransactionRow;
}

/** Where status moves write (statusRepository.moveStatus), and how they read the moved row. */
const TRANSACTION_STATUSES: StatusTable<TransactionRow> = {
  table: 'transactions',
  subject: 'TRANSACTION',
  rowOf: (record) => transactionRowOf(record as SqlRecord),
};

/** A charge with its first status and its key's completion (insertTransaction). */
const INSERT_CHARGE = prepared(
  'insert_charge',
  `with t as (
         insert into transactions (id, provider_account_id, provider, provider_transaction_id, payment_method, status, amount, currency, installments,
           pix_code, pix_qr_code, billet_code, billet_url, expires_at, order_id, customer_document, customer_email, webhook_url, idempotency_key,
           routing, customer_name, description, items, card_brand, card_last4, decline_reason, decline_message, provider_fee, origin, created_at,
           updated_at)
         values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?, ?, ?::jsonb, ?, ?, ?, ?, ?, 'api', ?, ?)
         on conflict (provider_account_id, provider_transaction_id) do nothing
         returning id, provider_account_id, status, created_at),
       e as (
         insert into status_events (subject, subject_id, provider_account_id, status, source, occurred_at)
         select 'TRANSACTION', id, provider_account_id, status, 'api', created_at from t
         returning id),
       k as (
         update idempotency_keys set state = 'COMPLETED', subject_id = (select id from t), response = null, updated_at = ?
          where id = ? and exists (select 1 from t)
         returning id),
       a as (
         insert into audit_events (id, at, actor_kind, actor_id, actor_name, action, resource, source, outcome, detail)
         select w.id, t.created_at, w.actor_kind, w.actor_id, w.actor_name, w.action, t.id::text, w.source, 'OK', ''
           from t, (select ?::uuid as id, ?::text as actor_kind, ?::text as actor_id, ?::text as actor_name, ?::text as action, ?::text as source) w
          where w.id is not null
         returning id)
       select (select id from e) as event_id, (select count(*) from k) as completed, (select count(*) from a) as audited`,
);

/** A declined charge's reason as the provider gave it, bounded: it is the provider's text, shown, never parsed. */
const boundedDeclineReason = (reason: string | undefined): string | null => reason?.trim().slice(0, 500) || null;
const declineReasonOf = (result: TransactionResult): string | null => (result.status === 'REJECTED' ? boundedDeclineReason(result.declineReason) : null);
/** The decline's text, kept only beside a reason: a text alone would say nothing the reason does not. */
const declineMessageOf = (result: TransactionResult): string | null => (declineReasonOf(result) === null ? null : boundedDeclineReason(result.declineMessage));

/**
 * A reason (and its text) a later answer gives for a decline, kept on a declined charge that has none yet: the first
 * stays. The text alone fills in only beside the same reason (a charge stored before texts were kept), so a reason
 * and a text of two different answers are never paired.
 */
const RECORD_DECLINE_REASON = prepared(
  'record_decline_reason',
  `update transactions set decline_reason = coalesce(decline_reason, ?::text), decline_message = coalesce(decline_message, ?::text)
    where id = ? and status = 'REJECTED' and (decline_reason is null or (decline_reason = ?::text and decline_message is null))`,
);

/** A fee as stated in whole cents, never below zero (a misread answer states none). */
const statedFee = (fee: number | undefined): fee is number => fee !== undefined && Number.isSafeInteger(fee) && fee >= 0;

/** The provider's fee for the charge in whole cents, never below zero nor above the charge (a misread answer stores none). */
const providerFeeOf = (result: TransactionResult): number | null =>
  statedFee(result.providerFee) && result.providerFee <= result.amount ? result.providerFee : null;

/**
 * A fee a later answer states (a read or a notification after the charge was stored), checked against the charge's
 * amount as at creation. It takes the place of the one kept: the provider's latest word on what it took; an answer
 * that states none never runs this, so a known fee is never replaced by a missing one.
 */
const RECORD_PROVIDER_FEE = prepared('record_provider_fee', `update transactions set provider_fee = ? where id = ? and ?::bigint <= amount`);

/** The card's brand and last 4 read from the gateway's card token, else as the provider answered them (one card, never mixed). */
function cardColumnsOf(input: NewTransaction): { cardBrand: string | null; cardLast4: string | null } {
  if (input.cardLast4) return { cardBrand: input.cardBrand ?? null, cardLast4: input.cardLast4 };
  const { cardBrand, cardLast4 } = input.result;
  return cardLast4 && /^\d{4}$/.test(cardLast4) ? { cardBrand: cardBrand?.slice(0, 16) || null, cardLast4 } : { cardBrand: null, cardLast4: null };
}
const cardFactsOf = (input: NewTransaction): [string | null, string | null] => {
  const { cardBrand, cardLast4 } = cardColumnsOf(input);
  return [cardBrand, cardLast4];
};

/**
 * A PIX payment's facts written on its charge: only into columns still empty, so a later answer completes what an
 * earlier one left out and never replaces a known value (an empty one least of all: the empty ones are null here).
 */
const RECORD_PIX_PAYMENT = prepared(
  'record_pix_payment',
  `update transactions set pix_end_to_end_id = coalesce(pix_end_to_end_id, ?), pix_payer_name = coalesce(pix_payer_name, ?),
     pix_payer_document = coalesce(pix_payer_document, ?), pix_payer_bank_ispb = coalesce(pix_payer_bank_ispb, ?),
     pix_payer_bank_name = coalesce(pix_payer_bank_name, ?)
   where id = ?`,
);

/** Charges with their status history (payouts: withdrawalsRepository.ts). */
export class TransactionsRepository {
  /** Each charge's refunds as records (beside the cents the charge's row keeps). */
  readonly refunds = new RefundsRepository();

  /**
   * @param outboundBody writes the caller's notification of a change; the use
   *   cases own its shape, the repository only queues it with the change.
   */
  constructor(
    private readonly outbound: OutboundRepository,
    private readonly outboundBody: (change: TransactionStatusChanged) => string,
  ) {}

  private async toTransaction(em: EntityManager, row: TransactionRow, connectionType: ConnectionType): Promise<Transaction> {
    return { ...transactionOf(row), statusHistory: await statusHistory<TransactionStatus>(em, 'TRANSACTION', row.id, connectionType) };
  }

  /**
   * Stores a charge the provider created, with its first status and, when the
   * request held an idempotency key (`keyClaimId`), that key's completion: one
   * statement, so one round trip and one commit. A charge already recorded
   * under the same provider id (a notification that beat a late-confirmed
   * create, recorded as an unsolicited payment) is completed with the
   * request's details instead of being stored twice; then there is no new
   * event and the key is left to the caller (`keyCompleted` false).
   */
  async insertTransaction(
    em: EntityManager,
    input: NewTransaction,
    keyClaimId?: string,
    audit?: AuditedBy,
  ): Promise<{ transaction: Transaction; event?: StatusEvent; keyCompleted: boolean; audited: boolean }> {
    const { result } = input;
    const now = new Date();
    const id = randomUUID();
    // The QR image is the code's, drawn at the edge when asked (protoMapper.ts): a row keeps only an image without a code.
    const image = result.pixCode ? null : (result.pixQrCode ?? null);
    const [inserted] = await runPrepared<{ event_id: string | null; completed: string; audited: string }>(em, 'write', INSERT_CHARGE, [
      id,
      input.providerAccountId,
      input.provider,
      result.transactionId,
      result.paymentMethod,
      result.status,
      result.amount,
      input.currency,
      input.installments,
      result.pixCode ?? null,
      image,
      result.billetCode ?? null,
      result.billetUrl ?? null,
      result.expiresAt ?? null,
      input.orderId ?? null,
      input.customerDocument ?? null,
      input.customerEmail ?? null,
      input.webhookUrl ?? null,
      input.idempotencyKey ?? null,
      input.routing ? JSON.stringify(input.routing) : null,
      input.customerName ?? null,
      input.description ?? null,
      input.items?.length ? JSON.stringify(input.items) : null,
      ...cardFactsOf(input),
      declineReasonOf(result),
      declineMessageOf(result),
      providerFeeOf(result),
      now,
      now,
      now,
      keyClaimId ?? null,
      ...auditedByValues(audit),
    ]);
    if (inserted?.event_id) {
      const event: StatusEvent = {
        eventId: String(inserted.event_id),
        subject: 'TRANSACTION',
        subjectId: id,
        providerAccountId: input.providerAccountId,
        status: result.status,
        source: 'api',
        occurredAt: now,
      };
      // What was just written, as a read would answer it (the domain mapping is transactionOf's).
      const written = {
        id,
        providerAccountId: input.providerAccountId,
        provider: input.provider,
        providerTransactionId: result.transactionId,
        paymentMethod: result.paymentMethod,
        status: result.status,
        amount: result.amount,
        currency: input.currency,
        installments: input.installments,
        pixCode: result.pixCode ?? null,
        pixQrCode: image,
        billetCode: result.billetCode ?? null,
        billetUrl: result.billetUrl ?? null,
        expiresAt: result.expiresAt ?? null,
        orderId: input.orderId ?? null,
        customerDocument: input.customerDocument ?? null,
        customerEmail: input.customerEmail ?? null,
        customerName: input.customerName ?? null,
        description: input.description ?? null,
        items: input.items?.length ? input.items : null,
        ...cardColumnsOf(input),
        declineReason: declineReasonOf(result),
        declineMessage: declineMessageOf(result),
        providerFee: providerFeeOf(result),
        webhookUrl: input.webhookUrl ?? null,
        routing: input.routing ?? null,
        origin: 'api',
        refundedAmount: 0,
        createdAt: now,
        updatedAt: now,
      } as TransactionRow;
      const transaction: Transaction = { ...transactionOf(written), statusHistory: [{ status: result.status, source: 'api', changedAt: now }] };
      return { transaction, event, keyCompleted: Number(inserted.completed) > 0, audited: Number(inserted.audited) > 0 };
    }
    // Already recorded under this provider id: a payment the provider reported first is completed with the request's details.
    const unit = unitOf(em);
    const row = await unit.transactional(async (tx) => {
      const existing = await tx.findOneOrFail(
        TransactionEntity,
        { providerAccountId: input.providerAccountId, providerTransactionId: result.transactionId },
        { lockMode: LockMode.PESSIMISTIC_WRITE },
      );
      if (existing.origin === 'webhook') {
        tx.assign(existing, {
          origin: 'api',
          installments: input.installments,
          currency: input.currency,
          orderId: input.orderId ?? existing.orderId ?? null,
          customerDocument: input.customerDocument ?? existing.customerDocument ?? null,
          customerEmail: input.customerEmail ?? existing.customerEmail ?? null,
          customerName: input.customerName ?? existing.customerName ?? null,
          description: input.description ?? existing.description ?? null,
          items: input.items?.length ? input.items : (existing.items ?? null),
          ...(cardColumnsOf(input).cardLast4 ? cardColumnsOf(input) : {}),
          webhookUrl: input.webhookUrl ?? existing.webhookUrl ?? null,
          idempotencyKey: input.idempotencyKey ?? existing.idempotencyKey ?? null,
          routing: input.routing ?? existing.routing ?? null,
          providerFee: providerFeeOf(result) ?? existing.providerFee ?? null,
          updatedAt: now,
        });
        await tx.flush();
      }
      return existing;
    });
    return { transaction: await this.toTransaction(unit, row, 'write'), keyCompleted: false, audited: false };
  }

  /**
   * Records a payment the provider reported with no charge behind it, once per
   * (account, provider id): `created` is false when it is already recorded (a
   * re-delivery), and the existing transaction is returned unchanged.
   */
  async recordUnsolicitedPayment(
    em: EntityManager,
    input: { provider: string; providerAccountId: string; payment: UnsolicitedPayment; source: StatusSource },
  ): Promise<{ transaction: Transaction; event?: StatusEvent; created: boolean }> {
    const { payment } = input;
    const now = new Date();
    const { row, event } = await onceMoreOnConflict(() =>
      em.fork().transactional(async (tx) => {
        const existing = await tx.findOne(TransactionEntity, { providerAccountId: input.providerAccountId, providerTransactionId: payment.transactionId });
        if (existing) return { row: existing, event: undefined };
        const row = tx.create(TransactionEntity, {
          id: randomUUID(),
          providerAccountId: input.providerAccountId,
          provider: input.provider,
          providerTransactionId: payment.transactionId,
          paymentMethod: payment.paymentMethod,
          status: payment.status,
          amount: payment.amount,
          currency: 'BRL',
          installments: 1,
          origin: 'webhook',
          ...pixPaymentRowOf(payment.pixPayment),
          createdAt: payment.paidAt ?? now,
          updatedAt: now,
        });
        tx.persist(row);
        const event = recordStatusEvent(tx, 'TRANSACTION', row.id, row.providerAccountId, row.status, input.source, now);
        await tx.flush();
        return { row, event };
      }),
    );
    return { transaction: await this.toTransaction(em, row, 'write'), event: event && toStatusEvent(event), created: event !== undefined };
  }

  /** Keeps what a provider stated of the PIX payment that paid a charge (see RECORD_PIX_PAYMENT), in `target`'s transaction when it is one. */
  async recordPixPayment(target: PreparedTarget, id: string, facts: PixPayment | undefined): Promise<void> {
    const kept = pixPaymentOf(facts);
    if (kept) await runPreparedOn(target, RECORD_PIX_PAYMENT, [...pixPaymentColumns(kept), id]);
  }

  /** Keeps the fee a provider's later answer states for a charge (see RECORD_PROVIDER_FEE); a fee not stated, or misread, changes nothing. */
  async recordProviderFee(target: PreparedTarget, id: string, fee: number | undefined): Promise<void> {
    if (statedFee(fee)) await runPreparedOn(target, RECORD_PROVIDER_FEE, [fee, id, fee]);
  }

  /** Keeps the reason (and text) a provider's read gave for declining a charge the gateway recorded without one, in `target`'s transaction. */
  async recordDeclineReason(target: PreparedTarget, id: string, reason: string | undefined, message?: string): Promise<void> {
    const kept = boundedDeclineReason(reason);
    if (kept) await runPreparedOn(target, RECORD_DECLINE_REASON, [kept, boundedDeclineReason(message), id, kept]);
  }

  async findTransaction(em: EntityManager, id: string, consistency: Consistency = 'replica'): Promise<Transaction | null> {
    if (!isUuid(id)) return null;
    return this.loadTransaction(em, { id }, consistency);
  }

  /** The charge with its refunds' records (GetTransaction), both from one statement, so from one snapshot. */
  async findTransactionWithRefunds(em: EntityManager, id: string, consistency: Consistency = 'replica'): Promise<Transaction | null> {
    if (!isUuid(id)) return null;
    const row = await findWithHistory(em, TRANSACTION_WITH_REFUNDS_BY_ID, [id], consistency);
    return row && { ...transactionOf(transactionRowOf(row)), statusHistory: historyOf<TransactionStatus>(row.history), refunds: refundsOfColumn(row.refunds) };
  }

  /** For notifications: they can arrive before a replica has the charge, so a miss is checked on the primary. */
  async findTransactionByProviderId(em: EntityManager, providerAccountId: string, providerTransactionId: string): Promise<Transaction | null> {
    return this.loadTransaction(em, { providerAccountId, providerTransactionId }, 'replica');
  }

  /** The row and its history in one statement, so from one snapshot of one server; a replica's miss is asked of the primary. */
  private async loadTransaction(em: EntityManager, where: Partial<TransactionRow>, consistency: Consistency): Promise<Transaction | null> {
    const row =
      where.id !== undefined
        ? await findWithHistory(em, TRANSACTION_BY_ID, [where.id], consistency)
        : await findWithHistory(em, TRANSACTION_BY_PROVIDER_ID, [where.providerAccountId, where.providerTransactionId], consistency);
    return row && { ...transactionOf(transactionRowOf(row)), statusHistory: historyOf<TransactionStatus>(row.history) };
  }

  /**
   * Moves the status; when the charge has a webhook_url, queues the caller's notification in the same database
   * transaction, and a move to CHARGEBACK opens the charge's chargeback dispute in it too (the part not refunded at stake).
   */
  async moveTransactionStatus(
    em: EntityManager,
    id: string,
    to: TransactionStatus,
    source: StatusSource,
    finish?: MoveHooks<TransactionStatus>['finish'],
  ): Promise<StatusMove<TransactionStatus> | null> {
    let queued = false;
    const move = await moveStatus(em, TRANSACTION_STATUSES, id, to, source, transactionStatusesMovingTo(to), {
      finish,
      afterMove: async (tx, row, event, from) => {
        if (to === 'CHARGEBACK')
          await openChargebackDispute(
            tx,
            {
              id: row.id,
              providerAccountId: row.providerAccountId,
              provider: row.provider,
              paymentMethod: row.paymentMethod,
              amountAtStake: row.amount - row.refundedAmount,
            },
            event.occurredAt,
          );
        if (!row.webhookUrl) return;
        const body = this.outboundBody({
          transaction: {
            id: row.id,
            transactionId: row.providerTransactionId,
            provider: row.provider,
            providerAccountId: row.providerAccountId,
            orderId: row.orderId ?? undefined,
            paymentMethod: row.paymentMethod as PaymentMethod,
            amount: row.amount,
          },
          event,
          from,
        });
        await this.outbound.enqueue(tx, { eventId: event.eventId, transactionId: row.id, url: row.webhookUrl, body, at: event.occurredAt });
        queued = true;
      },
    });
    // Committed: the delivery worker is woken only when there is something to deliver.
    if (queued) for (const listener of this.queuedListeners) listener();
    return move;
  }

  private readonly queuedListeners: (() => void)[] = [];

  /** Runs `listener` after a status change queued a notification to the caller's webhook_url (and committed). */
  onOutboundQueued(listener: () => void): void {
    this.queuedListeners.push(listener);
  }

  /**
   * Reserves `amount` cents of a charge for a refund, or with 'rest' whatever is
   * left of it. One conditional UPDATE takes the row's lock, so concurrent
   * refunds are serialised and re-checked: only an APPROVED charge, and never
   * more than is left once what was refunded and what is being refunded are
   * counted. The answer says how many cents were reserved.
   */
  async reserveRefund(
    em: EntityManager,
    id: string,
    amount: number | 'rest',
    key?: { id: string; pending: { amount: number } },
  ): Promise<{ reserved: true; amount: number } | { reserved: false; status: string; refundable: number }> {
    const connection = em.getConnection('write');
    // 'rest' is the remainder read under the row's lock (SELECT … FOR UPDATE waits for a concurrent refund and reads
    // what it left): nothing can be reserved in between, and the reservation is exactly what was left.
    const reservation =
      amount === 'rest'
        ? `with charge as (
             select id, amount - refunded_amount - refund_pending_amount as rest from transactions where id = ? and status = 'APPROVED' for update
           )
           update transactions t set refund_pending_amount = t.refund_pending_amount + charge.rest, updated_at = now()
           from charge where t.id = charge.id and charge.rest > 0
           returning charge.rest as reserved`
        : `update transactions set refund_pending_amount = refund_pending_amount + ?, updated_at = now()
            where id = ? and status = 'APPROVED' and amount - refunded_amount - refund_pending_amount >= ? returning ?::bigint as reserved`;
    // With the reservation, in the same statement, the refund's idempotency key keeps what settling it needs (the cents
    // reserved, known only here for 'rest'): a key whose process dies after this holds a reservation someone can release
    // or confirm, one that dies before holds none.
    const reserved = await connection.execute<Array<{ reserved: string }>>(
      `with r as (${reservation}),
       k as (update idempotency_keys set pending = jsonb_set(?::jsonb, '{amount}', to_jsonb((select reserved from r)))
              where id = ? and exists (select 1 from r) returning id)
       select reserved from r`,
      [...(amount === 'rest' ? [id] : [amount, id, amount, amount]), key ? JSON.stringify(key.pending) : null, key?.id ?? null],
      'all',
    );
    if (reserved[0]) return { reserved: true, amount: amount === 'rest' ? Number(reserved[0].reserved) : amount };
    const [row] = await connection.execute<Array<{ status: string; refundable: string }>>(
      `select status, amount - refunded_amount - refund_pending_amount as refundable from transactions where id = ?`,
      [id],
      'all',
    );
    return { reserved: false, status: row?.status ?? 'UNKNOWN', refundable: Number(row?.refundable ?? 0) };
  }

  /** Ends a reservation: confirmed, the cents count as refunded (returns the charge's refunded total); failed, they are free again. */
  async settleRefund(em: EntityManager, id: string, amount: number, outcome: 'refunded' | 'released'): Promise<{ amount: number; refunded: number }> {
    const [row] = await em
      .getConnection('write')
      .execute<Array<{ amount: string; refunded_amount: string }>>(
        outcome === 'refunded'
          ? `update transactions set refund_pending_amount = greatest(refund_pending_amount - ?, 0), refunded_amount = refunded_amount + ?, updated_at = now() where id = ? returning amount, refunded_amount`
          : `update transactions set refund_pending_amount = greatest(refund_pending_amount - ?, 0), updated_at = now() where id = ? returning amount, refunded_amount`,
        outcome === 'refunded' ? [amount, amount, id] : [amount, id],
        'all',
      );
    return { amount: Number(row?.amount ?? 0), refunded: Number(row?.refunded_amount ?? 0) };
  }

  /** A charge's amount and its refunds as recorded (refunded) and held (reserved), read from the primary; undefined when there is no such charge. */
  async refundLedger(em: EntityManager, id: string): Promise<(RefundLedger & { amount: number }) | undefined> {
    const [row] = await em
      .getConnection('write')
      .execute<Array<{ amount: string; refunded_amount: string; refund_pending_amount: string }>>(
        `select amount, refunded_amount, refund_pending_amount from transactions where id = ?`,
        [id],
        'all',
      );
    return row ? { amount: Number(row.amount), refunded: Number(row.refunded_amount), reserved: Number(row.refund_pending_amount) } : undefined;
  }

  /** Pending charges that are past their expiry or have heard nothing for `staleAfterMs`, leased for a provider poll. */
  async claimForReconciliation(em: EntityManager, pace: PollPace): Promise<Transaction[]> {
    const ids = await leaseDueForPoll(em, 'transactions', pace, 'expires_at < ?');
    const found = await Promise.all(ids.map((id) => this.findTransaction(em.fork(), id, 'primary')));
    return found.filter((transaction): transaction is Transaction => transaction !== null);
  }
}
