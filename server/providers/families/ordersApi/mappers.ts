import { createHash } from 'node:crypto';
import axios from 'axios';
import type {
  Address,
  CardInput,
  PaymentMethod,
  Customer,
  ReceiverInput,
  ReceiverResult,
  ReceiverStatus,
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WithdrawResult,
  WithdrawStatus,
} from '../../../domain/types.js';
import { bankAccountKind, compensationCode, isListedBank, type BankAccountKind, type BankList } from '../../../lib/banks.js';
import { cardDigits, fourDigitYear, statementDescriptor } from '../../../lib/card.js';
import { digitsOnly, inferDocumentType } from '../../../lib/documents.js';
import { GatewayError, invalidArgument } from '../../../lib/errors.js';
import { expiresAfter } from '../../../lib/expiry.js';
import { providerError, ProviderCallError } from '../../../lib/http/index.js';
import { paymentMethodCodec } from '../../../lib/paymentMethods.js';
import { COUNTRY_CODE, splitPhone } from '../../../lib/phone.js';
import { lookupStatus } from '../../../lib/statusTable.js';
import { dateOf } from '../../../lib/values.js';
import { ORDERS_API_REFUND_OUTCOMES } from './statuses.js';
import {
  ORDERS_API_ERROR,
  type OrdersApiCancelRequest,
  type OrdersApiCharge,
  type OrdersApiCustomerRequest,
  type OrdersApiItemRequest,
  type OrdersApiLastTransaction,
  type OrdersApiOrder,
  type OrdersApiPayables,
  type OrdersApiOrderRequest,
  type OrdersApiPaymentMethod,
  type OrdersApiPaymentRequest,
  type OrdersApiRecipient,
  type OrdersApiRecipientRequest,
  type OrdersApiTokenRequest,
  type OrdersApiWithdrawal,
} from './wire.js';

/** Pure mappers of the dialect: our input → their body, their body → our result. No HTTP, no clock, no logger. */

export const ORDERS_API_METHODS = paymentMethodCodec<PaymentMethod, OrdersApiPaymentMethod>({ PIX: 'pix', BILLET: 'boleto', CREDIT_CARD: 'credit_card' });

// ---------------------------------------------------------------- request mappers

export interface OrdersApiOrderOptions {
  pixExpiresInSeconds: number;
  boletoSeconds: number;
  now: Date;
}

export const toOrdersApiAddress = (address: Address): NonNullable<OrdersApiCustomerRequest['address']> => ({
  // The provider's line_1 convention: "number, street, district".
  line_1: [address.number, address.address, address.district].filter(Boolean).join(', '),
  zip_code: digitsOnly(address.zipCode),
  city: address.city,
  state: address.state,
  country: 'BR',
});

export function toOrdersApiCustomer(customer: Customer, address?: Address): OrdersApiCustomerRequest {
  const documentType = inferDocumentType(customer.document);
  const phone = customer.phone ? splitPhone(customer.phone) : undefined;
  return {
    name: customer.name,
    email: customer.email || undefined,
    document: digitsOnly(customer.document),
    document_type: documentType,
    type: documentType === 'CPF' ? 'individual' : 'company',
    phones: phone ? { mobile_phone: { country_code: COUNTRY_CODE, area_code: phone.areaCode, number: phone.number } } : undefined,
    address: address ? toOrdersApiAddress(address) : undefined,
  };
}

/** The provider requires items; a charge without them is one item of the whole amount. */
export function toOrdersApiItems(input: Pick<TransactionInput, 'items' | 'amount' | 'description' | 'orderId'>): OrdersApiItemRequest[] {
  if (input.items.length) return input.items.map((item) => ({ amount: item.unitPrice, description: item.title, quantity: item.quantity, code: item.id }));
  return [{ amount: input.amount, description: input.description || input.orderId || 'Pagamento', quantity: 1, code: input.orderId || '1' }];
}

export const toOrdersApiSplit = (split: TransactionInput['splits'][number]): NonNullable<OrdersApiPaymentRequest['split']>[number] => ({
  recipient_id: split.recipientId,
  amount: split.amount,
  type: split.type === 'PERCENTAGE' ? 'percentage' : 'flat',
  options: { charge_processing_fee: split.chargeProcessingFee, charge_remainder_fee: split.chargeRemainder, liable: split.liable },
});

/** A card reference: the provider's tokens are 'token_…' (single use), saved cards anything else ('card_…'). */
export const isOrdersApiCardToken = (cardId: string): boolean => cardId.startsWith('token_');

