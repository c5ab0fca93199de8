import { createHash } from 'node:crypto';
import type { CardInput, Item, PaymentMethod, RefundResult, TransactionInput, TransactionResult, TransactionStatus } from '../../../domain/types.js';
import { cardDigits, fourDigitYear } from '../../../lib/card.js';
import { digitsOnly } from '../../../lib/documents.js';
import { redactText } from '../../../lib/http/index.js';
import { brazilDate } from '../../../lib/expiry.js';
import { paymentMethodCodec } from '../../../lib/paymentMethods.js';
import { providerFailure, withPrefix } from '../../../lib/providerMessages.js';
import { GatewayError } from '../../../lib/errors.js';
import { splitPhone } from '../../../lib/phone.js';
import { dateOf } from '../../../lib/values.js';
import type {
  IuguAnswer,
  IuguCharge,
  IuguChargeRequest,
  IuguInvoice,
  IuguInvoiceRequest,
  IuguItem,
  IuguPayableWith,
  IuguPayer,
  IuguPaymentTokenRequest,
  IuguRefundRequest,
  IuguRefusal,
} from './wire.js';

/** Pure mappers of the dialect: our input → their body, their body → our result. No HTTP, no clock, no logger. */

/** Our methods as `payable_with`, and back; how an invoice was paid ('iugu_pix', …) reads the same. */
export const IUGU_METHODS = paymentMethodCodec<PaymentMethod, IuguPayableWith>(
  { PIX: 'pix', BILLET: 'bank_slip', CREDIT_CARD: 'credit_card' },
  { iugu_pix: 'PIX', iugu_bank_slip: 'BILLET', iugu_credit_card: 'CREDIT_CARD' },
);

// ---------------------------------------------------------------- due dates

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** The invoice's `due_date`: the day in Brasília on which the validity from `now` ends (Iugu dates invoices by the day). */
export const iuguDueDate = (now: Date, seconds: number): string => brazilDate(new Date(now.getTime() + seconds * 1_000));

/** The end of a `due_date` (23:59:59 in Brasília), when the invoice stops being payable; an ISO date-time as it is. */
export const endOfDueDate = (value: unknown): Date | undefined =>
  typeof value === 'string' && DATE_ONLY.test(value.trim()) ? new Date(`${value.trim()}T23:59:59-03:00`) : dateOf(value);

// ---------------------------------------------------------------- request mappers

const itemsTotal = (items: readonly Item[]): number => items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);

/**
 * An invoice's total is the sum of its items: the caller's items are sent when
 * they add up to the amount; otherwise (none, or another total) one item of
 * the whole amount, so the payer is never asked for a different sum.
 */
export function toIuguItems(input: Pick<TransactionInput, 'amount' | 'items' | 'description'>): IuguItem[] {
  if (input.items.length && itemsTotal(input.items) === input.amount)
    return input.items.map((item) => ({ description: item.title, quantity: item.quantity, price_cents: item.unitPrice }));
  const description = input.description || input.items.map((item) => item.title).join(', ') || 'Pedido';
  return [{ description, quantity: 1, price_cents: input.amount }];
}

export function toIuguPayer(input: Pick<TransactionInput, 'customer' | 'address'>): IuguPayer | undefined {
  const { customer, address } = input;
  if (!customer) return undefined;
  const phone = customer.phone ? splitPhone(customer.phone) : undefined;
  return {
    cpf_cnpj: digitsOnly(customer.document),
    name: customer.name,
    ...(customer.email ? { email: customer.email } : {}),
    ...(phone ? { phone_prefix: phone.areaCode, phone: phone.number } : {}),
    ...(address
      ? {
          address: {
            zip_code: digitsOnly(address.zipCode),
            street: address.address,
            number: address.number,
            district: address.district,
            city: address.city,
            state: address.state,
            country: 'Brasil' as const,
          },
        }
      : {}),
  };
}

/** What the invoice mapper needs besides the input. */
export interface InvoiceTerms {
  /** When the charge is asked for, and its validity in seconds (PIX or boleto; a card's is the PIX one). */
  now: Date;
  validitySeconds: number;
  notificationUrl: string;
}

/**
 * Our charge → POST /invoices (doc 2 §7). The payer returns to the checkout
 * (`return_url`, the caller's checkout or referrer page); Iugu notifies the
 * sidecar for this invoice (`notification_url`).
 */
