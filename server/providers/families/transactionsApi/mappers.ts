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
import { isRecord } from '../../../lib/json.js';
import { paymentMethodCodec } from '../../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../../lib/phone.js';
import { normalizePixKey } from '../../../lib/pixKey.js';
import { dateOf, idText, textOf } from '../../../lib/values.js';
import type {
  ApiCardSaveRequest,
  ApiCardTokenRequest,
  ApiCashoutRequest,
  ApiCustomer,
  ApiItem,
  ApiPaymentMethod,
  ApiTransaction,
  ApiTransactionRequest,
  ApiWithdrawal,
  ApiWithdrawalRequest,
} from './wire.js';

/** Pure mappers of the dialect: our input → their body, their body → our result. No HTTP, no clock, no logger. */

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
    ...(input.paymentMethod === 'CREDIT_CARD' ? { installments: input.installments || 1, card: { id: input.cardId } } : {}),
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

/** The caller's items in the member's unit; one item covering the amount when the caller gives none (these APIs require items). */
export function toApiItems(input: Pick<TransactionInput, 'items' | 'description' | 'amount'>, amount: RequestTerms['amount']): ApiItem[] {
  return input.items.length
    ? input.items.map((item) => ({
        externalRef: item.id,
        title: item.title,
        unitPrice: amount(item.unitPrice),
        quantity: item.quantity,
        tangible: item.tangible,
      }))
    : [{ title: input.description || 'Pedido', unitPrice: amount(input.amount), quantity: 1, tangible: false }];
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
export const toApiRefund = (amountCents: number, amount: RequestTerms['amount']) => ({ amount: amount(amountCents) });

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

/** The F2 platforms' payout: key type and key in lower-case field names, the amount in cents, isPix. */
export function toApiCashout(input: WithdrawInput, notificationUrl: string): ApiCashoutRequest {
  return {
    pixkeytype: (input.pixType ?? '').toLowerCase(),
    pixkey: input.pixType ? normalizePixKey(input.pixKey ?? '', input.pixType) : (input.pixKey ?? '').trim(),
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
  cvv: card.cvv,
});

/** The object, whether the member answers it bare or inside `{ data: … }`. */
export function unwrap<T extends { id?: unknown; data?: T }>(body: unknown): T {
  if (!isRecord(body)) return {} as T;
  const object = body as T;
  return object.id === undefined && isRecord(object.data) ? (object.data as T) : object;
}

/** What a response mapper needs of the member. */
export interface ResponseTerms {
  /** The member's unit → our integer cents. */
  amount: (value: unknown) => number;
  status: (value: unknown) => TransactionStatus;
  pixSeconds: number;
  boletoSeconds: number;
  /** When the charge was asked for: the base of the fallback expiry when the provider omits it. */
  now: Date;
  /** What we asked for, used where the answer leaves a field out (create). */
  requested?: { paymentMethod: PaymentMethod; amount: number };
  /** The status a new charge starts with whatever the answer says (the member's `pendingAtCreation`); the answer then needs only an id. */
  createdStatus?: TransactionStatus;
}

/**
 * The provider's transaction → our result, without the QR image. Undefined
 * when the body has no transaction id or status: the operation turns that into
 * an error carrying the provider's message (a failure inside a 2xx body).
 */
export function fromApiTransaction(body: unknown, terms: ResponseTerms): TransactionResult | undefined {
  const transaction = unwrap<ApiTransaction>(body);
  const transactionId = idText(transaction.id);
  const status = textOf(transaction.status);
  if (!transactionId || (!status && !terms.createdStatus)) return undefined;
  const paymentMethod =
    API_PAYMENT_METHODS.fromProvider(transaction.paymentMethod) ??
    terms.requested?.paymentMethod ??
    (transaction.pix ? 'PIX' : transaction.boleto ? 'BILLET' : 'CREDIT_CARD');
  const amount = transaction.amount !== undefined && transaction.amount !== null ? terms.amount(transaction.amount) : (terms.requested?.amount ?? 0);
  const result: TransactionResult = { paymentMethod, transactionId, status: terms.createdStatus ?? terms.status(status), amount };
  if (paymentMethod === 'PIX') {
    result.pixCode = transaction.pix?.qrcode || undefined;
    result.expiresAt = dateOf(transaction.pix?.expirationDate) ?? expiresAfter(terms.now, terms.pixSeconds);
  }
  if (paymentMethod === 'BILLET') {
    result.billetCode = transaction.boleto?.digitableLine || transaction.boleto?.barcode || undefined;
    result.billetUrl = transaction.boleto?.url || undefined;
    result.expiresAt = dateOf(transaction.boleto?.expirationDate ?? transaction.boleto?.dueDate) ?? expiresAfter(terms.now, terms.boletoSeconds);
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
 * A refund answer → our result; undefined when the answer says nothing about
 * the refund (no status, id or refund list: an outage, never "ok"). A 2xx
 * answer is a refund the provider took, unless its status is a refusal
 * (REFUND_REFUSED: a refusal in a 2xx body). The refund id is the newest entry
 * of `refunds`, else the body's id, else the transaction's.
 */
export function fromApiRefund(body: unknown, transactionId: string): RefundResult | undefined {
  const answer = unwrap<ApiTransaction>(body);
  const refunds = Array.isArray(answer.refunds) ? answer.refunds : [];
  const statusText = textOf(answer.status);
  if (!statusText && idText(answer.id) === undefined && refunds.length === 0) return undefined;
  const refundId = idText(refunds.at(-1)?.id) ?? idText(answer.id) ?? transactionId;
  return { refundId, status: !(statusText && REFUND_REFUSED.has(statusText.toLowerCase())) };
}

/** A payout answer → our result; undefined without an id and a status. */
export function fromApiWithdrawal(
  body: unknown,
  terms: { amount: ResponseTerms['amount']; status: (value: unknown) => WithdrawStatus; requestedAmount?: number },
): WithdrawResult | undefined {
  const withdrawal = unwrap<ApiWithdrawal>(body);
  const withdrawId = idText(withdrawal.id);
  const status = textOf(withdrawal.status);
  if (!withdrawId || !status) return undefined;
  const amount = withdrawal.amount !== undefined && withdrawal.amount !== null ? terms.amount(withdrawal.amount) : (terms.requestedAmount ?? 0);
  return { withdrawId, amount, status: terms.status(status) };
}

/** The token of a POST /card-token answer: `id` or `token`. */
export function fromApiCardToken(body: unknown): string | undefined {
  const answer = unwrap<{ id?: unknown; token?: unknown; data?: never }>(body);
  return idText(answer.id) ?? idText(answer.token);
}

/** The body saving a card from its token (POST /cards). */
export const toApiCardSave = (token: string): ApiCardSaveRequest => ({ token });

/** The saved card's id of a POST /cards answer (`id`, bare or under `data`): the card id charges send. */
export function fromApiSavedCard(body: unknown): string | undefined {
  return idText(unwrap<{ id?: unknown; data?: never }>(body).id);
}
