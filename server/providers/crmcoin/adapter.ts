import type {
  Operation,
  PixKeyType,
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { invalidArgument } from '../../lib/errors.js';
import { ProviderCallError } from '../../lib/http/index.js';
import { isRecord } from '../../lib/json.js';
import { normalizePixKey } from '../../lib/pixKey.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { dateOf, idText, textOf } from '../../lib/values.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import type { AdapterRuntime, ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';

/**
 * CRMCOIN (spec doc 2, group 2): a bespoke dialect. What the spec says: POST
 * /consulta, /pixout, /createpix, /getstatus, /devolver, each carrying a
 * partner key (§7); "codes 0 and 1 PENDING, 2 APPROVED, 3 CHARGEBACK, other
 * REJECTED; withdraw code 2 APPROVED, other unknown codes CANCELED" (§4); the
 * withdraw reference is cut to 22 characters (§5, §9). No public material on
 * CRMCOIN's API was found (provider research, groups 1–2), so everything else
 * below is the gateway's decision, in the dialect's Portuguese naming, and is
 * recorded in docs/decisions.md:
 *
 * - credentials: publicKey = the partner key, sent as `chaveParceiro` in every
 *   body; secretKey = the API token, sent as `Authorization: Bearer`;
 * - amounts in reais (`valor`), validity in seconds (`expiracao`);
 * - the five paths: /createpix creates a PIX charge, /getstatus reads a charge,
 *   /devolver refunds one, /pixout pays out to a PIX key, /consulta reads a
 *   payout (the spec lists /consulta beside /pixout and /getstatus beside
 *   /createpix, and gives a withdraw status code, which needs a payout read);
 * - statuses are the numeric codes of §4, as a number or a numeric text;
 * - no notifications: the spec shows no shape for them, so none is invented;
 *   pending charges are settled by the gateway's reconciliation (/getstatus).
 *
 * Read top to bottom: declaration → wire shapes → request mappers → status
 * tables → response mappers → the operations, one HTTP exchange each.
 */

// ---------------------------------------------------------------- declaration

/** publicKey: the partner key; secretKey: the API token. Both required. */
export const CRMCOIN_CREDENTIALS = { publicKey: ['partnerKey'], secretKey: ['apiToken'] } as const;

export type CrmcoinDeclaration = ProviderDeclaration & { credentials: typeof CRMCOIN_CREDENTIALS };

export const CRMCOIN: CrmcoinDeclaration = {
  // The host is a placeholder (no public material names one): an account sets its base_url.
  identity: { id: 'CRMCOIN', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.crmcoin.com.br' },
  capabilities: { paymentMethods: ['PIX'], refunds: true, withdrawMethods: ['PIX'], withdrawalLookup: true },
  auth: { type: 'bearer' },
  credentials: CRMCOIN_CREDENTIALS,
  money: 'reais',
  // Its payout body's own default ('Saque solicitado', doc 1 §9), also what the gateway fills in for a caller who gives none.
  payouts: { description: 'requested' },
  sources:
    "paths, the partner key in every call, numeric status codes, 22-character withdraw reference: spec (doc 2 §4/§5/§7/§9); bodies (Portuguese, reais), which path reads what (`/getstatus` a charge, `/consulta` a payout), bearer API token, no notifications: gateway's decision (no public API material found); host: placeholder",
};

/** The spec's limit of the withdraw reference (doc 2 §5, §9). */
export const CRMCOIN_REFERENCE_MAX = 22;

export const CRMCOIN_PATHS = {
  createPix: '/createpix',
  getStatus: '/getstatus',
  refund: '/devolver',
  pixOut: '/pixout',
  getPixOut: '/consulta',
} as const;

// ---------------------------------------------------------------- wire shapes

/** What every body carries (doc 2 §7: "each carrying a partner key"). */
export interface Parceiro {
  chaveParceiro: string;
}

/** A status as the spec gives it: a numeric code, as a number or a text. */
export type CodigoStatus = number | string;

/** Body of POST /createpix. */
export interface CreatePixRequest extends Parceiro {
  valor: number;
  /** Validity in seconds. */
  expiracao: number;
  descricao?: string;
  /** The caller's order id. */
  referencia?: string;
  pagador?: { nome: string; documento: string };
}

/** Answer of /createpix and /getstatus. */
export interface PixCharge {
  id?: string | number;
  status?: CodigoStatus;
  valor?: number | string;
  /** The copy-and-paste BR Code. */
  pixCopiaECola?: string;
  expiraEm?: string;
}

/** Body of POST /getstatus and POST /consulta. */
export interface ConsultaRequest extends Parceiro {
  id: string;
}

/** Body of POST /devolver. */
export interface DevolverRequest extends Parceiro {
  id: string;
  valor: number;
}

/** Answer of /devolver. */
export interface DevolverAnswer {
  idDevolucao?: string | number;
  sucesso?: boolean;
  mensagem?: string;
}

export type TipoChave = 'CPF' | 'CNPJ' | 'TELEFONE' | 'EMAIL' | 'ALEATORIA';

/** Body of POST /pixout. */
export interface PixOutRequest extends Parceiro {
  valor: number;
  chavePix: string;
  tipoChave: TipoChave;
  /** At most 22 characters (doc 2 §5, §9). */
  referencia?: string;
  descricao: string;
}

/** Answer of /pixout and /consulta. */
export interface PixOut {
  id?: string | number;
  status?: CodigoStatus;
  valor?: number | string;
  pagoEm?: string;
}

// ---------------------------------------------------------------- request mappers

const TIPOS_CHAVE: Readonly<Record<PixKeyType, TipoChave>> = { CPF: 'CPF', CNPJ: 'CNPJ', PHONE: 'TELEFONE', EMAIL: 'EMAIL', RANDOM: 'ALEATORIA' };

/** The reference cut to the spec's 22 characters (whole characters, never half of one); none when blank. */
export function crmcoinReference(reference: string | undefined): string | undefined {
  const text = reference?.trim();
  return text ? Array.from(text).slice(0, CRMCOIN_REFERENCE_MAX).join('') : undefined;
}

export function toCreatePix(input: TransactionInput, terms: { chaveParceiro: string; valor: number; expirySeconds: number }): CreatePixRequest {
  const documento = digitsOnly(input.customer?.document ?? '');
  return {
    chaveParceiro: terms.chaveParceiro,
    valor: terms.valor,
    expiracao: terms.expirySeconds,
    ...(input.description ? { descricao: input.description } : {}),
    ...(input.orderId ? { referencia: input.orderId } : {}),
    ...(input.customer?.name && documento ? { pagador: { nome: input.customer.name, documento } } : {}),
  };
}

/**
 * A payout to a PIX key: CPF, CNPJ and PHONE keys lose their mask, a phone
 * gets '+55' (the form the DICT registers phones in); the reference is the
 * caller's withdrawReference, else its idempotency key, cut to 22 characters.
 */
export function toPixOut(input: WithdrawInput & { pixKey: string; pixType: PixKeyType }, terms: { chaveParceiro: string; valor: number }): PixOutRequest {
  const referencia = crmcoinReference(input.withdrawReference ?? input.idempotencyKey);
  return {
    chaveParceiro: terms.chaveParceiro,
    valor: terms.valor,
    chavePix: normalizePixKey(input.pixKey.trim(), input.pixType, { phonePrefix: '+55' }),
    tipoChave: TIPOS_CHAVE[input.pixType],
    ...(referencia ? { referencia } : {}),
    descricao: input.description || defaultWithdrawDescription(input.amount, 'requested'),
  };
}

// ---------------------------------------------------------------- status tables

/** Charges: "codes 0 and 1 PENDING, 2 APPROVED, 3 CHARGEBACK, other REJECTED" (doc 2 §4). */
export const CRMCOIN_STATUSES = statusTable<TransactionStatus>({ '0': 'PENDING', '1': 'PENDING', '2': 'APPROVED', '3': 'CHARGEBACK' }, 'REJECTED');

/**
 * Payouts: "withdraw code 2 APPROVED, other unknown codes CANCELED" (doc 2 §4).
 * 0 and 1 keep their pending meaning: "other unknown codes" leaves the known
 * ones as they are, and a payout still in flight marked CANCELED could be paid twice.
 */
export const CRMCOIN_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>({ '0': 'PENDING', '1': 'PENDING', '2': 'APPROVED' }, 'CANCELED');

/** A status code as the table's key: a number or a non-blank text; anything else is no status. */
export const statusCode = (value: unknown): string | undefined => idText(value);

// ---------------------------------------------------------------- response mappers

interface ResponseTerms<S> {
  status: (code: string) => S;
  amount: (value: unknown) => number;
  /** What was asked for, where the answer leaves the amount out. */
  requestedAmount?: number;
}

/**
 * What every charge and payout answer of the dialect carries: its id, its
 * status code (mapped) and its amount. Undefined without an id or a status
 * code: the operation turns that into an error, never a status.
 */
function readAnswer<S>(answer: unknown, terms: ResponseTerms<S>): { id: string; status: S; amount: number } | undefined {
  if (!isRecord(answer)) return undefined;
  const { id, status, valor } = answer as Pick<PixCharge, 'id' | 'status' | 'valor'>;
  const read = { id: idText(id), code: statusCode(status) };
  if (!read.id || !read.code) return undefined;
  const amount = valor === undefined || valor === null ? (terms.requestedAmount ?? 0) : terms.amount(valor);
  return { id: read.id, status: terms.status(read.code), amount };
}

/** /createpix and /getstatus → our charge, with the BR Code and expiry where given. */
export function fromPixCharge(answer: unknown, terms: ResponseTerms<TransactionStatus> & { expiresAt?: Date }): TransactionResult | undefined {
  const read = readAnswer(answer, terms);
  if (!read) return undefined;
  const { pixCopiaECola, expiraEm } = answer as PixCharge;
  const pixCode = textOf(pixCopiaECola);
  const expiresAt = dateOf(expiraEm) ?? terms.expiresAt;
  return {
    paymentMethod: 'PIX',
    transactionId: read.id,
    status: read.status,
    amount: read.amount,
    ...(pixCode && { pixCode }),
    ...(expiresAt && { expiresAt }),
  };
}

/** /pixout and /consulta → our payout; `pagoEm` is when an APPROVED payout was paid. */
export function fromPixOut(answer: unknown, terms: ResponseTerms<WithdrawStatus>): WithdrawResult | undefined {
  const read = readAnswer(answer, terms);
  const approvedAt = read?.status === 'APPROVED' ? dateOf((answer as PixOut).pagoEm) : undefined;
  return read && { withdrawId: read.id, amount: read.amount, status: read.status, ...(approvedAt && { approvedAt }) };
}

/** Undefined when the answer says nothing of the refund (no id and no success flag). */
export function fromDevolver(answer: unknown, transactionId: string): RefundResult | undefined {
  if (!isRecord(answer)) return undefined;
  const refund = answer as DevolverAnswer;
  const refundId = idText(refund.idDevolucao);
  if (!refundId && typeof refund.sucesso !== 'boolean') return undefined;
  // CRMCOIN's own refund id where it gives one; else the charge's, the only id the refund has.
  return { refundId: refundId ?? transactionId, status: refund.sucesso !== false };
}

// ---------------------------------------------------------------- operations

/** Not the resource asked for: the kit's `mapped` makes it UNAVAILABLE under the operation's prefix (the outcome unknown), never a status. */
const unusable = (what: string): never => {
  throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `resposta do provedor sem ${what}`);
};

/** One POST of the dialect: where it goes, what it carries, how its answer is read and what it must hold. */
interface Call<T> {
  operation: Operation;
  path: string;
  body: Parceiro;
  read: (answer: unknown) => T | undefined;
  what: string;
}

export class CrmcoinAdapter extends DeclaredAdapter<CrmcoinDeclaration> {
  constructor(declaration: CrmcoinDeclaration = CRMCOIN, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { family: 'bespoke', transactionStatuses: CRMCOIN_STATUSES, withdrawalStatuses: CRMCOIN_WITHDRAWAL_STATUSES });
  }

  private partnerKey(ctx: AdapterContext): string {
    return this.credentials(ctx).partnerKey;
  }

  /** The answer's reais → cents; an amount that cannot be read makes the whole answer unusable. */
  private amount(value: unknown): number {
    try {
      return this.fromProviderAmount(value);
    } catch {
      return unusable('valor legível');
    }
  }

  private chargeTerms(requestedAmount?: number, expiresAt?: Date) {
    return { status: (code: string) => this.transactionStatus(code), amount: (value: unknown) => this.amount(value), requestedAmount, expiresAt };
  }

  private payoutTerms(requestedAmount?: number) {
    return { status: (code: string) => this.withdrawalStatus(code), amount: (value: unknown) => this.amount(value), requestedAmount };
  }

  private async post<T>(ctx: AdapterContext, { operation, path, body, read, what }: Call<T>): Promise<T> {
    const prefix = this.prefixFor(operation);
    const answer = await this.exchange(operation, prefix, () => this.http(ctx).post<unknown>(path, body));
    return this.mapped(operation, prefix, () => read(answer) ?? unusable(what));
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const terms = this.chargeTerms(input.amount, this.expiresAt(this.pixExpirySeconds));
    const body = toCreatePix(input, { chaveParceiro: this.partnerKey(ctx), valor: this.toProviderAmount(input.amount), expirySeconds: this.pixExpirySeconds });
    const charge = await this.post(ctx, {
      operation: 'createTransaction',
      path: CRMCOIN_PATHS.createPix,
      body,
      read: (answer) => {
        const charge = fromPixCharge(answer, terms);
        // A charge without its BR Code is one nobody can pay.
        return charge?.pixCode ? charge : undefined;
      },
      what: 'id, status ou pixCopiaECola da cobrança',
    });
    return withPixQrImage(charge);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const body: ConsultaRequest = { chaveParceiro: this.partnerKey(ctx), id: transactionId };
    const read = (answer: unknown) => fromPixCharge(answer, this.chargeTerms());
    const charge = await this.post(ctx, { operation: 'getTransaction', path: CRMCOIN_PATHS.getStatus, body, read, what: 'id ou status da cobrança' });
    // The id asked for stays the id, whatever the answer echoes.
    return withPixQrImage({ ...charge, transactionId });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const body: DevolverRequest = { chaveParceiro: this.partnerKey(ctx), id: transactionId, valor: this.toProviderAmount(amount) };
    const read = (answer: unknown) => fromDevolver(answer, transactionId);
    return this.post(ctx, { operation: 'refoundTransaction', path: CRMCOIN_PATHS.refund, body, read, what: 'dados da devolução' });
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    if (input.paymentMethod !== 'PIX') throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    const { pixKey, pixType } = input;
    if (!pixKey?.trim()) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals');
    if (!pixType) throw invalidArgument('withdraw.pix_type', 'withdraw.pix_type is required for PIX withdrawals');
    const body = toPixOut({ ...input, pixKey, pixType }, { chaveParceiro: this.partnerKey(ctx), valor: this.toProviderAmount(input.amount) });
    const read = (answer: unknown) => fromPixOut(answer, this.payoutTerms(input.amount));
    return this.post(ctx, { operation: 'withdraw', path: CRMCOIN_PATHS.pixOut, body, read, what: 'id ou status do saque' });
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const body: ConsultaRequest = { chaveParceiro: this.partnerKey(ctx), id: withdrawId };
    const payout = await this.post(ctx, {
      operation: 'getWithdraw',
      path: CRMCOIN_PATHS.getPixOut,
      body,
      read: (answer) => fromPixOut(answer, this.payoutTerms()),
      what: 'id ou status do saque',
    });
    return { ...payout, withdrawId };
  }
}