export function toOrdersApiPayment(input: TransactionInput, options: OrdersApiOrderOptions): OrdersApiPaymentRequest {
  const base = { amount: input.amount, split: input.splits.length ? input.splits.map(toOrdersApiSplit) : undefined };
  switch (input.paymentMethod) {
    case 'PIX':
      return { payment_method: 'pix', ...base, pix: { expires_in: options.pixExpiresInSeconds } };
    case 'BILLET':
      return {
        payment_method: 'boleto',
        ...base,
        boleto: { due_at: expiresAfter(options.now, options.boletoSeconds).toISOString(), instructions: input.description || undefined },
      };
    case 'CREDIT_CARD': {
      const cardId = input.cardId ?? '';
      const reference = isOrdersApiCardToken(cardId)
        ? { card_token: cardId, card: input.address ? { billing_address: toOrdersApiAddress(input.address) } : undefined }
        : { card_id: cardId };
      return {
        payment_method: 'credit_card',
        ...base,
        credit_card: { installments: input.installments, statement_descriptor: statementDescriptor(input.description), ...reference },
      };
    }
  }
}

export function toOrdersApiOrder(input: TransactionInput, options: OrdersApiOrderOptions): OrdersApiOrderRequest {
  return {
    code: input.orderId || undefined,
    items: toOrdersApiItems(input),
    customer: input.customer ? toOrdersApiCustomer(input.customer, input.address) : undefined,
    payments: [toOrdersApiPayment(input, options)],
    ip: input.customerIp || undefined,
    closed: true,
    metadata: input.userId ? { user_id: input.userId } : undefined,
  };
}

export const toOrdersApiCardToken = (card: CardInput): OrdersApiTokenRequest => ({
  type: 'card',
  card: {
    number: cardDigits(card.cardNumber),
    holder_name: card.holderName,
    holder_document: card.holderDocument ? digitsOnly(card.holderDocument) : undefined,
    exp_month: Number(card.expMonth),
    exp_year: Number(fourDigitYear(card.expYear)),
    cvv: card.cvv,
  },
});

/**
 * Document 1 §9: "Transfer settings for one provider's receivers: transfer
 * disabled, interval Daily, day 0" (PAGARME's; Pagar.me v5's
 * CreateTransferSettingsRequest): the money stays on the recipient until a
 * withdrawal asks for it.
 */
export const ORDERS_API_TRANSFER_SETTINGS = { transfer_enabled: false, transfer_interval: 'Daily', transfer_day: 0 } as const;

/** The recipient's bank account as checked before anything is sent: its bank's three-digit code and its kind. */
export interface OrdersApiRecipientAccount {
  bank: string;
  kind: BankAccountKind;
}

/**
 * The receiver's bank account, checked before anything is sent: required (a
 * recipient is paid to it), at a bank of `banks` where the member declares a
 * list ('1' and '001' are the same bank), of a kind Pagar.me knows (checking
 * or savings). The spec shows no text for these: the gateway's, naming the field.
 */
export function ordersApiRecipientAccount(input: ReceiverInput, provider: string, banks?: BankList): OrdersApiRecipientAccount {
  const account = input.bankAccount;
  if (!account)
    throw invalidArgument('receiver.bank_account', `receiver.bank_account is required: ${provider} pays its recipients to a bank account`, 'REQUIRED');
  const bank = compensationCode(account.bankCode ?? '');
  if (banks && !isListedBank(banks, bank))
    throw invalidArgument(
      'receiver.bank_account.bank_code',
      `receiver.bank_account.bank_code ${bank} is not a bank ${provider} pays recipients to`,
      'INVALID_VALUE',
    );
  const kind = bankAccountKind(account.accountType);
  if (!kind)
    throw invalidArgument(
      'receiver.bank_account.account_type',
      `receiver.bank_account.account_type must name a checking or a savings account (checking, savings, corrente, poupança), not '${account.accountType ?? ''}'`,
      'UNKNOWN_VALUE',
    );
  return { bank, kind };
}

/**
 * Our receiver → POST /recipients (the SDK's CreateRecipientRequest and
 * CreateBankAccountRequest): the holder of the account is the receiver
 * itself (the contract's bank account names no other), an individual for a
 * CPF and a company otherwise; the receiver's userId is the recipient's `code`.
 */
export function toOrdersApiRecipient(input: ReceiverInput, account: OrdersApiRecipientAccount): OrdersApiRecipientRequest {
  const bankAccount = input.bankAccount!;
  const document = digitsOnly(input.document);
  const type = (input.documentType ?? inferDocumentType(document)) === 'CPF' ? 'individual' : 'company';
  return {
    name: input.name,
    email: input.email,
    description: input.description || undefined,
    document,
    type,
    default_bank_account: {
      holder_name: input.name,
      holder_type: type,
      holder_document: document,
      bank: account.bank,
      branch_number: bankAccount.branchNumber.trim(),
      branch_check_digit: bankAccount.branchDigit?.trim() || undefined,
      account_number: bankAccount.accountNumber.trim(),
      account_check_digit: bankAccount.accountDigit.trim(),
      type: account.kind,
    },
    transfer_settings: ORDERS_API_TRANSFER_SETTINGS,
    code: input.userId || undefined,
  };
}

