import type { TransactionStatus, WebhookResult, WithdrawStatus } from '../../../domain/types.js';
import { isRecord, parseJsonObject } from '../../../lib/json.js';
import { idText, textOf } from '../../../lib/values.js';
import { payoutId, pixReceivedStatus } from './mappers.js';
import { CASH_IN_EVENTS, PAYOUT_EVENT } from './statuses.js';
import type { PixEvent, PixReceived } from './wire.js';

/**
 * Notifications of the family, unsigned (the PSPs authenticate themselves by
 * mTLS, which ends before the sidecar), so the gateway confirms money states
 * with GET /cob. Two shapes:
 * - the members' own {type, data}: RECEIVE APPROVED only when data.status is
 *   LIQUIDATED, else PENDING; REFUND CHARGEBACK; CANCELED ignored (doc 2 §4);
 *   TRANSFER is the cash-out notification (a WITHDRAW result);
 * - the standard {"pix":[{endToEndId, txid, valor, horario, devolucoes}]}: a Pix
 *   received for that txid, APPROVED, or CHARGEBACK when its devoluções return
 *   the whole amount. One notification yields one result: the first entry that
 *   names a txid (an entry without txid is a Pix to the key, not to a charge).
 */

/** The standard body's entries that belong to a charge. */
function chargedPix(body: Record<string, unknown>): PixReceived[] {
  const list = Array.isArray(body.pix) ? body.pix : [];
  return list.filter((entry): entry is PixReceived => isRecord(entry) && textOf(entry.txid) !== undefined);
}

/** A notification → our result, or undefined for ignored events and bodies that cannot be parsed. */
export function readBacenPixNotification(
  body: Buffer,
  payoutStatus: (value: unknown) => WithdrawStatus,
  options: { untypedEvent?: string } = {},
): WebhookResult | undefined {
  const parsed = parseJsonObject(body);
  if (!parsed) return undefined;

  if (Array.isArray(parsed.pix)) {
    const pix = chargedPix(parsed)[0];
    return pix ? { type: 'TRANSACTION', transactionId: textOf(pix.txid)!, status: pixReceivedStatus(pix) } : undefined;
  }

  const type = parsed.type === undefined ? options.untypedEvent : textOf(parsed.type)?.toUpperCase();
  const data = isRecord(parsed.data) ? (parsed.data as NonNullable<PixEvent['data']>) : undefined;
  if (!type || !data) return undefined;

  if (type === PAYOUT_EVENT) {
    const id = payoutId({ endToEndId: textOf(data.endToEndId), id: idText(data.id) });
    const status = textOf(data.status);
    return id && status ? { type: 'WITHDRAW', transactionId: id, status: payoutStatus(status) } : undefined;
  }

  const rule = Object.hasOwn(CASH_IN_EVENTS, type) ? CASH_IN_EVENTS[type] : undefined;
  const txid = textOf(data.txId) ?? textOf(data.txid);
  if (!rule || rule === 'ignore' || !txid) return undefined;
  const status: TransactionStatus = 'status' in rule ? rule.status : (rule.byDataStatus[textOf(data.status)?.toUpperCase() ?? ''] ?? rule.otherwise);
  return { type: 'TRANSACTION', transactionId: txid, status };
}

/**
 * What makes one notification distinct from another about the same payment
 * (event type, endToEndId or event id, and status, so a RECEIVE that moves from
 * PROCESSING to LIQUIDATED is not taken for a repeat); undefined when the body names nothing.
 */
export function bacenPixNotificationKey(body: Buffer): string | undefined {
  const parsed = parseJsonObject(body);
  if (!parsed) return undefined;
  if (Array.isArray(parsed.pix)) {
    const parts = chargedPix(parsed).map((pix) =>
      [
        textOf(pix.endToEndId) ?? textOf(pix.txid),
        ...(pix.devolucoes ?? []).map((devolucao) => `${textOf(devolucao.id) ?? textOf(devolucao.rtrId) ?? ''}=${textOf(devolucao.status) ?? ''}`),
      ].join(','),
    );
    return parts.length ? `bacen-pix:pix:${parts.join(';')}` : undefined;
  }
  const data = isRecord(parsed.data) ? parsed.data : undefined;
  const type = textOf(parsed.type)?.toUpperCase();
  const id = data && (textOf(data.endToEndId) ?? idText(data.id));
  return type && id ? `bacen-pix:${type}:${id}:${textOf(data.status)?.toUpperCase() ?? ''}` : undefined;
}
