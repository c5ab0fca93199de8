import { digitsOnly } from '../../lib/documents.js';
import { normalizePixKey } from '../../lib/pixKey.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import type { TransactionInput, WithdrawInput } from '../../domain/types.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { API_PAYMENT_METHODS, TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { member } from '../kit/registration.js';

/**
 * AXISBANK (spec doc 2, group 2) on the "/transactions/v2/purchase" platform
 * (provider research F10: IHub / AxisBanking, host api.axisbanking.com.br, HTTP
 * Basic with the key as user and an empty password, amounts in cents, PIX and
 * card). Paths and request fields are the spec's (doc 2 §7): POST
 * /transactions/v2/purchase (customer, paymentMethod, description, amount,
 * postbackUrl, referrerUrl, checkoutUrl, responsible fields, currency,
 * creditCard or fingerPrint); GET /transactions/{id}; POST
 * /transactions/refund/{id}; POST /withdraws/cash-out (bankAccount,
 * institution, name, bankAgency, amount, document, pixType, pixKey). Where the
 * research's flat body differs (name, cpf… at the top level), the spec's
 * `customer` wins. Answers are read as the family reads them.
 */
export const AXISBANK: TransactionsApiMember = {
  identity: { id: 'AXISBANK', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.axisbanking.com.br' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD'], withdrawMethods: ['PIX'], refunds: true, webhooks: true },
  auth: { type: 'basic', username: 'secretKey', password: 'empty' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  sources:
    'paths and request fields: spec (doc 2 §7); host `api.axisbanking.com.br`, Basic with the key and an empty password, cents, PIX and card only: research (F10, IHub/AxisBanking integrations); answers read as the family reads them',
  paths: { create: '/transactions/v2/purchase', refund: { method: 'POST', path: '/transactions/refund/{id}' }, withdraw: '/withdraws/cash-out' },
};

/** Body of POST /transactions/v2/purchase (the spec's fields). */
export function toPurchase(input: TransactionInput, notificationUrl: string) {
  const customer = input.customer;
  return {
    amount: input.amount,
    paymentMethod: API_PAYMENT_METHODS.toProvider(input.paymentMethod).toUpperCase(),
    description: input.description || 'Pedido',
    ...(customer
      ? { customer: { name: customer.name, email: customer.email, document: digitsOnly(customer.document), phone: nationalPhoneDigits(customer.phone) } }
      : {}),
    postbackUrl: notificationUrl,
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

/** Body of POST /withdraws/cash-out (the spec's fields; the bank fields from the receiving account when given). */
export function toCashOut(input: WithdrawInput) {
  const bank = input.bankAccount;
  return {
    amount: input.amount,
    pixType: input.pixType,
    pixKey: input.pixType ? normalizePixKey(input.pixKey ?? '', input.pixType) : (input.pixKey ?? '').trim(),
    ...(input.name || bank?.accountHolder ? { name: input.name || bank?.accountHolder } : {}),
    ...(input.document || bank?.accountDocument ? { document: digitsOnly(input.document || bank?.accountDocument || '') } : {}),
    ...(bank ? { institution: bank.bankCode, bankAgency: bank.branchNumber, bankAccount: bank.accountNumber } : {}),
  };
}

/** The two hooks of its dialect; every operation is the family's. */
export class AxisbankAdapter extends TransactionsApiAdapter {
  protected override transactionBody(input: TransactionInput, ctx: AdapterContext): object {
    return toPurchase(input, ctx.notificationUrl);
  }

  protected override withdrawalBody(input: WithdrawInput): object {
    return toCashOut(input);
  }
}

export default member(AxisbankAdapter, AXISBANK);
