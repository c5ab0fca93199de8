import { z } from 'zod';
import { safeEqualText } from '../../lib/constantTime.js';
import { parseJson } from '../../lib/json.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { TransactionsApiAdapter, type ParsedNotification, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { DOC1_COMMON_GATEWAY, DOC1_COMMON_SOURCES } from '../families/transactionsApi/platforms/doc1Common.js';
import { absentable, wireId, wireStatus } from '../kit/answers.js';
import { member } from '../kit/registration.js';
import { MASKED_SECRET, maskedJsonField } from '../kit/bodySecrets.js';

/**
 * SAQPAY (spec doc 2, group 1): only its IPN is public (provider research:
 * `{transaction_id, partner_conciliation_id, transaction_amount, ipn_secret,
 * transaction_status, payment_date}`, authenticity by the shared `ipn_secret`
 * in the body); no API host or call was found, so the calls are document 1
 * §7's closest family (`platforms/doc1Common.ts`), like the group's other
 * providers without public material. Placeholder host.
 */
export const SAQPAY: TransactionsApiMember = {
  identity: { id: 'SAQPAY', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.saqpay.com.br/v1' },
  ...DOC1_COMMON_GATEWAY,
  sources: `${DOC1_COMMON_SOURCES}; IPN \`{transaction_id, transaction_status, ipn_secret, …}\` checked by its \`ipn_secret\`: research (public integrations)`,
};

// ---- wire: the IPN (research: public integrations)

/** The IPN: the transaction (SaqPay's id), its status, and the shared secret that authenticates it. */
export const saqpayIpn = z.object({
  transaction_id: wireId,
  transaction_status: wireStatus,
  ipn_secret: absentable(z.string()),
});

/** The IPN's transaction and its status; undefined for anything else. */
export function readSaqpayIpn(body: Buffer): (ParsedNotification & { secret?: string }) | undefined {
  const ipn = saqpayIpn.safeParse(parseJson(body));
  if (!ipn.success) return undefined;
  const { transaction_id: id, transaction_status: status, ipn_secret: secret } = ipn.data;
  return { kind: 'transaction', id, status, ...(secret?.trim() ? { secret: secret.trim() } : {}) };
}

/** SaqPay's IPN instead of the family's postback shapes; its `ipn_secret` checked against the account's webhook secret. */
export class SaqpayAdapter extends TransactionsApiAdapter {
  protected override parsedNotification(body: Buffer): ParsedNotification | undefined {
    const ipn = readSaqpayIpn(body);
    return ipn && { kind: ipn.kind, id: ipn.id, status: ipn.status };
  }

  /**
   * The shared secret travels in the body: compared in constant time with the
   * account's webhook secret, when it has one. A stored IPN has it masked
   * (storableBody): unsigned then, intake having kept what it proved.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    if (!ctx.webhookSecret) return 'unsigned';
    const secret = readSaqpayIpn(notification.body)?.secret;
    if (secret === MASKED_SECRET) return 'unsigned';
    return secret !== undefined && safeEqualText(secret, ctx.webhookSecret) ? 'valid' : 'invalid';
  }

  /** The IPN is stored with its `ipn_secret` masked (re-serialised JSON, every other field as received): a shared secret never reaches the database. */
  override storableBody(body: Buffer): Buffer {
    return maskedJsonField(body, 'ipn_secret');
  }
}

export default member(SaqpayAdapter, SAQPAY);
