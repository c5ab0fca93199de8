import { z } from 'zod';
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
import { normalizePixKey } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { dateOf } from '../../lib/values.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import { SPEC_GROUPS, type AdapterContext } from '../adapter.js';
import { absentable, wireAmount, wireId, wireText, type AnswerSchema } from '../kit/answers.js';
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
  evidence: { level: 'specification-only' },
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
const parceiro = z.object({ chaveParceiro: z.string().min(1) });
export type Parceiro = z.infer<typeof parceiro>;

/** Body of POST /createpix: `valor` in reais, the validity in seconds, `referencia` the caller's order id. */
export const createPixRequest = parceiro.extend({
  valor: z.number().positive(),
  expiracao: z.number().int().positive(),
  descricao: z.string().optional(),
  referencia: z.string().optional(),
  pagador: z.object({ nome: z.string().min(1), documento: z.string().regex(/^\d+$/) }).optional(),
});
export type CreatePixRequest = z.infer<typeof createPixRequest>;

/** A date as text or epoch milliseconds; one that does not read as a date is absent. */
const wireDate = absentable(z.union([z.string(), z.number()])).transform(dateOf);

/**
 * What every charge and payout answer of the dialect carries: its id and its
 * status code (doc 2 §4's numeric codes, as a number or a text), its amount
 * in reais where given.
 */
const crmcoinObject = z.object({ id: wireId, status: wireId, valor: absentable(wireAmount) });

/** Answer of /getstatus; `pixCopiaECola` is the copy-and-paste BR Code. */
export const crmcoinCharge = crmcoinObject.extend({ pixCopiaECola: absentable(wireText), expiraEm: wireDate });
export type PixCharge = z.output<typeof crmcoinCharge>;

/** Answer of /createpix: a charge without its BR Code is one nobody can pay. */
export const crmcoinCreatedCharge = crmcoinCharge.extend({ pixCopiaECola: wireText });

/** Body of POST /getstatus and POST /consulta. */
export const consultaRequest = parceiro.extend({ id: z.string().min(1) });
export type ConsultaRequest = z.infer<typeof consultaRequest>;

/** Body of POST /devolver: `valor` in reais. */
export const devolverRequest = parceiro.extend({ id: z.string().min(1), valor: z.number().nonnegative() });
export type DevolverRequest = z.infer<typeof devolverRequest>;

/** Answer of /devolver: it says something of the refund, its id or its success flag (or both). */
export const crmcoinDevolver = z.union([
  z.object({ idDevolucao: wireId, sucesso: absentable(z.boolean()), mensagem: absentable(wireText) }),
  z.object({ idDevolucao: absentable(wireId), sucesso: z.boolean(), mensagem: absentable(wireText) }),
]);
export type DevolverAnswer = z.output<typeof crmcoinDevolver>;

const tipoChave = z.enum(['CPF', 'CNPJ', 'TELEFONE', 'EMAIL', 'ALEATORIA']);
export type TipoChave = z.infer<typeof tipoChave>;

/** Body of POST /pixout: `valor` in reais, `referencia` at most 22 characters (doc 2 §5, §9). */
export const pixOutRequest = parceiro.extend({
  valor: z.number().positive(),
  chavePix: z.string().min(1),
  tipoChave,
  referencia: z
    .string()
    .min(1)
    .refine((text) => Array.from(text).length <= CRMCOIN_REFERENCE_MAX)
    .optional(),
  descricao: z.string().min(1),
});
export type PixOutRequest = z.infer<typeof pixOutRequest>;

/** Answer of /pixout and /consulta; `pagoEm` is when the payout was paid. */
export const crmcoinPixOut = crmcoinObject.extend({ pagoEm: wireDate });
export type PixOut = z.output<typeof crmcoinPixOut>;

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

/** A read of a charge (/getstatus) or a payout (/consulta) by its id. */
export const toConsulta = (chaveParceiro: string, id: string): ConsultaRequest => ({ chaveParceiro, id });

/** A refund of `valor` (reais) of a charge. */
export const toDevolver = (chaveParceiro: string, id: string, valor: number): DevolverRequest => ({ chaveParceiro, id, valor });

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

// ---------------------------------------------------------------- response mappers

interface ResponseTerms<S> {
  status: (code: string) => S;
  amount: (value: number | string) => number;
  /** What was asked for, where the answer leaves the amount out. */
  requestedAmount?: number;
}

/** The id, the mapped status and the amount every charge and payout answer carries. */
function readAnswer<S>(answer: z.output<typeof crmcoinObject>, terms: ResponseTerms<S>): { id: string; status: S; amount: number } {
  const amount = answer.valor === undefined ? (terms.requestedAmount ?? 0) : terms.amount(answer.valor);
  return { id: answer.id, status: terms.status(answer.status), amount };
}

/** /createpix and /getstatus → our charge, with the BR Code and expiry where given. */
export function fromPixCharge(answer: PixCharge, terms: ResponseTerms<TransactionStatus> & { expiresAt?: Date }): TransactionResult {
  const read = readAnswer(answer, terms);
  const expiresAt = answer.expiraEm ?? terms.expiresAt;
  return {
    paymentMethod: 'PIX',
    transactionId: read.id,
    status: read.status,
    amount: read.amount,
    ...(answer.pixCopiaECola && { pixCode: answer.pixCopiaECola }),
    ...(expiresAt && { expiresAt }),
  };
}

