import type { AdapterContext } from '../../../adapter.js';
import { TransactionsApiAdapter } from '../adapter.js';
import type { TransactionsApiMember } from '../member.js';

/**
 * The LordsPay platform (spec doc 3: LORDSPAY in group 3, LORDSCASH in group 4,
 * whose failures also read 'Erro na LordsPay: …'): what its members share, once.
 * - Paths (doc 3 §7, LordsCash): POST /payments, GET /payments/{id}, POST
 *   /payments/refund {transaction_id, amount, postback_url}; Bearer auth.
 * - Amounts in reais: "LordsCash divides by 100 sending and multiplies by 100 receiving" (§9).
 * - Postbacks carry the status in the event (§4): transaction.paid APPROVED;
 *   transaction.failed and transaction.expired REJECTED; transaction.refunded
 *   REFUNDED; any other PENDING.
 * No public material on either (provider research, groups 3–4): the payload
 * shapes are the family's dialect.
 */
export const LORDSPAY_PLATFORM = {
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'reais',
  paths: { create: '/payments', get: '/payments/{id}', refund: { method: 'POST', path: '/payments/refund' } },
  eventStatuses: {
    table: { 'transaction.paid': 'APPROVED', 'transaction.failed': 'REJECTED', 'transaction.expired': 'REJECTED', 'transaction.refunded': 'REFUNDED' },
    unknown: 'PENDING',
  },
} as const satisfies Partial<TransactionsApiMember>;

/** One hook: the refund names the transaction and the postback URL (the path has no id). */
export class LordsPayAdapter extends TransactionsApiAdapter {
  protected override refundBody(amount: number, transactionId: string, ctx: AdapterContext): object {
    return { transaction_id: transactionId, amount: this.toProviderAmount(amount), postback_url: ctx.notificationUrl };
  }
}
