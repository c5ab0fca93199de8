import { createHash, randomUUID } from 'node:crypto';
import type {
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../../domain/types.js';
import { digitsOnly } from '../../../lib/documents.js';
import { lookupStatus } from '../../../lib/statusTable.js';
import { dateOf } from '../../../lib/values.js';
import { centsToReais, centsToReaisString } from '../../../lib/money.js';
import { normalizePixKey, type PixKeyStyle } from '../../../lib/pixKey.js';
import { payoutRefusal } from '../../kit/payoutRefusal.js';
import { REFUND_OUTCOMES } from './statuses.js';
import { statedPixPayment } from '../../../domain/pixPayments.js';
import type {
  Cob,
  CobDebtor,
  CobRequest,
  Devolucao,
  DevolucaoRequest,
  DictPayment,
  DictPaymentRequest,
  PixReceived,
  SellsRefund,
  SellsRefundRequest,
} from './wire.js';

/** Pure mappers of the dialect, over parsed values (wire.ts): our input → their body, their body → our result. No HTTP, no clock, no logger. */

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

/** The devolução's body: the amount in reais as Bacen's decimal text. */
export const toDevolucaoRequest = (amount: number): DevolucaoRequest => ({ valor: centsToReaisString(amount) });

/** The specification's /sells refund body: the amount in reais as a number. */
export const toSellsRefundRequest = (amount: number): SellsRefundRequest => ({ amount: centsToReais(amount) });

/** An alphanumeric key of at most 35 characters (Bacen's devolução id `[a-zA-Z0-9]{1,35}`; Onz's idempotency key `[a-zA-Z0-9]{1,50}`, 35 by default). */
const alphanumericKey = (parts: readonly string[]): string => createHash('sha256').update(parts.join('\u0000')).digest('hex').slice(0, 35);

/**
 * The devolução's id, which the client chooses: derived from the key the
 * refund runs under and the Pix it returns, so a refund sent again after its
 * answer was lost names the same devolução (and is never a second one); a
 * fresh one without a key.
 */
export const devolucaoId = (endToEndId: string, refundKey: string | undefined): string =>
  refundKey ? alphanumericKey(['devolucao', endToEndId, refundKey]) : randomUUID().replace(/-/g, '');

/**
 * The payout's idempotency header: derived from the caller's key (else its
 * withdraw reference) and the account, so a payout sent again is the same one
 * at the PSP and a key with any characters fits Onz's `[a-zA-Z0-9]{1,50}`; a
 * fresh one without either.
 */
export const payoutIdempotencyKey = (accountId: string, callerKey: string | undefined): string =>
  callerKey ? alphanumericKey(['payout', accountId, callerKey]) : randomUUID().replace(/-/g, '');

/** A received Pix: APPROVED, or CHARGEBACK once devoluções DEVOLVIDO return its whole amount. */
export function pixReceivedStatus(pix: PixReceived): TransactionStatus {
  const returned = (pix.devolucoes ?? [])
    .filter((devolucao) => devolucao.status?.toUpperCase() === 'DEVOLVIDO')
    .reduce((sum, devolucao) => sum + (devolucao.valor ?? 0), 0);
  return pix.valor !== undefined && returned > 0 && returned >= pix.valor ? 'CHARGEBACK' : 'APPROVED';
}

/** A cob's status through the member's table; CONCLUIDA whose every Pix was fully returned is CHARGEBACK. A cob without a status is PENDING (no news, no move). */
export function statusOfCob(cob: Pick<Cob, 'status' | 'pix'>, status: (value: string) => TransactionStatus): TransactionStatus {
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
  status: (value: string) => TransactionStatus,
  fallback: { amount?: number; requestedAt?: Date; expirySeconds?: number } = {},
): TransactionResult {
  const seconds = cob.calendario?.expiracao ?? fallback.expirySeconds;
  const createdAt = dateOf(cob.calendario?.criacao) ?? fallback.requestedAt;
  const expiresAt = createdAt && seconds !== undefined ? new Date(createdAt.getTime() + seconds * 1000) : undefined;
  return {
    paymentMethod: 'PIX',
    transactionId: cob.txid ?? '',
    status: statusOfCob(cob, status),
    amount: cob.valor?.original ?? fallback.amount ?? 0,
    ...(cob.pixCopiaECola ? { pixCode: cob.pixCopiaECola } : {}),
    ...(expiresAt ? { expiresAt } : {}),
    // The API Pix's Pix names no payer: its end-to-end id is all a read states of the payment.
    ...statedPixPayment({ endToEndId: receivedEndToEndId(cob) }),
  };
}

/** The endToEndId of the cob's first Pix received: what a devolução returns. */
export const receivedEndToEndId = (cob: Pick<Cob, 'pix'>): string | undefined => cob.pix?.find((pix) => pix.endToEndId)?.endToEndId;

/** A refund's outcome by its status (decision: done, in progress or refused; a status not named is in progress). */
function refundResult(refundId: string, status: string | undefined): RefundResult {
  const outcome = status ? lookupStatus(REFUND_OUTCOMES, status) : REFUND_OUTCOMES.unknown;
  if (outcome === 'refused') return { refundId, status: false };
  return outcome === 'done' ? { refundId, status: true } : { refundId, status: true, pending: true };
}

/** A devolução: EM_PROCESSAMENTO in progress (the payer's bank returns it later), DEVOLVIDO done, NAO_REALIZADO refused; its id is the rtrId (the return's id at the Banco Central), else the client's id. */
export const fromDevolucao = (devolucao: Devolucao, fallbackId: string): RefundResult =>
  refundResult(devolucao.rtrId ?? devolucao.id ?? fallbackId, devolucao.status);

/** The /sells refund: a failure flag or a failed status refused; the PSP's refund id where it gives one, else the charge's. */
export function fromSellsRefund(answer: SellsRefund, transactionId: string): RefundResult {
  const refundId = answer.id ?? answer.refundId ?? answer.rtrId ?? answer.endToEndId ?? transactionId;
  if (answer.success === false) return { refundId, status: false };
  return refundResult(refundId, answer.status);
}

/** The payout's id as both the answer and the TRANSFER event carry it: the endToEndId, else the PSP's id. */
export const payoutId = (payment: Pick<DictPayment, 'endToEndId' | 'e2eId' | 'id'>): string | undefined => payment.endToEndId ?? payment.e2eId ?? payment.id;

export function fromDictPayment(
  payment: DictPayment,
  status: (value: string) => WithdrawStatus,
  options: { amount?: number; approvedAtCreation?: boolean; now?: Date } = {},
): WithdrawResult {
  const mapped: WithdrawStatus = options.approvedAtCreation ? 'APPROVED' : payment.status ? status(payment.status) : 'PENDING';
  const approvedAt = mapped === 'APPROVED' ? (dateOf(payment.eventDate) ?? options.now ?? new Date()) : undefined;
  return {
    withdrawId: payoutId(payment) ?? '',
    amount: payment.payment?.amount ?? options.amount ?? 0,
    status: mapped,
    ...(approvedAt ? { approvedAt } : {}),
    ...payoutRefusal(mapped, payment.errorCode),
  };
}
