import type { TransactionStatus, WebhookResult, WithdrawStatus } from '../../../domain/types.js';
import { parseJson } from '../../../lib/json.js';
import { payoutRefusal } from '../../kit/payoutRefusal.js';
import { payoutId, pixReceivedStatus } from './mappers.js';
import { CASH_IN_EVENTS, PAYOUT_EVENT, RECEIVE_EVENT } from './statuses.js';
import { statedPixPayment } from '../../../domain/pixPayments.js';
import { BACEN_PIX_RECEIVED, BACEN_PIX_WEBHOOK, PIX_EVENT, type PixEvent, type PixReceived } from './wire.js';
import { notificationKeyOf } from '../../notificationKeys.js';

/**
 * Notifications of the family, unsigned (the PSPs authenticate themselves by
 * mTLS, which ends before the sidecar), so the gateway confirms money states
 * with GET /cob. Two shapes (wire.ts), read by schema; a body neither schema
 * reads is ignored:
 * - the members' own {type, data}: RECEIVE APPROVED only when data.status is
 *   LIQUIDATED, else PENDING; REFUND CHARGEBACK; CANCELED ignored (doc 2 §4);
 *   RECEIVE states the payment's endToEndId and the payer's bank and masked
 *   document (debtorAccount); TRANSFER is the cash-out notification (a
 *   WITHDRAW result), about the payout its endToEndId names, or its
 *   idempotencyKey for members whose payouts are known by it, a failed one
 *   with its `errorCode` as the refusal's reason;
 * - the API Pix's {"pix":[{endToEndId, txid, valor, horario, devolucoes}]}: a Pix
 *   received for that txid, APPROVED, or CHARGEBACK when its devoluções return
 *   the whole amount, with its endToEndId (the API Pix's Pix names no payer).
 *   One notification yields one result: the first entry that names a txid (an
 *   entry without txid is a Pix to the key, not to a charge).
 */

type Read = { kind: 'pix'; pix: PixReceived[] } | { kind: 'event'; event: PixEvent };

/** The body by the first schema that reads it; the standard body's entries that belong to a charge. */
function read(body: Buffer): Read | undefined {
  const json = parseJson(body);
  const standard = BACEN_PIX_WEBHOOK.safeParse(json);
  if (standard.success) {
    const pix = standard.data.pix.flatMap((entry) => {
      const parsed = BACEN_PIX_RECEIVED.safeParse(entry);
      return parsed.success && parsed.data.txid ? [parsed.data] : [];
    });
    return { kind: 'pix', pix };
  }
  const event = PIX_EVENT.safeParse(json);
  return event.success ? { kind: 'event', event: event.data } : undefined;
}

/** A notification → our result, or undefined for ignored events and bodies that cannot be read. */
export function readBacenPixNotification(
  body: Buffer,
  payoutStatus: (value: string) => WithdrawStatus,
  options: { untypedEvent?: string; payoutKnownBy?: 'endToEndId' | 'idempotencyKey' } = {},
): WebhookResult | undefined {
  const notification = read(body);
  if (!notification) return undefined;

  if (notification.kind === 'pix') {
    const pix = notification.pix[0];
    return pix?.txid
      ? { type: 'TRANSACTION', transactionId: pix.txid, status: pixReceivedStatus(pix), ...statedPixPayment({ endToEndId: pix.endToEndId }) }
      : undefined;
  }

  const { type: declared, data } = notification.event;
  const type = declared === undefined ? options.untypedEvent : declared.toUpperCase();
  if (!type) return undefined;

  if (type === PAYOUT_EVENT) {
    const id = options.payoutKnownBy === 'idempotencyKey' ? data.idempotencyKey : payoutId(data);
    if (!id || !data.status) return undefined;
    const status = payoutStatus(data.status);
    return { type: 'WITHDRAW', transactionId: id, status, ...payoutRefusal(status, data.errorCode) };
  }

  const rule = Object.hasOwn(CASH_IN_EVENTS, type) ? CASH_IN_EVENTS[type] : undefined;
  const txid = data.txId ?? data.txid;
  if (!rule || rule === 'ignore' || !txid) return undefined;
  const status: TransactionStatus = 'status' in rule ? rule.status : (rule.byDataStatus[data.status?.toUpperCase() ?? ''] ?? rule.otherwise);
  return { type: 'TRANSACTION', transactionId: txid, status, ...(type === RECEIVE_EVENT ? receivedPayment(data) : {}) };
}

/** A RECEIVE's payment: its end-to-end id and the payer's bank and document (the page names no payer's name). */
function receivedPayment(data: PixEvent['data']) {
  const debtor = data.debtorAccount;
  return statedPixPayment({ endToEndId: data.endToEndId, payerDocument: debtor?.document, payerBankIspb: debtor?.ispb, payerBankName: debtor?.name });
}

/**
 * What makes one notification distinct from another about the same payment
 * (event type, endToEndId or event id, and status, so a RECEIVE that moves from
 * PROCESSING to LIQUIDATED is not taken for a repeat; for the standard body,
 * each Pix and its devoluções' states); undefined when the body names nothing.
 */
export function bacenPixNotificationKey(body: Buffer): string | undefined {
  const notification = read(body);
  if (!notification) return undefined;
  if (notification.kind === 'pix') {
    const parts = notification.pix.map((pix) =>
      [pix.endToEndId ?? pix.txid, ...(pix.devolucoes ?? []).map((devolucao) => `${devolucao.id ?? devolucao.rtrId ?? ''}=${devolucao.status ?? ''}`)].join(
        ',',
      ),
    );
    return parts.length ? notificationKeyOf({ subject: 'pix', id: parts.join(';'), status: '' }, body) : undefined;
  }
  const { type, data } = notification.event;
  const id = data.endToEndId ?? data.id;
  return type && id ? notificationKeyOf({ subject: type.toLowerCase(), id, status: data.status ?? '' }, body) : undefined;
}
