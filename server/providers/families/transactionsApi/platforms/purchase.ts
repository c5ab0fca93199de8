import type { TransactionInput, WithdrawInput } from '../../../../domain/types.js';
import { digitsOnly } from '../../../../lib/documents.js';
import { nationalPhoneDigits } from '../../../../lib/phone.js';
import { normalizePixKey } from '../../../../lib/pixKey.js';
import type { AdapterContext } from '../../../adapter.js';
import { TransactionsApiAdapter } from '../adapter.js';
import { API_PAYMENT_METHODS, toApiItems, type RequestTerms } from '../mappers.js';

/**
 * The "/transactions/v2/purchase" platform (provider research F10: IHub,
 * AxisBanking, Pagnovo), as AXISBANK (doc 2 §7) and HunterPay (doc 3 §7) speak
 * it: the purchase body and the cash-out body, written once. A member
 * registers PurchaseAdapter (or extends it to add the purchase's items, as
 * HunterPay does through `transactionBody`); every operation is the family's.
 */

/** What a purchase body needs besides the input. */
export interface PurchaseTerms {
  /** The gateway's sidecar address for this account. */
  notificationUrl: string;
  /** Our integer cents → the member's unit. */
  amount: RequestTerms['amount'];
  /** Send the caller's items (HunterPay's "customer, items, amount, postbackUrl, description"); AXISBANK's fields have none. */
  items?: boolean;
}

/** Body of POST /transactions/v2/purchase (doc 2 §7's fields; doc 3 §7 adds items for HunterPay). */
export function toPurchase(input: TransactionInput, terms: PurchaseTerms) {
  const customer = input.customer;
  return {
    amount: terms.amount(input.amount),
    paymentMethod: API_PAYMENT_METHODS.toProvider(input.paymentMethod).toUpperCase(),
    description: input.description || 'Pedido',
    ...(customer
      ? { customer: { name: customer.name, email: customer.email, document: digitsOnly(customer.document), phone: nationalPhoneDigits(customer.phone) } }
      : {}),
    ...(terms.items ? { items: toApiItems(input, terms.amount) } : {}),
    postbackUrl: terms.notificationUrl,
    ...(input.referrerUrl ? { referrerUrl: input.referrerUrl } : {}),
    ...(input.checkoutUrl ? { checkoutUrl: input.checkoutUrl } : {}),
    ...(input.userDocument ? { responsibleDocument: digitsOnly(input.userDocument) } : {}),
    ...(input.userId ? { responsibleExternalId: input.userId } : {}),
    ...(input.orderId ? { externalId: input.orderId } : {}),
    currency: input.currency || 'BRL',
    ...(input.paymentMethod === 'CREDIT_CARD' ? { creditCard: { token: input.cardId, installments: input.installments || 1 } } : {}),
    ...(input.fingerPrints.length ? { fingerPrint: input.fingerPrints.map(({ provider, value }) => ({ provider, value })) } : {}),
  };
}

/** Body of POST /withdraws/cash-out (doc 2 §7's fields; the bank fields from the receiving account when given). */
export function toCashOut(input: WithdrawInput, amount: RequestTerms['amount']) {
  const bank = input.bankAccount;
  return {
    amount: amount(input.amount),
    pixType: input.pixType,
    pixKey: input.pixType ? normalizePixKey(input.pixKey ?? '', input.pixType) : (input.pixKey ?? '').trim(),
    ...(input.name || bank?.accountHolder ? { name: input.name || bank?.accountHolder } : {}),
    ...(input.document || bank?.accountDocument ? { document: digitsOnly(input.document || bank?.accountDocument || '') } : {}),
    ...(bank ? { institution: bank.bankCode, bankAgency: bank.branchNumber, bankAccount: bank.accountNumber } : {}),
  };
}

/** The platform's two hooks: its purchase and cash-out bodies. */
export class PurchaseAdapter extends TransactionsApiAdapter {
  /** The purchase body names the card by a token (`creditCard.token`); the spec shows no card fields for it. */
  override takesCardData(_ctx: AdapterContext): boolean {
    return false;
  }

  protected override transactionBody(input: TransactionInput, ctx: AdapterContext): object {
    return toPurchase(input, { notificationUrl: ctx.notificationUrl, amount: (cents) => this.toProviderAmount(cents) });
  }

  protected override withdrawalBody(input: WithdrawInput): object {
    return toCashOut(input, (cents) => this.toProviderAmount(cents));
  }
}
