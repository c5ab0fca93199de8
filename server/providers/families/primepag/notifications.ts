import type { TransactionStatus, WebhookResult, WithdrawStatus } from '../../../domain/types.js';
import { parseJsonObject } from '../../../lib/json.js';
import { primePagNotification, type NotificationType } from './wire.js';
import { notificationKeyOf } from '../../notificationKeys.js';
import { payoutRefusal } from '../../kit/payoutRefusal.js';

export interface ParsedNotification {
  type: NotificationType;
  /** The QR code's or the payout's reference_code. */
  referenceCode: string;
  /** The status as sent. */
  status: string;
  /** A payment's `cancellation_reason`, when the delivery states one. */
  cancellationReason?: string;
}

/**
 * A delivery `{notification_type, message{reference_code, status, …}, md5}`
 * (research G-B; the spec names reference_code among the webhook identifying
 * fields, doc 2 §4). pix_qrcode is one of our charges, pix_payment one of our
 * payouts; any other type (a static QR code's, which the gateway never
 * creates) is ignored. A body without a reference_code or a status cannot be
 * used. Both give undefined.
 *
 * Unsigned: the `md5` field was seen checked only in commented-out code of one
 * integration (md5 of "qrcode.<reference_code>.<end_to_end>.<value_cents>.<private token>"),
 * which is no contract; the `Authorization` header carries a fixed value the
 * merchant registers (POST /v1/webhooks/{type}), a password rather than a
 * signature. The gateway confirms a charge's status with GET /v1/pix/qrcodes/{id}.
 */
export function parsePrimePagNotification(body: Buffer | string): ParsedNotification | undefined {
  const delivery = primePagNotification.safeParse(parseJsonObject(body));
  if (!delivery.success) return undefined;
  const { reference_code: referenceCode, status, cancellation_reason: cancellationReason } = delivery.data.message;
  return { type: delivery.data.notification_type, referenceCode, status, ...(cancellationReason ? { cancellationReason } : {}) };
}

/**
 * A delivery → our result: pix_qrcode a TRANSACTION through the QR code table,
 * pix_payment a WITHDRAW through the payout table, only for a member that
 * pays out (`payoutStatus` given), with its `cancellation_reason` as the
 * refusal reason of a payout that did not go through; undefined for the rest.
 */
export function readPrimePagNotification(
  body: Buffer | string,
  tables: { chargeStatus: (value: string) => TransactionStatus; payoutStatus?: (value: string) => WithdrawStatus },
): WebhookResult | undefined {
  const parsed = parsePrimePagNotification(body);
  if (parsed?.type === 'pix_qrcode') return { type: 'TRANSACTION', transactionId: parsed.referenceCode, status: tables.chargeStatus(parsed.status) };
  if (parsed?.type === 'pix_payment' && tables.payoutStatus) {
    const status = tables.payoutStatus(parsed.status);
    return { type: 'WITHDRAW', transactionId: parsed.referenceCode, status, ...payoutRefusal(status, parsed.cancellationReason) };
  }
  return undefined;
}

/** One delivery about one QR code or payout in one status: re-deliveries share it, a status change does not. */
export function primePagNotificationKey(body: Buffer | string): string | undefined {
  const parsed = parsePrimePagNotification(body);
  return parsed ? notificationKeyOf({ subject: parsed.type, id: parsed.referenceCode, status: parsed.status }, Buffer.from(body)) : undefined;
}
