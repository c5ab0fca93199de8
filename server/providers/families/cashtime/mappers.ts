import type { Customer, TransactionInput, TransactionResult, TransactionStatus, WithdrawInput, WithdrawResult, WithdrawStatus } from '../../../domain/types.js';
import { digitsOnly, lowerCaseCpfWhenExactly11Digits } from '../../../lib/documents.js';
import { expiresAfter } from '../../../lib/expiry.js';
import { nationalPhoneDigits } from '../../../lib/phone.js';
import { normalizePixKey, type PixKeyType } from '../../../lib/pixKey.js';
import { dateOf } from '../../../lib/values.js';
import { CASHTIME_PIX_KEY_TYPES, CASHTIME_PIX_KEYS } from './member.js';
import type {
  CashtimeCreatedOrder,
  CashtimeCustomer,
  CashtimeOrder,
  CashtimeTransactionRequest,
  CashtimeWithdrawal,
  CashtimeWithdrawalRequest,
} from './wire.js';

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
  return {
    amount: terms.amount(input.amount),
    pixKey: normalizePixKey(input.pixKey.trim(), input.pixType, CASHTIME_PIX_KEYS),
    pixKeyType: CASHTIME_PIX_KEY_TYPES[input.pixType],
    baasPostbackUrl: terms.notificationUrl,
    ...(input.withdrawReference ? { externalCode: input.withdrawReference } : {}),
  };
}

/** What a response mapper needs of the member. */
export interface CashtimeResponseTerms<S> {
  /** The member's unit → our integer cents; a RangeError for anything that is not an amount. */
  amount: (value: number | string) => number;
  status: (value: string) => S;
}

/**
 * A parsed order → our result, without the QR image. At creation (`created`
 * given) the status may have been left out (a new PIX charge is PENDING) and
 * the amount falls back to the one asked for. The expiry is the provider's,
 * else, at creation only, the member's PIX validity from the request's time.
 */
export function fromCashtimeOrder(
  order: CashtimeOrder | CashtimeCreatedOrder,
  terms: CashtimeResponseTerms<TransactionStatus> & { created?: { amount: number; at: Date; pixSeconds: number } },
): TransactionResult {
  const pixCode = order.pix?.payload;
  const expiresAt = dateOf(order.pix?.expirationDate) ?? (terms.created ? expiresAfter(terms.created.at, terms.created.pixSeconds) : undefined);
  return {
    paymentMethod: 'PIX',
    transactionId: order.id,
    status: order.status !== undefined ? terms.status(order.status) : 'PENDING',
    amount: order.amount !== undefined ? terms.amount(order.amount) : (terms.created?.amount ?? 0),
    ...(pixCode ? { pixCode } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** A parsed payout → our result. At creation (`requestedAmount` given) a status left out is PENDING (accepted), an amount left out the one asked for. */
export function fromCashtimeWithdrawal(
  withdrawal: CashtimeWithdrawal,
  terms: CashtimeResponseTerms<WithdrawStatus> & { requestedAmount?: number },
): WithdrawResult {
  return {
    withdrawId: withdrawal.id,
    amount: withdrawal.amount !== undefined ? terms.amount(withdrawal.amount) : (terms.requestedAmount ?? 0),
    status: withdrawal.status !== undefined ? terms.status(withdrawal.status) : 'PENDING',
  };
}
