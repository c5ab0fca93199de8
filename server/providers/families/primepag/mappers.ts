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
import { normalizePixKey, type PixKeyStyle } from '../../../lib/pixKey.js';
import { dateOf } from '../../../lib/values.js';
import { payoutRefusal } from '../../kit/payoutRefusal.js';
import type { PaymentRequest, PixKeyTypeName, PrimePagCreatedQrCode, PrimePagPayment, PrimePagQrCode, QrCodeRequest } from './wire.js';

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

export interface ResponseTerms<S> {
  status: (value: string) => S;
  /** value_cents → our cents; throws on what is not an amount. */
  amount: (value: number | string) => number;
  /** What we asked for, where the answer leaves it out. */
  requestedAmount?: number;
}

const amountOf = (value: number | string | undefined, terms: ResponseTerms<unknown>): number =>
  value === undefined ? (terms.requestedAmount ?? 0) : terms.amount(value);

/** A parsed POST /v1/pix/qrcodes answer → our charge, PENDING when it carries no status (a PIX charge starts PENDING, doc 2 §4). */
export function fromCreatedQrCode(qrCode: PrimePagCreatedQrCode, terms: ResponseTerms<TransactionStatus> & { expiresAt: Date }): TransactionResult {
  return {
    paymentMethod: 'PIX',
    transactionId: qrCode.reference_code,
    status: qrCode.status !== undefined ? terms.status(qrCode.status) : 'PENDING',
    amount: amountOf(qrCode.value_cents, terms),
    pixCode: qrCode.content,
    expiresAt: dateOf(qrCode.expires_at) ?? terms.expiresAt,
  };
}

/** A parsed GET /v1/pix/qrcodes/{id} answer → our charge (the id asked for stays the id). */
export function fromQrCode(qrCode: PrimePagQrCode, transactionId: string, terms: ResponseTerms<TransactionStatus>): TransactionResult {
  const expiresAt = dateOf(qrCode.expires_at);
  return {
    paymentMethod: 'PIX',
    transactionId,
    status: terms.status(qrCode.status),
    amount: amountOf(qrCode.value_cents, terms),
    ...(qrCode.content ? { pixCode: qrCode.content } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** A parsed POST /v1/pix/payments answer → our payout; PENDING when it carries no status; a canceled one keeps its `cancellation_reason`. */
export function fromPayment(payment: PrimePagPayment, terms: ResponseTerms<WithdrawStatus>): WithdrawResult {
  const status = payment.status !== undefined ? terms.status(payment.status) : 'PENDING';
  return {
    withdrawId: payment.id,
    amount: amountOf(payment.value_cents, terms),
    status,
    ...payoutRefusal(status, payment.cancellation_reason),
  };
}
