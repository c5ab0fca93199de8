import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { F2_PLATFORM, F2_PLATFORM_ADDRESSES, F2Adapter } from '../families/transactionsApi/platforms/f2.js';
import { member } from '../kit/registration.js';

/**
 * BRPIXDIGITAL (spec doc 3, group 4: "BRPIX Digital"), a member of the
 * transactions API family on the "functions/v1" platform (provider research
 * F2): POST /transactions; GET /transactions/{id}; DELETE /transactions/{id}
 * refund with amount and reason in the body (§7). Its own table (§4):
 * waiting_payment PENDING; paid APPROVED; refunded and chargedback CHARGEBACK;
 * anything else REJECTED. From the research: host
 * api.brpixdigital.com/functions/v1, Basic base64(secretKey:companyId) (the
 * company id is the account's public key), PIX charges. The rest is the
 * "functions/v1" platform's (platforms/f2.ts): cents, upper-case `PIX`/`CPF`,
 * signed postbacks. The spec gives it no payout: none is declared. Its own
 * reference (brpixdigital.readme.io, cited by its integrations) is not in the
 * stored corpora: its evidence is the platform's
 * (tests/standins/brpixdigital.test.ts).
 */
export const BRPIXDIGITAL: TransactionsApiMember = {
  identity: { id: 'BRPIXDIGITAL', specGroup: SPEC_GROUPS.DOC3_GROUP4, defaultBaseUrl: 'https://api.brpixdigital.com/functions/v1' },
  capabilities: { paymentMethods: ['PIX'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: 'publicKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  ...F2_PLATFORM,
  evidence: { level: 'platform', addresses: F2_PLATFORM_ADDRESSES },
  statuses: {
    transaction: { table: { waiting_payment: 'PENDING', paid: 'APPROVED', refunded: 'CHARGEBACK', chargedback: 'CHARGEBACK' }, unknown: 'REJECTED' },
  },
  failurePrefixes: { createTransaction: 'CREATE_PIX_TRANSACTION_FOURTH_GROUP', refoundTransaction: 'REFUND_FOURTH_GROUP' },
  sources:
    "paths, DELETE refund with amount and reason, statuses, 'Erro na criação da transação PIX: …', 'Erro no estorno: …': spec (doc 3 §4/§7/§8); the PIX charge (upper-case `PIX`/`CPF`, cents, `pix.expiresInDays`, the flat answer), GET and DELETE on /transactions/{id}, signed postbacks (`X-Webhook-Signature: sha256=` HMAC of the body with the charge's `webhookSecret`): the platform's documentation (HunterSub, FullPix; brpixdigital.readme.io, cited by its integrations, could not be read); host `api.brpixdigital.com/functions/v1`, Basic `secretKey:companyId`, PIX only: research (F2, BRPIX Digital's integrations); the refund's reason text: the gateway's decision",
  paths: { refund: { method: 'DELETE', path: '/transactions/{id}' } },
};

/** The reason BRPIX Digital's refund carries beside the amount (§7 shows the field, not its text: docs/decisions.md). */
export const BRPIXDIGITAL_REFUND_REASON = 'Estorno solicitado pelo vendedor';

/** One hook: the refund says why. Every operation is the family's. */
export class BrpixDigitalAdapter extends F2Adapter {
  protected override refundBody(amount: number, transactionId: string, ctx: AdapterContext): object {
    return { ...super.refundBody(amount, transactionId, ctx), reason: BRPIXDIGITAL_REFUND_REASON };
  }
}

export default member(BrpixDigitalAdapter, BRPIXDIGITAL);
