import type { CardInput, Item, PaymentMethod, RefundResult, TransactionInput, TransactionResult, TransactionStatus } from '../../../domain/types.js';
import { cardDigits, fourDigitYear } from '../../../lib/card.js';
import { digitsOnly } from '../../../lib/documents.js';
import { brazilDate } from '../../../lib/expiry.js';
import { isRecord } from '../../../lib/json.js';
import { paymentMethodCodec } from '../../../lib/paymentMethods.js';
import { splitPhone } from '../../../lib/phone.js';
import { dateOf, idText, textOf } from '../../../lib/values.js';
import type {
  IuguChargeAnswer,
  IuguChargeRequest,
  IuguInvoice,
  IuguInvoiceRequest,
  IuguItem,
  IuguPayableWith,
  IuguPayer,
  IuguPaymentTokenRequest,
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

/** POST /charge (doc 2 §7): the card token pays the invoice in `months` instalments (default 1). */
export const toIuguCharge = (invoiceId: string, input: Pick<TransactionInput, 'cardId' | 'installments'>): IuguChargeRequest => ({
  token: input.cardId ?? '',
  months: input.installments || 1,
  invoice_id: invoiceId,
});

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
 * Iugu's error answers: `errors` as a text ('Not Found') or as field →
 * messages ({"email": ["não é válido"]}), which the common reader does not
 * know; `message` beside them where the answer has one.
 */
export function iuguErrorText(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const { errors } = body;
  if (typeof errors === 'string') return textOf(errors);
  if (Array.isArray(errors)) return textOf(errors.filter((entry) => typeof entry === 'string').join('; '));
  if (isRecord(errors)) {
    const fields = Object.entries(errors).map(([field, messages]) => `${field}: ${Array.isArray(messages) ? messages.join(', ') : String(messages)}`);
    return textOf(fields.join('; '));
  }
  return undefined;
}

/** What a response mapper needs of the member. */
export interface InvoiceReading {
  amount: (value: unknown) => number;
  status: (value: unknown) => TransactionStatus;
  /** What we asked for, where the answer leaves it out (create). */
  requested?: { paymentMethod: PaymentMethod; amount: number; dueDate: string };
}

function methodOf(invoice: IuguInvoice, requested: PaymentMethod | undefined): PaymentMethod {
  const paidWith = IUGU_METHODS.fromProvider(invoice.payment_method);
  if (paidWith) return paidWith;
  const offered = (Array.isArray(invoice.payable_with) ? invoice.payable_with : String(invoice.payable_with ?? '').split(','))
    .map((name) => IUGU_METHODS.fromProvider(name))
    .filter((method) => method !== undefined);
  if (offered.length === 1) return offered[0]!;
  return requested ?? (textOf(invoice.pix?.qrcode_text) ? 'PIX' : textOf(invoice.bank_slip?.digitable_line) ? 'BILLET' : 'CREDIT_CARD');
}

/**
 * An invoice → our result, without the QR image. Undefined without an id or a
 * status: the operation turns that into an error, never a status. PIX and
 * boleto expire with their due date.
 */
export function fromIuguInvoice(body: unknown, reading: InvoiceReading): TransactionResult | undefined {
  if (!isRecord(body)) return undefined;
  const invoice = body as IuguInvoice;
  const transactionId = idText(invoice.id);
  const status = textOf(invoice.status);
  if (!transactionId || !status) return undefined;
  const paymentMethod = methodOf(invoice, reading.requested?.paymentMethod);
  const amount = invoice.total_cents !== undefined && invoice.total_cents !== null ? reading.amount(invoice.total_cents) : (reading.requested?.amount ?? 0);
  const result: TransactionResult = { paymentMethod, transactionId, status: reading.status(status), amount };
  const expiresAt = endOfDueDate(invoice.due_date ?? reading.requested?.dueDate);
  if (paymentMethod === 'PIX') {
    const pixCode = textOf(invoice.pix?.qrcode_text);
    if (pixCode) result.pixCode = pixCode;
    if (expiresAt) result.expiresAt = expiresAt;
  }
  if (paymentMethod === 'BILLET') {
    const billetCode = textOf(invoice.bank_slip?.digitable_line);
    const billetUrl = textOf(invoice.bank_slip?.bank_slip_pdf_url) ?? textOf(invoice.bank_slip?.bank_slip_url) ?? textOf(invoice.secure_url);
    if (billetCode) result.billetCode = billetCode;
    if (billetUrl) result.billetUrl = billetUrl;
    if (expiresAt) result.expiresAt = expiresAt;
  }
  return result;
}

/** A card charge's outcome: charged (true), declined (false), or no outcome in the answer (undefined: an error). */
export const iuguChargeSucceeded = (body: unknown): boolean | undefined =>
  isRecord(body) && typeof (body as IuguChargeAnswer).success === 'boolean' ? (body as IuguChargeAnswer).success : undefined;

/**
 * The refund's answer is the invoice: Iugu took the refund (partial or whole).
 * Iugu gives a refund no id of its own, so the invoice's stands for it.
 * Undefined when no invoice came back: never "refunded".
 */
export function fromIuguRefund(body: unknown): RefundResult | undefined {
  const invoiceId = isRecord(body) && !iuguErrorText(body) ? idText(body.id) : undefined;
  return invoiceId ? { refundId: invoiceId, status: true } : undefined;
}
