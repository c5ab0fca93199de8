import type {
  PixKeyType,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../../domain/types.js';
import { digitsOnly } from '../../../lib/documents.js';
import { ProviderCallError } from '../../../lib/http/index.js';
import { isRecord } from '../../../lib/json.js';
import { normalizePixKey, type PixKeyStyle } from '../../../lib/pixKey.js';
import { dateOf, idText, textOf } from '../../../lib/values.js';
import type { Payment, PaymentAnswer, PaymentRequest, PixKeyTypeName, QrCode, QrCodeAnswer, QrCodeRequest } from './wire.js';

/** Pure mappers of the dialect: our input → their body, their body → our result (or a refusal). No HTTP, no clock, no logger. */

export function toQrCodeRequest(input: TransactionInput, terms: { valueCents: number; expirySeconds: number }): QrCodeRequest {
  const name = input.customer?.name?.trim();
  const document = digitsOnly(input.customer?.document ?? '');
  return {
    value_cents: terms.valueCents,
    ...(name ? { generator_name: name } : {}),
    ...(document ? { generator_document: document } : {}),
    expiration_time: terms.expirySeconds,
    ...(input.orderId ? { external_reference: input.orderId } : {}),
  };
}

/** Our key types → the platform's (a random key is a `token`). */
export const PIX_KEY_TYPE_NAMES: Readonly<Record<PixKeyType, PixKeyTypeName>> = { CPF: 'cpf', CNPJ: 'cnpj', EMAIL: 'email', PHONE: 'phone', RANDOM: 'token' };

export function toPaymentRequest(
  input: Pick<WithdrawInput, 'amount'> & { pixKey: string; pixType: PixKeyType },
  terms: { valueCents: number; idempotentId: string; style: PixKeyStyle },
): PaymentRequest {
  return {
    value_cents: terms.valueCents,
    initiation_type: 'dict',
    idempotent_id: terms.idempotentId,
    pix_key_type: PIX_KEY_TYPE_NAMES[input.pixType],
    pix_key: normalizePixKey(input.pixKey.trim(), input.pixType, terms.style),
    authorized: true,
  };
}

/** The QR code of an answer, wrapped in `qrcode` or bare. */
export function qrCodeOf(body: unknown): QrCode | undefined {
  if (!isRecord(body)) return undefined;
  const answer = body as QrCodeAnswer;
  return isRecord(answer.qrcode) ? answer.qrcode : answer;
}

/** The payout of an answer, wrapped in `payment` or bare. */
export function paymentOf(body: unknown): Payment | undefined {
  if (!isRecord(body)) return undefined;
  const answer = body as PaymentAnswer;
  return isRecord(answer.payment) ? answer.payment : answer;
}

export interface ResponseTerms<S> {
  status: (value: string) => S;
  /** value_cents → our cents; throws on what is not an amount. */
  amount: (value: unknown) => number;
  /** What we asked for, where the answer leaves it out. */
  requestedAmount?: number;
}

/**
 * An answer that is not the resource asked for. The response mappers refuse
 * with it and the adapter reads through the kit's `mapped`, which makes it
 * UNAVAILABLE under the operation's prefix (the outcome unknown): never a status.
 */
export function notTheResource(what: string): never {
  throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `resposta do provedor sem ${what}`);
}

function amountOf(value: unknown, terms: ResponseTerms<unknown>): number {
  if (value === undefined || value === null) return terms.requestedAmount ?? 0;
  try {
    return terms.amount(value);
  } catch {
    return notTheResource('value_cents legível');
  }
}

/**
 * The answer of POST /v1/pix/qrcodes → our charge, PENDING (the answer carries
 * no status: a PIX charge starts PENDING, doc 2 §4). Refused without a
 * reference_code or a BR Code: a charge nobody can pay is no charge.
 */
export function fromCreatedQrCode(body: unknown, terms: ResponseTerms<TransactionStatus> & { expiresAt: Date }): TransactionResult {
  const qrCode = qrCodeOf(body);
  const transactionId = textOf(qrCode?.reference_code);
  const pixCode = textOf(qrCode?.content);
  if (!qrCode || !transactionId || !pixCode) return notTheResource('qrcode com reference_code e content');
  const status = textOf(qrCode.status);
  return {
    paymentMethod: 'PIX',
    transactionId,
    status: status ? terms.status(status) : 'PENDING',
    amount: amountOf(qrCode.value_cents, terms),
    pixCode,
    expiresAt: dateOf(qrCode.expires_at) ?? terms.expiresAt,
  };
}

/** The answer of GET /v1/pix/qrcodes/{id} → our charge. Refused without a status: an answer that says nothing is never a status. */
export function fromQrCode(body: unknown, transactionId: string, terms: ResponseTerms<TransactionStatus>): TransactionResult {
  const qrCode = qrCodeOf(body);
  const status = textOf(qrCode?.status);
  if (!qrCode || !status) return notTheResource('status do qrcode');
  const pixCode = textOf(qrCode.content);
  const expiresAt = dateOf(qrCode.expires_at);
  return {
    paymentMethod: 'PIX',
    transactionId,
    status: terms.status(status),
    amount: amountOf(qrCode.value_cents, terms),
    ...(pixCode ? { pixCode } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/**
 * The payout's id: its reference_code, which the pix_payment notification
 * names it by; the platform's `id` where an answer carries no reference_code.
 */
export const paymentId = (payment: Pick<Payment, 'reference_code' | 'id'>): string | undefined => textOf(payment.reference_code) ?? idText(payment.id);

/** The answer of POST /v1/pix/payments → our payout; PENDING when it carries no status. Refused without an id. */
export function fromPayment(body: unknown, terms: ResponseTerms<WithdrawStatus>): WithdrawResult {
  const payment = paymentOf(body);
  const withdrawId = payment && paymentId(payment);
  if (!payment || !withdrawId) return notTheResource('payment com reference_code');
  const status = textOf(payment.status);
  return { withdrawId, amount: amountOf(payment.value_cents, terms), status: status ? terms.status(status) : 'PENDING' };
}