// ---------------------------------------------------------------- response mappers (pure: parsed answers → our results)

/** How the member reads a status: its table, and the replacements for a charge that never received money. */
export interface OrdersApiStatusReader {
  status: (value: unknown) => TransactionStatus;
  neverPaid: Readonly<Record<string, TransactionStatus>>;
}

/** What a status is read from: an order or a charge (as answered or as notified). */
export interface OrdersApiStatusSubject {
  status?: string;
  paid_at?: string;
  paid_amount?: number;
}

/** One order's or charge's status. */
export function ordersApiStatus<S extends OrdersApiStatusSubject>(subject: S, reader: OrdersApiStatusReader): TransactionStatus {
  const status = (subject.status ?? '').toLowerCase();
  const wasPaid = Boolean(subject.paid_at) || (subject.paid_amount ?? 0) > 0;
  if (!wasPaid && Object.hasOwn(reader.neverPaid, status)) return reader.neverPaid[status]!;
  return reader.status(subject.status);
}

/** The order's charge (the family creates one payment per order). */
export const primaryCharge = <C>(order: { charges?: readonly C[] }): C | undefined => order.charges?.[0];

/** The charge's status when there is one (finer: chargedback, refunds), else the order's. */
export function orderStatus<O extends OrdersApiStatusSubject & { charges?: readonly OrdersApiStatusSubject[] }>(
  order: O,
  reader: OrdersApiStatusReader,
): TransactionStatus {
  return ordersApiStatus(primaryCharge(order) ?? order, reader);
}

export function fromOrdersApiOrder(order: OrdersApiOrder, reader: OrdersApiStatusReader): TransactionResult {
  const charge = primaryCharge(order);
  const paymentMethod = ORDERS_API_METHODS.fromProvider(charge?.payment_method);
  if (!charge || !paymentMethod) throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `order ${order.id} came back without a known charge`);
  const transaction = charge.last_transaction ?? {};
  const result: TransactionResult = { paymentMethod, transactionId: order.id, status: orderStatus(order, reader), amount: order.amount ?? charge.amount ?? 0 };
  if (paymentMethod === 'PIX')
    return { ...result, pixCode: transaction.qr_code, pixQrCode: transaction.qr_code_url, expiresAt: dateOf(transaction.expires_at) };
  // The contract's billetCode is the digitable line as digits (the provider formats it with dots and spaces).
  if (paymentMethod === 'BILLET')
    return {
      ...result,
      billetCode: transaction.line ? digitsOnly(transaction.line) : undefined,
      billetUrl: transaction.pdf ?? transaction.url,
      expiresAt: dateOf(transaction.due_at),
    };
  return { ...result, ...ordersApiCardDecline(result.status, transaction) };
}

/**
 * A declined card's reason: the acquirer's `acquirer_return_code` (ABECS codes since Pagar.me's switch, so the
 * gateway's categories read them), else the refusal's text where no code came (the gateway's error, the acquirer's
 * message). Its text: the acquirer's `acquirer_message` that goes with the code, else the gateway's error.
 */
export function ordersApiCardDecline(
  status: TransactionStatus,
  transaction: OrdersApiLastTransaction,
): Pick<TransactionResult, 'declineReason' | 'declineMessage'> {
  if (status !== 'REJECTED') return {};
  const reason = transaction.acquirer_return_code ?? refusalText(transaction);
  if (!reason) return {};
  const message = transaction.acquirer_message ?? refusalText(transaction);
  return { declineReason: reason, ...(message ? { declineMessage: message } : {}) };
}

/**
 * What the provider took of a charge, in cents, from its receivables: the `fee` and `fraud_coverage_fee` of its credit
 * payables (one per installment), those of `recipientId` where the account names its recipient (a split's other
 * recipients pay their own). Anticipation fees are not the charge's: they follow a later choice to be paid early.
 * No credit payable yet, or a negative fee: none.
 */
export function ordersApiChargeFee(payables: OrdersApiPayables, recipientId?: string): number | undefined {
  const credits = payables.data.filter((payable) => payable.type === 'credit' && (!recipientId || payable.recipient_id === recipientId));
  const fees = credits.flatMap((payable) => [payable.fee ?? 0, payable.fraud_coverage_fee ?? 0]);
  if (!credits.length || fees.some((fee) => fee < 0)) return undefined;
  return fees.reduce((sum, fee) => sum + fee, 0);
}

/** How a recipient answer is read: the provider's id, its status table, and the balance (cents) to report. */
export interface OrdersApiRecipientReading {
  provider: string;
  status: (value: unknown) => ReceiverStatus;
  balance: number;
}