export function toIuguInvoice(input: TransactionInput, terms: InvoiceTerms): IuguInvoiceRequest {
  const payer = toIuguPayer(input);
  const returnUrl = input.checkoutUrl || input.referrerUrl;
  return {
    email: input.customer?.email ?? '',
    due_date: iuguDueDate(terms.now, terms.validitySeconds),
    items: toIuguItems(input),
    payable_with: IUGU_METHODS.toProvider(input.paymentMethod),
    ...(payer ? { payer } : {}),
    ...(returnUrl ? { return_url: returnUrl } : {}),
    notification_url: terms.notificationUrl,
  };
}

/**
 * A declined card charge's reason (POST /charge answering `success: false`): its `LR`, the acquirer's ABECS return
 * code (dev.iugu.com "Tabela de LRs"), which the gateway's categories read; else Iugu's `message` where no code came.
 * The `message` (Cobrança Direta's response, beside `LR`) is the decline's text.
 */
export function iuguChargeDecline(charge: Pick<IuguCharge, 'success' | 'LR' | 'message'>): Pick<TransactionResult, 'declineReason' | 'declineMessage'> {
  if (charge.success) return {};
  const reason = charge.LR ?? charge.message;
  if (!reason) return {};
  return { declineReason: reason, ...(charge.message ? { declineMessage: charge.message } : {}) };
}

/** POST /charge (doc 2 §7): the card token pays the invoice in `months` instalments (default 1). */
export const toIuguCharge = (invoiceId: string, input: Pick<TransactionInput, 'cardId' | 'installments'>): IuguChargeRequest => ({
  token: input.cardId ?? '',
  months: input.installments || 1,
  invoice_id: invoiceId,
});

/**
 * Iugu takes an Idempotency-Key on Criar Fatura and Cobrança Direta, valid
 * for 24 hours (dev.iugu.com, Chave de Idempotência): the invoice carries the
 * caller's key; its card charge one derived from that key and the invoice,
 * so the two calls never share a key and a resent charge is recognised.
 */
export const iuguChargeKey = (idempotencyKey: string, invoiceId: string): string =>
  `charge-${createHash('sha256').update(`charge\n${invoiceId}\n${idempotencyKey}`).digest('hex')}`;

/** POST /payment_token: the holder's first name, then the rest as the last name. */
export function toIuguPaymentToken(card: CardInput, accountId: string): IuguPaymentTokenRequest {
  const [firstName = '', ...rest] = card.holderName.trim().split(/\s+/);
  return {
    account_id: accountId,
    method: 'credit_card',
    data: {
      number: cardDigits(card.cardNumber),
      verification_value: card.cvv,
      first_name: firstName,
      last_name: rest.join(' '),
      month: card.expMonth.trim().padStart(2, '0'),
      year: fourDigitYear(card.expYear),
    },
  };
}

// ---------------------------------------------------------------- response mappers

/**
 * Iugu's errors as one text: a text ('Not Found') as it is, a list joined,
 * field → messages ({"email": ["não é válido"]}) as 'email: não é válido'.
 */
