import type {
  CardInput,
  PaymentMethod,
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../../domain/types.js';
import { cardDigits, fourDigitYear } from '../../../lib/card.js';
import { digitsOnly, inferDocumentType } from '../../../lib/documents.js';
import { expiresAfter, wholeDays } from '../../../lib/expiry.js';
import { paymentMethodCodec } from '../../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../../lib/phone.js';
import { normalizePixKey, pixKeyTypeName } from '../../../lib/pixKey.js';
import { invalidArgument } from '../../../lib/errors.js';
import type {
  ApiCardSaveRequest,
  ApiCardTokenRequest,
  ApiCashoutRequest,
  ApiCreatedTransaction,
  ApiCustomer,
  ApiItem,
  ApiPaymentMethod,
  ApiRefund,
  ApiRefundRequest,
  ApiTransactionRequest,
  ApiWithdrawal,
  ApiWithdrawalRequest,
} from './wire.js';
import { orderItems } from '../../kit/orderItems.js';

/**
 * Pure mappers of the dialect: our input → their body, their parsed answer
 * (wire.ts) → our result. No HTTP, no clock, no logger, no reading of raw bodies.
 */

export const API_PAYMENT_METHODS = paymentMethodCodec<PaymentMethod, ApiPaymentMethod>(
  { PIX: 'pix', BILLET: 'boleto', CREDIT_CARD: 'credit_card' },
  { billet: 'BILLET', card: 'CREDIT_CARD' },
);

/** What a request mapper needs of the member. */
export interface RequestTerms {
  /** Our integer cents → the member's unit. */
  amount: (cents: number) => number;
  pixSeconds: number;
  boletoSeconds: number;
  /** The gateway's sidecar address for this account. */
  notificationUrl: string;
}

/**
 * Our transaction → the POST body. One item covering the amount is sent when
 * the caller gives none (these APIs require items). The postback URL is always
 * the gateway's sidecar: the caller's webhookUrl is served by the gateway's
 * own outbound deliveries.
 */
export function toApiTransaction(input: TransactionInput, terms: RequestTerms): ApiTransactionRequest {
  const { amount } = terms;
  const items = toApiItems(input, amount);
  return {
    amount: amount(input.amount),
    paymentMethod: API_PAYMENT_METHODS.toProvider(input.paymentMethod),
    ...(input.paymentMethod === 'CREDIT_CARD' ? { installments: input.installments || 1, card: toApiCard(input) } : {}),
    ...(input.paymentMethod === 'PIX' ? { pix: { expiresInDays: wholeDays(terms.pixSeconds) } } : {}),
    ...(input.paymentMethod === 'BILLET' ? { boleto: { expiresInDays: wholeDays(terms.boletoSeconds) } } : {}),
    ...(input.customer ? { customer: toApiCustomer(input) } : {}),
    items,
    ...(input.splits.length
      ? {
          splits: input.splits.map((split) => ({
            recipientId: split.recipientId,
            type: split.type === 'FIXED' ? ('fixed' as const) : ('percentage' as const),
            amount: split.type === 'FIXED' ? amount(split.amount) : split.amount,
            chargeProcessingFee: split.chargeProcessingFee,
            chargeRemainder: split.chargeRemainder,
            liable: split.liable,
          })),
        }
      : {}),
    postbackUrl: terms.notificationUrl,
    ...(input.orderId ? { externalRef: input.orderId } : {}),
    ...(input.description ? { description: input.description } : {}),
    ...(input.customerIp ? { ip: input.customerIp } : {}),
    currency: input.currency || 'BRL',
  };
}

/**
 * The charge's card: its own fields where the gateway opened its card token for this call (the card body of doc 1
 * §7), else the caller's card id. The gateway's token itself is never sent.
 */
const toApiCard = (input: Pick<TransactionInput, 'card' | 'cardId'>): ApiTransactionRequest['card'] =>
  input.card ? toApiCardToken(input.card) : { id: input.cardId };

/** The caller's items in the member's unit; one item covering the amount when the caller gives none (these APIs require items). */
/** The family's items: the kit's order items (kit/orderItems.ts), the family's field names being the same. */
export function toApiItems(input: Pick<TransactionInput, 'items' | 'description' | 'amount'>, amount: RequestTerms['amount']): ApiItem[] {
  return orderItems(input, amount);
}

export function toApiCustomer(input: Pick<TransactionInput, 'customer' | 'address'>): ApiCustomer {
  const customer = input.customer!;
  const address = input.address;
  return {
    name: customer.name,
    email: customer.email,
    phone: nationalPhoneDigits(customer.phone),
    document: { number: digitsOnly(customer.document), type: inferDocumentType(customer.document).toLowerCase() },
    ...(address
      ? {
          address: {
            street: address.address,
            streetNumber: address.number,
            neighborhood: address.district,
            city: address.city,
            state: address.state,
            zipCode: digitsOnly(address.zipCode),
            country: 'BR' as const,
          },
        }
      : {}),
  };
}

/** The refund body: the amount to give back, in the member's unit (spec doc 1 §7: "POST /transactions/{id}/refund (amount)"). */
export const toApiRefund = (amountCents: number, amount: RequestTerms['amount']): ApiRefundRequest => ({ amount: amount(amountCents) });

/** A payout to a PIX key; keys normalised per type (digits for CPF/CNPJ/PHONE, as the spec's common rule says). */
export function toApiWithdrawal(input: WithdrawInput, terms: Pick<RequestTerms, 'amount' | 'notificationUrl'>): ApiWithdrawalRequest {
  return {
    amount: terms.amount(input.amount),
    pixKey: input.pixType ? normalizePixKey(input.pixKey ?? '', input.pixType) : (input.pixKey ?? '').trim(),
    pixKeyType: (input.pixType ?? '').toLowerCase(),
    ...(input.description ? { description: input.description } : {}),
    ...(input.withdrawReference ? { externalRef: input.withdrawReference } : {}),
    postbackUrl: terms.notificationUrl,
  };
}

/**
 * The F2 platform's payout (platforms/f2.ts): field names in lower case, the
 * key's type named in upper case as the platform's page shows it ("CPF"; a
 * random key "EVP"), the amount in cents, isPix. A key without a type is
 * refused, never guessed.
 */
export function toApiCashout(input: WithdrawInput, notificationUrl: string): ApiCashoutRequest {
  if (!input.pixType) throw invalidArgument('withdraw.pix_type', 'withdraw.pix_type is required for PIX withdrawals', 'REQUIRED');
  return {
    pixkeytype: pixKeyTypeName(input.pixType, { randomAs: 'EVP' }),
    pixkey: normalizePixKey(input.pixKey ?? '', input.pixType),
    requestedamount: input.amount,
    ...(input.description ? { description: input.description } : {}),
    isPix: true,
    postbackUrl: notificationUrl,
  };
}

export const toApiCardToken = (card: CardInput): ApiCardTokenRequest => ({
  number: cardDigits(card.cardNumber),
  holderName: card.holderName,
  ...(card.holderDocument ? { holderDocument: digitsOnly(card.holderDocument) } : {}),
  expirationMonth: Number(card.expMonth),
  expirationYear: Number(fourDigitYear(card.expYear)),
  // A card the gateway saved has no CVV (none is kept): the field is left out, as for a stored card's charge.
  ...(card.cvv ? { cvv: card.cvv } : {}),
});

/** What a response mapper needs of the member. */
export interface ResponseTerms {
  /** The member's table; a status the answer leaves out (a created charge of `createdStatus`) is never read. */
  status: (value: string | undefined) => TransactionStatus;
  pixSeconds: number;
  boletoSeconds: number;
  /** When the charge was asked for: the base of the fallback expiry when the provider omits it. */
  now: Date;
  /** What we asked for, used where the answer leaves a field out (create). */
  requested?: { paymentMethod: PaymentMethod; amount: number };
  /** The status a new charge starts with whatever the answer says (the member's `pendingAtCreation`); the answer then needs only an id. */
  createdStatus?: TransactionStatus;
  /** The member's read says how much of the charge was refunded (its platform documents `refundedAmount`): it is passed on. */
  refundedAmount?: boolean;
}

/** The provider's transaction (parsed: its money already cents) → our result, without the QR image. */
export function fromApiTransaction(transaction: ApiCreatedTransaction, terms: ResponseTerms): TransactionResult {
  const paymentMethod =
    API_PAYMENT_METHODS.fromProvider(transaction.paymentMethod) ??
    terms.requested?.paymentMethod ??
    (transaction.pix ? 'PIX' : transaction.boleto ? 'BILLET' : 'CREDIT_CARD');
  const amount = transaction.amount ?? terms.requested?.amount ?? 0;
  const result: TransactionResult = {
    paymentMethod,
    transactionId: transaction.id,
    status: terms.createdStatus ?? terms.status(transaction.status),
    amount,
  };
  if (terms.refundedAmount && transaction.refundedAmount !== undefined) result.providerRefundedAmount = transaction.refundedAmount;
  if (paymentMethod === 'PIX') {
    result.pixCode = transaction.pix?.qrcode;
    result.expiresAt = transaction.pix?.expirationDate ?? expiresAfter(terms.now, terms.pixSeconds);
  }
  if (paymentMethod === 'BILLET') {
    result.billetCode = transaction.boleto?.digitableLine ?? transaction.boleto?.barcode;
    result.billetUrl = transaction.boleto?.url;
    result.expiresAt = transaction.boleto?.expirationDate ?? transaction.boleto?.dueDate ?? expiresAfter(terms.now, terms.boletoSeconds);
  }
  // The F1 platform's refusedReason is a text with no code: it is both the reason (read as `other`) and the text.
  if (paymentMethod === 'CREDIT_CARD' && result.status === 'REJECTED' && transaction.refusedReason) {
    result.declineReason = transaction.refusedReason;
    result.declineMessage = transaction.refusedReason;
  }
  return result;
}

/**
 * Statuses of a refund answer that say the refund was refused. Not the
 * member's transaction table: there 'refunded' may be REJECTED (VENITIP's
 * charge table), while a refund answered 'refunded' is a refund made.
 */
export const REFUND_REFUSED: ReadonlySet<string> = new Set(['refused', 'rejected', 'failed', 'declined', 'denied', 'error']);

/**
 * A refund answer → our result. A 2xx answer is a refund the provider took,
 * unless its status is a refusal (REFUND_REFUSED: a refusal in a 2xx body).
 * The refund id is the newest entry of `refunds`, else the body's id, else the
 * transaction's.
 */
export function fromApiRefund(answer: ApiRefund, transactionId: string): RefundResult {
  const refundId = answer.refunds?.at(-1)?.id ?? answer.id ?? transactionId;
  return { refundId, status: !(answer.status && REFUND_REFUSED.has(answer.status.toLowerCase())) };
}

/** A payout answer (its money already cents) → our result; absent, the amount asked for. */
export function fromApiWithdrawal(withdrawal: ApiWithdrawal, terms: { status: (value: string) => WithdrawStatus; requestedAmount?: number }): WithdrawResult {
  return { withdrawId: withdrawal.id, amount: withdrawal.amount ?? terms.requestedAmount ?? 0, status: terms.status(withdrawal.status) };
}

/** The body saving a card from its token (POST /cards). */
export const toApiCardSave = (token: string): ApiCardSaveRequest => ({ token });