/** /pixout and /consulta → our payout; `pagoEm` is when an APPROVED payout was paid. */
export function fromPixOut(answer: PixOut, terms: ResponseTerms<WithdrawStatus>): WithdrawResult {
  const read = readAnswer(answer, terms);
  const approvedAt = read.status === 'APPROVED' ? answer.pagoEm : undefined;
  return { withdrawId: read.id, amount: read.amount, status: read.status, ...(approvedAt && { approvedAt }) };
}

/** /devolver → the refund: CRMCOIN's own refund id where it gives one, else the charge's (the only id the refund has). */
export function fromDevolver(answer: DevolverAnswer, transactionId: string): RefundResult {
  return { refundId: answer.idDevolucao ?? transactionId, status: answer.sucesso !== false };
}

// ---------------------------------------------------------------- operations

/** One POST of the dialect: where it goes, what it carries, the schema of its answer and how the parsed answer is read. */
interface Call<A, T> {
  operation: Operation;
  path: string;
  body: Parceiro;
  schema: AnswerSchema<A>;
  read: (answer: A) => T;
}

export class CrmcoinAdapter extends DeclaredAdapter<CrmcoinDeclaration> {
  constructor(declaration: CrmcoinDeclaration = CRMCOIN, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { family: 'bespoke', transactionStatuses: CRMCOIN_STATUSES, withdrawalStatuses: CRMCOIN_WITHDRAWAL_STATUSES });
  }

  private partnerKey(ctx: AdapterContext): string {
    return this.credentials(ctx).partnerKey;
  }

  /** The answer's reais → cents; an amount that cannot be read makes the whole answer unusable. */
  private amount(value: number | string): number {
    return this.amountOr(value, undefined, 'valor legível');
  }

  private chargeTerms(requestedAmount?: number, expiresAt?: Date) {
    return { status: (code: string) => this.transactionStatus(code), amount: (value: number | string) => this.amount(value), requestedAmount, expiresAt };
  }

  private payoutTerms(requestedAmount?: number) {
    return { status: (code: string) => this.withdrawalStatus(code), amount: (value: number | string) => this.amount(value), requestedAmount };
  }

  private async post<A, T>(ctx: AdapterContext, { operation, path, body, schema, read }: Call<A, T>): Promise<T> {
    const prefix = this.prefixFor(operation);
    const answer = await this.exchange(operation, prefix, () => this.http(ctx).post(path, body), schema);
    return this.mapped(operation, prefix, () => read(answer));
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const terms = this.chargeTerms(input.amount, this.expiresAt(this.pixExpirySeconds));
    const body = toCreatePix(input, { chaveParceiro: this.partnerKey(ctx), valor: this.toProviderAmount(input.amount), expirySeconds: this.pixExpirySeconds });
    const charge = await this.post(ctx, {
      operation: 'createTransaction',
      path: CRMCOIN_PATHS.createPix,
      body,
      schema: crmcoinCreatedCharge,
      read: (answer) => fromPixCharge(answer, terms),
    });
    return pixCodeOnly(charge);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const body = toConsulta(this.partnerKey(ctx), transactionId);
    const read = (answer: PixCharge) => fromPixCharge(answer, this.chargeTerms());
    const charge = await this.post(ctx, { operation: 'getTransaction', path: CRMCOIN_PATHS.getStatus, body, schema: crmcoinCharge, read });
    // The id asked for stays the id, whatever the answer echoes.
    return pixCodeOnly({ ...charge, transactionId });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const body = toDevolver(this.partnerKey(ctx), transactionId, this.toProviderAmount(amount));
    const read = (answer: DevolverAnswer) => fromDevolver(answer, transactionId);
    return this.post(ctx, { operation: 'refoundTransaction', path: CRMCOIN_PATHS.refund, body, schema: crmcoinDevolver, read });
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    if (input.paymentMethod !== 'PIX') throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    const { pixKey, pixType } = input;
    if (!pixKey?.trim()) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals', 'REQUIRED');
    if (!pixType) throw invalidArgument('withdraw.pix_type', 'withdraw.pix_type is required for PIX withdrawals', 'REQUIRED');
    const body = toPixOut({ ...input, pixKey, pixType }, { chaveParceiro: this.partnerKey(ctx), valor: this.toProviderAmount(input.amount) });
    const read = (answer: PixOut) => fromPixOut(answer, this.payoutTerms(input.amount));
    return this.post(ctx, { operation: 'withdraw', path: CRMCOIN_PATHS.pixOut, body, schema: crmcoinPixOut, read });
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const body = toConsulta(this.partnerKey(ctx), withdrawId);
    const payout = await this.post(ctx, {
      operation: 'getWithdraw',
      path: CRMCOIN_PATHS.getPixOut,
      body,
      schema: crmcoinPixOut,
      read: (answer) => fromPixOut(answer, this.payoutTerms()),
    });
    return { ...payout, withdrawId };
  }
}
