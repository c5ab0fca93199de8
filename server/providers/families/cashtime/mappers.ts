import type { Customer, TransactionInput, TransactionResult, TransactionStatus, WithdrawInput, WithdrawResult, WithdrawStatus } from '../../../domain/types.js';
import { digitsOnly, lowerCaseCpfWhenExactly11Digits } from '../../../lib/documents.js';
import { expiresAfter } from '../../../lib/expiry.js';
import { isRecord } from '../../../lib/json.js';
import { nationalPhoneDigits } from '../../../lib/phone.js';
import { providerPixKey, type PixKeyType } from '../../../lib/pixKey.js';
import { dateOf, idText, textOf } from '../../../lib/values.js';
import { CASHTIME_PIX_KEYS } from './member.js';
import type { CashtimeCustomer, CashtimeOrder, CashtimeTransactionRequest, CashtimeWithdrawal, CashtimeWithdrawalRequest } from './wire.js';

/** Pure mappers of the platform's dialect: our input → their body, their body → our result. No HTTP, no clock, no logger. */

/** What a request mapper needs of the member. */
export interface CashtimeRequestTerms {
  /** Our integer cents → the member's unit (the kit's conversion). */
  amount: (cents: number) => number;
  /** The gateway's sidecar address for this account. */
  notificationUrl: string;
}

/**
 * Our PIX charge → the POST /transactions body (research G-A). One intangible
 * item covering the amount is sent when the caller gives none (the platform
 * requires items); `isInfoProducts` is true when no item is tangible (no
 * shipping address needed). The postback URL is always the gateway's sidecar.
 */
export function toCashtimeTransaction(input: TransactionInput, terms: CashtimeRequestTerms): CashtimeTransactionRequest {
  const items = input.items.length
    ? input.items.map((item) => ({ title: item.title, unitPrice: terms.amount(item.unitPrice), quantity: item.quantity, tangible: item.tangible }))
    : [{ title: input.description || 'Pedido', unitPrice: terms.amount(input.amount), quantity: 1, tangible: false }];
  return {
    isInfoProducts: items.every((item) => !item.tangible),
    ...(input.orderId ? { externalCode: input.orderId } : {}),
    paymentMethod: 'pix',
    installments: 1,
    amount: terms.amount(input.amount),
    ...(input.customer ? { customer: toCashtimeCustomer(input.customer) } : {}),
    items,
    postbackUrl: terms.notificationUrl,
    ...(input.customerIp ? { ip: input.customerIp } : {}),
  };
}

/** The customer with the document as `{ number, type }` in lower case (ReflowPay's own integration), the phone as national digits. */
export const toCashtimeCustomer = (customer: Customer): CashtimeCustomer => ({
  name: customer.name,
  email: customer.email,
  phone: nationalPhoneDigits(customer.phone),
  document: { number: digitsOnly(customer.document), type: lowerCaseCpfWhenExactly11Digits(customer.document) },
});

/** A payout to a PIX key of a known type (CPF/CNPJ digits, PHONE +55, RANDOM as EVP), amount in the member's unit. */
export function toCashtimeWithdrawal(input: WithdrawInput & { pixKey: string; pixType: PixKeyType }, terms: CashtimeRequestTerms): CashtimeWithdrawalRequest {
  const { key, type } = providerPixKey(input.pixKey.trim(), input.pixType, CASHTIME_PIX_KEYS);
  return {
    amount: terms.amount(input.amount),
    pixKey: key,
    pixKeyType: type,
    baasPostbackUrl: terms.notificationUrl,
    ...(input.withdrawReference ? { externalCode: input.withdrawReference } : {}),
  };
}

/** The object, whether the platform answers it bare or inside `{ data: … }` (an envelope has no status of its own). */
export function unwrapCashtime<T extends { data?: T }>(body: unknown): T {
  if (!isRecord(body)) return {} as T;
  return body.status === undefined && isRecord(body.data) ? (body.data as T) : (body as T);
}

/** What a response mapper needs of the member. */
export interface CashtimeResponseTerms<S> {
  /** The member's unit → our integer cents; a RangeError for anything that is not an amount. */
  amount: (value: unknown) => number;
  status: (value: unknown) => S;
}

const present = (value: unknown): boolean => value !== undefined && value !== null;

/**
 * An order → our result, without the QR image. At creation (`created` given)
 * the order needs its id and may leave the status out (a new PIX charge is
 * PENDING); a read needs both. Undefined otherwise: the operation turns that
 * into an error, never a status. The expiry is the provider's, else, at
 * creation only, the member's PIX validity from the request's time.
 */
export function fromCashtimeOrder(
  body: unknown,
  terms: CashtimeResponseTerms<TransactionStatus> & { created?: { amount: number; at: Date; pixSeconds: number } },
): TransactionResult | undefined {
  const order = unwrapCashtime<CashtimeOrder>(body);
  const transactionId = idText(order.id) ?? idText(order.orderId);
  const status = textOf(order.status);
  if (!transactionId || (!status && !terms.created)) return undefined;
  const pixCode = textOf(order.pix?.payload);
  const expiresAt = dateOf(order.pix?.expirationDate) ?? (terms.created ? expiresAfter(terms.created.at, terms.created.pixSeconds) : undefined);
  return {
    paymentMethod: 'PIX',
    transactionId,
    status: status ? terms.status(status) : 'PENDING',
    amount: present(order.amount) ? terms.amount(order.amount) : (terms.created?.amount ?? 0),
    ...(pixCode ? { pixCode } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/**
 * A payout answer → our result. At creation (`requestedAmount` given) it needs
 * its id and may leave the status out (accepted: PENDING); a read needs both.
 */
export function fromCashtimeWithdrawal(body: unknown, terms: CashtimeResponseTerms<WithdrawStatus> & { requestedAmount?: number }): WithdrawResult | undefined {
  const withdrawal = unwrapCashtime<CashtimeWithdrawal>(body);
  const withdrawId = idText(withdrawal.id) ?? idText(withdrawal.withdrawId);
  const status = textOf(withdrawal.status);
  const creating = terms.requestedAmount !== undefined;
  if (!withdrawId || (!status && !creating)) return undefined;
  return {
    withdrawId,
    amount: present(withdrawal.amount) ? terms.amount(withdrawal.amount) : (terms.requestedAmount ?? 0),
    status: status ? terms.status(status) : 'PENDING',
  };
}