/** A recipient → our receiver; what the answer leaves out is what was asked for (creation). */
export function fromOrdersApiRecipient(recipient: OrdersApiRecipient, reading: OrdersApiRecipientReading, input?: ReceiverInput): ReceiverResult {
  const document = digitsOnly(recipient.document ?? input?.document ?? '');
  return {
    receiverId: recipient.id,
    receiverProvider: reading.provider,
    name: recipient.name ?? input?.name ?? '',
    document,
    documentType: inferDocumentType(document),
    email: recipient.email ?? input?.email ?? '',
    status: reading.status(recipient.status),
    balance: reading.balance,
  };
}

/** The provider's reason for a charge that failed inside a 2xx answer. */
export function ordersApiFailureReason(order: OrdersApiOrder): string {
  const transaction = primaryCharge(order)?.last_transaction;
  return (transaction && refusalText(transaction)) ?? `order ${order.status}`;
}

/** The provider's words for a transaction that failed: the gateway's first error, else the acquirer's message. */
const refusalText = (transaction: OrdersApiLastTransaction): string | undefined =>
  transaction.gateway_response?.errors?.find((error) => error.message)?.message ?? transaction.acquirer_message;

/**
 * The refund's reference at Pagar.me, derived from the caller's idempotency
 * key and the charge: the same refund retried carries the same key (Pagar.me
 * answers a repeated Idempotency-Key with its first answer and acts once), and
 * never the key of another operation made with the same caller key (an order,
 * a payout), whose first answer Pagar.me would give back instead.
 */
export const ordersApiRefundKey = (idempotencyKey: string, chargeId: string): string =>
  `refund-${createHash('sha256').update(`refoundTransaction\n${chargeId}\n${idempotencyKey}`).digest('hex')}`;

/** DELETE /charges/{id}: the amount in cents, and the refund's reference where the caller gave a key. */
export const toOrdersApiCancel = (amount: number, reference?: string): OrdersApiCancelRequest => ({
  amount,
  ...(reference ? { operation_reference: reference } : {}),
});

/**
 * The charge answered by DELETE /charges/{id}, as one of the three answers a
 * refund can have (ORDERS_API_REFUND_OUTCOMES): done (the charge canceled, or
 * its last transaction a refund), in progress (a PIX refund `pending_refund`:
 * Pagar.me took it and carries it out later, so its cents stay reserved), or
 * refused (`error_on_refunding`). Never "nothing happened" for an answer the
 * provider gave with 2xx: a transaction status the table does not know is in
 * progress, to be confirmed, not released.
 */
export function fromOrdersApiRefund(charge: OrdersApiCharge): RefundResult {
  const refundId = charge.last_transaction?.id ?? charge.id;
  const outcome = charge.status.toLowerCase() === 'canceled' ? 'done' : lookupStatus(ORDERS_API_REFUND_OUTCOMES, charge.last_transaction?.status);
  if (outcome === 'done') return { refundId, status: true };
  if (outcome === 'refused') return { refundId, status: false };
  return { refundId, status: true, pending: true };
}

export function fromOrdersApiWithdrawal(withdrawal: OrdersApiWithdrawal, status: (value: unknown) => WithdrawStatus): WithdrawResult {
  const mapped = status(withdrawal.status);
  return {
    withdrawId: withdrawal.id,
    amount: withdrawal.amount ?? 0,
    status: mapped,
    approvedAt: mapped === 'APPROVED' ? dateOf(withdrawal.updated_at) : undefined,
  };
}

/**
 * The field errors of a 4xx body: `{ message: 'The request is invalid.',
 * errors: { 'order.customer.name': ['The name field is required.'] } }` →
 * 'order.customer.name: The name field is required.'
 */
export function ordersApiFieldErrors(body: unknown): string | undefined {
  const parsed = ORDERS_API_ERROR.safeParse(body);
  const errors = parsed.success ? Object.entries(parsed.data.errors ?? {}) : [];
  const parts = errors.map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(' ') : messages}`);
  return parts.length ? parts.join('; ') : undefined;
}

/** The body of a provider's HTTP failure (its 4xx or 5xx answer), if the failure has one. */
export const ordersApiErrorBody = (error: unknown): unknown => (axios.isAxiosError(error) ? error.response?.data : undefined);

/** A failure with the field errors of the 4xx body behind it added: 'prefix: message (field: error)'. */
export function withFieldErrors(failure: GatewayError, error: unknown): GatewayError {
  const fields = ordersApiFieldErrors(ordersApiErrorBody(error));
  return fields && !failure.message.includes(fields) ? new GatewayError(failure.code, `${failure.message} (${fields})`, failure.details) : failure;
}

/** providerError (code from the HTTP outcome, the provider's message under the prefix) plus the field errors. */
export const ordersApiError = (prefix: string, error: unknown): GatewayError => withFieldErrors(providerError(prefix, error), error);
