import type { TransactionInput, TransactionResult, TransactionStatus, WithdrawInput, WithdrawResult, WithdrawStatus } from '../../../domain/types.js';
import { digitsOnly } from '../../../lib/documents.js';
import { dateOf, idText, textOf } from '../../../lib/values.js';
import { centsToReais, centsToReaisString, reaisToCents } from '../../../lib/money.js';
import { normalizePixKey, type PixKeyStyle } from '../../../lib/pixKey.js';
import type { Cob, CobDebtor, CobRequest, DictPayment, DictPaymentRequest, PixReceived } from './wire.js';

/** Pure mappers of the dialect: our input → their body, their body → our result. No HTTP, no clock, no logger. */

/** Bacen's limit for solicitacaoPagador. */
const PAYER_REQUEST_MAX = 140;

/** {cpf|cnpj, nome} when the customer has a name and an 11- or 14-digit document; otherwise none (devedor is optional). */
export function toCobDebtor(customer: TransactionInput['customer']): CobDebtor | undefined {
  const nome = customer?.name?.trim();
  const document = digitsOnly(customer?.document ?? '');
  if (!nome) return undefined;
  if (document.length === 11) return { cpf: document, nome };
  if (document.length === 14) return { cnpj: document, nome };
  return undefined;
}

export function toCobRequest(
  input: Pick<TransactionInput, 'amount' | 'customer' | 'description'>,
  options: { expirySeconds: number; chave?: string },
): CobRequest {
  const devedor = toCobDebtor(input.customer);
  const request = input.description?.trim().slice(0, PAYER_REQUEST_MAX);
  return {
    calendario: { expiracao: options.expirySeconds },
    ...(devedor ? { devedor } : {}),
    valor: { original: centsToReaisString(input.amount) },
    ...(options.chave ? { chave: options.chave } : {}),
    ...(request ? { solicitacaoPagador: request } : {}),
  };
}

export function toDictPaymentRequest(
  input: Pick<WithdrawInput, 'amount' | 'pixKey' | 'pixType' | 'description' | 'document'>,
  style: PixKeyStyle,
): DictPaymentRequest {
  const pixKey = input.pixType ? normalizePixKey(input.pixKey ?? '', input.pixType, style) : (input.pixKey ?? '').trim();
  const creditorDocument = digitsOnly(input.document ?? '');
  return {
    pixKey,
    ...(input.description ? { description: input.description } : {}),
    // When known, the PSP checks that the key belongs to this document before paying.
    ...(creditorDocument ? { creditorDocument } : {}),
    paymentFlow: 'INSTANT',
    payment: { currency: 'BRL', amount: centsToReais(input.amount) },
  };
}

/** Reais as the API sends them ("10.00" or 10) → cents; undefined when absent or unreadable. */
export function cents(value: unknown): number | undefined {
  if (typeof value !== 'number' && typeof value !== 'string') return undefined;
  if (value === '') return undefined;
  try {
    return reaisToCents(value);
  } catch {
    return undefined;
  }
}

/** A received Pix: APPROVED, or CHARGEBACK once devoluções DEVOLVIDO return its whole amount. */
export function pixReceivedStatus(pix: PixReceived): TransactionStatus {
  const paid = cents(pix.valor);
  const returned = (pix.devolucoes ?? [])
    .filter((devolucao) => devolucao.status === 'DEVOLVIDO')
    .reduce((sum, devolucao) => sum + (cents(devolucao.valor) ?? 0), 0);
  return paid !== undefined && returned > 0 && returned >= paid ? 'CHARGEBACK' : 'APPROVED';
}

/** A cob's status through the member's table; CONCLUIDA whose every Pix was fully returned is CHARGEBACK. A cob without a status is PENDING (no news, no move). */
export function statusOfCob(cob: Pick<Cob, 'status' | 'pix'>, status: (value: unknown) => TransactionStatus): TransactionStatus {
  if (!cob.status) return 'PENDING';
  const mapped = status(cob.status);
  const received = cob.pix ?? [];
  if (mapped === 'APPROVED' && received.length > 0 && received.every((pix) => pixReceivedStatus(pix) === 'CHARGEBACK')) return 'CHARGEBACK';
  return mapped;
}

/**
 * Their cob → our result, without the QR image. `fallback` fills what an
 * answer may leave out: the amount asked for and the time and validity of the
 * request, for expiresAt.
 */
export function fromCob(
  cob: Cob,
  status: (value: unknown) => TransactionStatus,
  fallback: { amount?: number; requestedAt?: Date; expirySeconds?: number } = {},
): TransactionResult {
  const seconds = Number(cob.calendario?.expiracao ?? fallback.expirySeconds);
  const createdAt = dateOf(cob.calendario?.criacao) ?? fallback.requestedAt;
  const expiresAt = createdAt && Number.isFinite(seconds) ? new Date(createdAt.getTime() + seconds * 1000) : undefined;
  return {
    paymentMethod: 'PIX',
    transactionId: textOf(cob.txid) ?? '',
    status: statusOfCob(cob, status),
    amount: cents(cob.valor?.original) ?? fallback.amount ?? 0,
    ...(cob.pixCopiaECola ? { pixCode: cob.pixCopiaECola } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** The payout's id as both the answer and the TRANSFER event carry it: the endToEndId, else the PSP's id. */
export const payoutId = (payment: Pick<DictPayment, 'endToEndId' | 'id'>): string | undefined => textOf(payment.endToEndId) ?? idText(payment.id);

export function fromDictPayment(
  payment: DictPayment,
  status: (value: unknown) => WithdrawStatus,
  options: { amount?: number; approvedAtCreation?: boolean; now?: Date } = {},
): WithdrawResult {
  const mapped: WithdrawStatus = options.approvedAtCreation ? 'APPROVED' : payment.status ? status(payment.status) : 'PENDING';
  const approvedAt = mapped === 'APPROVED' ? (dateOf(payment.eventDate) ?? options.now ?? new Date()) : undefined;
  return {
    withdrawId: payoutId(payment) ?? '',
    amount: cents(payment.payment?.amount) ?? options.amount ?? 0,
    status: mapped,
    ...(approvedAt ? { approvedAt } : {}),
  };
}
