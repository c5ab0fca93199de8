import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * BRPIXDIGITAL (spec doc 3, group 4: "BRPIX Digital"), a member of the
 * transactions API family on the "functions/v1" platform (provider research
 * F2): POST /transactions; GET /transactions/{id}; DELETE /transactions/{id}
 * refund with amount and reason in the body (§7). Its own table (§4):
 * waiting_payment PENDING; paid APPROVED; refunded and chargedback CHARGEBACK;
 * anything else REJECTED. From the research: host
 * api.brpixdigital.com/functions/v1, Basic base64(secretKey:companyId) (the
 * company id is the account's public key), amounts in cents, PIX charges. The
 * spec gives it no payout: none is declared.
 */
export const BRPIXDIGITAL: TransactionsApiMember = {
  identity: { id: 'BRPIXDIGITAL', specGroup: SPEC_GROUPS.DOC3_GROUP4, defaultBaseUrl: 'https://api.brpixdigital.com/functions/v1' },
  capabilities: { paymentMethods: ['PIX'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: 'publicKey' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'cents',
  statuses: {
    transaction: { table: { waiting_payment: 'PENDING', paid: 'APPROVED', refunded: 'CHARGEBACK', chargedback: 'CHARGEBACK' }, unknown: 'REJECTED' },
  },
  failurePrefixes: { createTransaction: 'CREATE_PIX_TRANSACTION_FOURTH_GROUP', refoundTransaction: 'REFUND_FOURTH_GROUP' },
  sources:
    "paths, DELETE refund with amount and reason, statuses, 'Erro na criação da transação PIX: …', 'Erro no estorno: …': spec (doc 3 §4/§7/§8); host `api.brpixdigital.com/functions/v1`, Basic `secretKey:companyId`, cents, PIX: research (F2, BRPIX Digital's integrations, brpixdigital.readme.io); bodies: the family's dialect; the refund's reason text: the gateway's decision",
  paths: { refund: { method: 'DELETE', path: '/transactions/{id}' } },
};

/** The reason BRPIX Digital's refund carries beside the amount (§7 shows the field, not its text: docs/decisions.md). */
export const BRPIXDIGITAL_REFUND_REASON = 'Estorno solicitado pelo vendedor';

/** One hook: the refund says why. Every operation is the family's. */
export class BrpixDigitalAdapter extends TransactionsApiAdapter {
  protected override refundBody(amount: number, transactionId: string, ctx: AdapterContext): object {
    return { ...super.refundBody(amount, transactionId, ctx), reason: BRPIXDIGITAL_REFUND_REASON };
  }
}

export default member(BrpixDigitalAdapter, BRPIXDIGITAL);
