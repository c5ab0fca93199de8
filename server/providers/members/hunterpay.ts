import type { TransactionInput } from '../../domain/types.js';
import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { DOC3_COMMON_OVERRIDES, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { PurchaseAdapter, toPurchase } from '../families/transactionsApi/platforms/purchase.js';
import { member } from '../kit/registration.js';

/**
 * HUNTERPAY (spec doc 3, group 3: "Hunter pay"), a member of the transactions
 * API family on the "/transactions/v2/purchase" platform the spec's path
 * belongs to (provider research F10, shared with AXISBANK:
 * `families/transactionsApi/platforms/purchase.ts`): POST /transactions/v2/purchase (PIX
 * or card; customer, items, amount, postbackUrl, description); GET
 * /transactions/{id}; DELETE /transactions/{id} refund (§7); PIX 1 day (§9).
 * Statuses: doc 3's common pattern; "Unknown in Hunter returns no status"
 * (§4) is PENDING, the one status the gateway never moves a charge to, so an
 * unknown word changes nothing (docs/decisions.md). Basic with the API key
 * and an empty password (research: HunterSub's contract and F10 agree).
 */
export const HUNTERPAY: TransactionsApiMember = {
  identity: { id: 'HUNTERPAY', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.huntersub.com.br' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: 'empty' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  expiry: { pixSeconds: SECONDS_PER_DAY },
  statuses: { transaction: { overrides: DOC3_COMMON_OVERRIDES, unknown: 'PENDING' } },
  evidence: { level: 'third-party' },
  sources:
    "paths, PIX or card, the purchase's fields, PIX 1 day: spec (doc 3 §7/§9); the purchase body (upper-case paymentMethod, customer, creditCard{token, installments} for a caller's card id): the F10 platform as AXISBANK sends it (research F10); a card opened from the gateway's card token as `creditCard {number, holder, expMonth, expYear, cvv, installments}`: the F10 platform's documentation (AxisBanking's Create Transaction, https://docs.axisbanking.com.br/api/create-transaction), HunterPay publishing none for this path; Basic with the API key and an empty password, cents: research (HunterSub's contract, F10); unknown statuses PENDING: the gateway's reading of §4's \"no status\"; host: HunterSub's, a placeholder (no public source ties the brand to F10)",
  paths: { create: '/transactions/v2/purchase', refund: { method: 'DELETE', path: '/transactions/{id}' } },
};

/** One hook: the purchase carries the caller's items (§7). Every operation is the family's. */
export class HunterPayAdapter extends PurchaseAdapter {
  protected override transactionBody(input: TransactionInput, ctx: AdapterContext): object {
    return toPurchase(input, { notificationUrl: ctx.notificationUrl, amount: (cents) => this.toProviderAmount(cents), items: true });
  }
}

export default member(HunterPayAdapter, HUNTERPAY);