export function iuguErrorText(errors: IuguRefusal['errors']): string {
  const text =
    typeof errors === 'string'
      ? errors
      : Array.isArray(errors)
        ? errors.filter((entry) => entry.trim()).join('; ')
        : Object.entries(errors)
            .map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(', ') : messages}`)
            .join('; ');
  // An error may echo what was sent (a card number): never into a message.
  return redactText(text.trim());
}

/** The resource of an answer, or Iugu's refusal thrown as the provider's failure (INVALID_ARGUMENT, its text under the prefix). */
export function acceptedAnswer<T>(answer: IuguAnswer<T>, prefix: string): T {
  if (!answer.refused) return answer.resource;
  throw providerFailure(prefix, iuguErrorText(answer.errors), 'INVALID_ARGUMENT');
}

/** What a response mapper needs of the member. */
export interface InvoiceReading {
  amount: (value: number) => number;
  status: (value: string) => TransactionStatus;
  /** What we asked for, where the answer leaves it out (create). */
  requested?: { paymentMethod: PaymentMethod; amount: number; dueDate: string };
}

/** How an invoice was paid ('iugu_pix', …), else what it may be paid with when that is one method. */
export function iuguInvoiceMethod(invoice: Pick<IuguInvoice, 'payment_method' | 'payable_with'>): PaymentMethod | undefined {
  const paidWith = IUGU_METHODS.fromProvider(invoice.payment_method);
  if (paidWith) return paidWith;
  const offered = (Array.isArray(invoice.payable_with) ? invoice.payable_with : (invoice.payable_with ?? '').split(','))
    .map((name) => IUGU_METHODS.fromProvider(name))
    .filter((method) => method !== undefined);
  return offered.length === 1 ? offered[0] : undefined;
}

function methodOf(invoice: IuguInvoice, requested: PaymentMethod | undefined): PaymentMethod {
  return iuguInvoiceMethod(invoice) ?? requested ?? (invoice.pix?.qrcode_text ? 'PIX' : invoice.bank_slip?.digitable_line ? 'BILLET' : 'CREDIT_CARD');
}

/** An invoice → our result, without the QR image. PIX and boleto expire with their due date. */
export function fromIuguInvoice(invoice: IuguInvoice, reading: InvoiceReading): TransactionResult {
  const paymentMethod = methodOf(invoice, reading.requested?.paymentMethod);
  const amount = invoice.total_cents !== undefined ? reading.amount(invoice.total_cents) : (reading.requested?.amount ?? 0);
  const result: TransactionResult = { paymentMethod, transactionId: invoice.id, status: reading.status(invoice.status), amount };
  const expiresAt = endOfDueDate(invoice.due_date ?? reading.requested?.dueDate);
  if (paymentMethod === 'PIX') {
    const pixCode = invoice.pix?.qrcode_text;
    if (pixCode) result.pixCode = pixCode;
    if (expiresAt) result.expiresAt = expiresAt;
  }
  if (paymentMethod === 'BILLET') {
    const billetCode = invoice.bank_slip?.digitable_line;
    const billetUrl = invoice.bank_slip?.bank_slip_pdf_url ?? invoice.bank_slip?.bank_slip_url ?? invoice.secure_url;
    if (billetCode) result.billetCode = billetCode;
    if (billetUrl) result.billetUrl = billetUrl;
    if (expiresAt) result.expiresAt = expiresAt;
  }
  return result;
}

/**
 * The refund asked of Iugu for `amount` cents of `invoice`, by its rules
 * (Reembolsar Faturas por API: "Cartão de Crédito: parcial ✅; Pix: parcial
 * ❌; Boleto Bancário: ❌"; Reembolso [PIX]: "o valor do estorno precisa ser
 * integral, ou seja, não são permitidos reembolsos parciais"): the whole
 * invoice with an empty body, part of a card invoice with
 * `partial_value_refund_cents`; or Iugu's refusal, known before anything is sent.
 */
export type IuguRefundPlan = { body: IuguRefundRequest } | { refusal: GatewayError };

export function planIuguRefund(invoice: IuguInvoice, amount: number, prefix: string): IuguRefundPlan {
  const method = iuguInvoiceMethod(invoice);
  const paid = invoice.paid_cents ?? invoice.total_cents;
  const refundable = paid === undefined ? undefined : paid - (invoice.refunded_cents ?? 0);
  const whole = refundable !== undefined && amount === refundable && !invoice.refunded_cents;
  const refused = (code: 'FAILED_PRECONDITION' | 'INVALID_ARGUMENT', why: string) => ({
    refusal: new GatewayError(code, withPrefix(prefix, why), {
      reason: 'PROVIDER_REFUND_RULE',
      outcome: 'failed',
      ...(code === 'INVALID_ARGUMENT' ? { field: 'amount' } : {}),
    }),
  });
  if (method === 'BILLET') return refused('FAILED_PRECONDITION', 'a iugu não reembolsa faturas pagas com boleto bancário');
  if (method === 'PIX' && !whole)
    return refused(
      'INVALID_ARGUMENT',
      `a iugu reembolsa faturas pagas com Pix apenas pelo valor integral${refundable === undefined ? '' : ` (${refundable} centavos)`}`,
    );
  return { body: whole ? {} : { partial_value_refund_cents: amount } };
}

/**
 * The refund's answer is the invoice: Iugu took the refund (partial or whole).
 * Iugu gives a refund no id of its own, so the invoice's stands for it.
 */
export const fromIuguRefund = (invoice: IuguInvoice): RefundResult => ({ refundId: invoice.id, status: true });
