import { randomUUID } from 'node:crypto';
import { lookupStatus, statusTable } from '../../lib/statusTable.js';
import { pixQrCodeDataUrl } from '../../lib/pixQrCode.js';
import type {
  Operation,
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { GatewayError, invalidArgument, notImplemented } from '../../lib/errors.js';
import { createProviderHttp, type HttpAccount, type ProviderHttp, type ProviderHttpDeclaration } from '../../lib/http/index.js';
import { logger } from '../../lib/logger.js';
import { centsToReais, centsToReaisString, reaisToCents } from '../../lib/money.js';
import { normalizePixKey, type PixKeyStyle } from '../../lib/pixKey.js';
import { catalogueError, FAILURE_PREFIXES, paymentMethodNotSupportedBy, providerFailure } from '../../lib/providerMessages.js';
import { ProviderAdapter, type AdapterContext, type IncomingNotification, type ProviderIdentity } from '../adapter.js';

/**
 * The "BACEN API Pix" family (DESIGN §3; spec doc 2 §4/§7 for VOLUTI and TREEAL,
 * doc 3 §4/§5/§7 for Podpay and Onz): OAuth2 client credentials over mTLS with
 * the platform's certificate, immediate charges by POST /cob and GET /cob/{txid}
 * as the Banco Central's API Pix defines them, payouts by POST /pix/payments/dict
 * (the payment-initiation dialect these PSPs share), and their notifications.
 * Written once; a member declares only what differs (BacenPixMember below).
 *
 * Decisions where the specification is silent:
 * - Credentials: publicKey is 'clientId|chave' (the OAuth client id and the
 *   receiving PIX key every cob needs; without '|' the cob carries no chave, for
 *   PSPs that fill in the account's key). secretKey is 'clientSecret' or
 *   'clientSecret|certificatePassphrase' for an encrypted key or PKCS#12 bundle.
 * - Token request: by default form-encoded with HTTP Basic client authentication
 *   (RFC 6749 §2.3.1, which every standard PSP must accept); members override.
 * - Notifications are unsigned (the PSPs authenticate themselves by mTLS, which
 *   ends before the sidecar), so the gateway confirms money states with GET /cob.
 * - The standard body {"pix":[{endToEndId, txid, valor, horario, devolucoes}]}
 *   is a Pix received for that txid: APPROVED; CHARGEBACK when its devoluções
 *   (status DEVOLVIDO) return the whole amount, like the members' REFUND event.
 *   One notification yields one result: the first entry that names a txid (an
 *   entry without txid is a Pix to the key, not to a charge, and is ignored).
 * - A cob read back as CONCLUIDA whose every Pix was fully returned is CHARGEBACK
 *   too, so that the gateway's confirmation agrees with such notifications.
 * - REMOVIDA_PELO_USUARIO_RECEBEDOR (not named by the spec) is REJECTED, the
 *   spec's rule for statuses it does not list; so is any unknown cob status,
 *   logged as a warning. A cob without a status is PENDING (no news, no move).
 * - Payouts: the TRANSFER event (the cash-out notification of these PSPs) yields
 *   a WITHDRAW result. Unknown payout statuses are PENDING, not REJECTED: a
 *   payout wrongly recorded as failed could be paid twice.
 * - The payout id is the endToEndId (what GET /pix/payments/{id} and the TRANSFER
 *   event carry), else the PSP's numeric id. The idempotency header carries the
 *   caller's idempotency key, else its withdrawReference, else a fresh UUID.
 * - Notification dedup key: event type, endToEndId (or event id) and status, so a
 *   RECEIVE that moves from PROCESSING to LIQUIDATED is not taken for a repeat.
 */

// ------------------------------------------------------------------ wire types

/** Bacen API Pix: devedor is {cpf, nome} or {cnpj, nome}. */
export type CobDebtor = { cpf: string; nome: string } | { cnpj: string; nome: string };

/** Body of POST /cob (Bacen API Pix, CobSolicitada). */
export interface CobRequest {
  calendario: { expiracao: number };
  devedor?: CobDebtor;
  valor: { original: string };
  chave?: string;
  solicitacaoPagador?: string;
}

export type DevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

export interface Devolucao {
  id?: string;
  rtrId?: string;
  valor?: string;
  status?: DevolucaoStatus | string;
}

/** A Pix received (the cob's `pix` list and the standard webhook's entries). */
export interface PixReceived {
  endToEndId?: string;
  txid?: string;
  valor?: string;
  horario?: string;
  chave?: string;
  infoPagador?: string;
  devolucoes?: Devolucao[];
}

export type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

/** Answer of POST /cob and GET /cob/{txid} (CobGerada / CobCompleta). VOLUTI also answers LIQUIDATED. */
export interface Cob {
  txid?: string;
  revisao?: number;
  status?: CobStatus | 'LIQUIDATED' | string;
  calendario?: { criacao?: string; expiracao?: number | string };
  location?: string;
  devedor?: CobDebtor;
  valor?: { original?: string };
  chave?: string;
  solicitacaoPagador?: string;
  pixCopiaECola?: string;
  pix?: PixReceived[];
}

/** Body of POST /pix/payments/dict: a payout to a PIX key (amount in reais, a JSON number). */
export interface DictPaymentRequest {
  pixKey: string;
  description?: string;
  creditorDocument?: string;
  paymentFlow: 'INSTANT';
  payment: { currency: 'BRL'; amount: number };
}

/** Answer of POST /pix/payments/dict and GET /pix/payments/{id}. */
export interface DictPayment {
  id?: number | string;
  endToEndId?: string;
  status?: string;
  eventDate?: string;
  payment?: { currency?: string; amount?: number | string };
}

/** The members' own notification: {type, data}. */
export interface PixEvent {
  type?: string;
  data?: {
    id?: number | string;
    txId?: string;
    txid?: string;
    endToEndId?: string;
    status?: string;
    idempotencyKey?: string | null;
  };
}

// ------------------------------------------------------------------ status tables

/** Cob statuses (spec doc 2 §4, doc 3 §4). */
export const COB_STATUS: Readonly<Record<string, TransactionStatus>> = {
  ATIVA: 'PENDING',
  REMOVIDA_PELO_PSP: 'PENDING',
  CONCLUIDA: 'APPROVED',
  LIQUIDATED: 'APPROVED',
  REMOVIDA_PELO_USUARIO_RECEBEDOR: 'REJECTED',
};
/** doc 1 §4: unknown is REJECTED for most; these providers are not among the PENDING minority. */
export const COB_UNKNOWN_STATUS: TransactionStatus = 'REJECTED';

/** How a cash-in event yields a status; 'ignore' drops the notification. */
export type CashInEventRule =
  'ignore' | { status: TransactionStatus } | { byDataStatus: Readonly<Record<string, TransactionStatus>>; otherwise: TransactionStatus };

/** doc 1 §4 "Common event pattern for PIX-cob providers"; events not listed are ignored too. */
export const CASH_IN_EVENTS: Readonly<Record<string, CashInEventRule>> = {
  RECEIVE: { byDataStatus: { LIQUIDATED: 'APPROVED' }, otherwise: 'PENDING' },
  REFUND: { status: 'CHARGEBACK' },
  CANCELED: 'ignore',
};

/** The payout notification's event type. */
export const PAYOUT_EVENT = 'TRANSFER';

/** Payout statuses of the payment-initiation API (doc 1 §4 withdraw rules). */
export const PAYOUT_STATUS: Readonly<Record<string, WithdrawStatus>> = {
  PENDING: 'PENDING',
  PROCESSING: 'PENDING',
  QUEUED: 'PENDING',
  ON_QUEUE: 'PENDING',
  LIQUIDATED: 'APPROVED',
  PARTIALLY_REFUNDED: 'APPROVED',
  CANCELED: 'CANCELED',
  REJECTED: 'REJECTED',
  REFUNDED: 'REJECTED',
};
export const PAYOUT_UNKNOWN_STATUS: WithdrawStatus = 'PENDING';

/** Devolução outcomes that did not happen; anything else counts as a refund made or under way. */
const REFUND_FAILED = new Set(['NAO_REALIZADO', 'REJECTED', 'CANCELED', 'FAILED', 'ERROR']);

const COB_TABLE = statusTable(COB_STATUS, COB_UNKNOWN_STATUS);
const PAYOUT_TABLE = statusTable(PAYOUT_STATUS, PAYOUT_UNKNOWN_STATUS);
const warnUnknown = (what: string) => (status: unknown, mappedTo: string) => logger.warn({ status, mappedTo }, `unknown ${what} status`);

export const cobStatus = (status: string): TransactionStatus => lookupStatus(COB_TABLE, status, warnUnknown('BACEN API Pix cob'));
export const payoutStatus = (status: string): WithdrawStatus => lookupStatus(PAYOUT_TABLE, status, warnUnknown('BACEN API Pix payout'));

// ------------------------------------------------------------------ credentials

export interface BacenPixCredentials {
  clientId: string;
  /** The receiving PIX key sent as the cob's chave. */
  chave?: string;
  clientSecret: string;
  certificatePassphrase?: string;
}

function splitOnce(value: string): [string, string | undefined] {
  const at = value.indexOf('|');
  if (at < 0) return [value.trim(), undefined];
  return [value.slice(0, at).trim(), value.slice(at + 1).trim() || undefined];
}

/** publicKey 'clientId|chave', secretKey 'clientSecret[|certificatePassphrase]'. */
export function bacenPixCredentials(account: Pick<HttpAccount, 'publicKey' | 'secretKey'>): BacenPixCredentials {
  const [clientId, chave] = splitOnce(account.publicKey ?? '');
  const [clientSecret, certificatePassphrase] = splitOnce(account.secretKey ?? '');
  return { clientId, chave, clientSecret, certificatePassphrase };
}

// ------------------------------------------------------------------ request mappers

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

// ------------------------------------------------------------------ response mappers

const cents = (value: number | string | undefined): number | undefined => {
  if (value === undefined || value === null || value === '') return undefined;
  try {
    return reaisToCents(value);
  } catch {
    return undefined;
  }
};

/** A received Pix: APPROVED, or CHARGEBACK once devoluções DEVOLVIDO return its whole amount. */
export function pixReceivedStatus(pix: PixReceived): TransactionStatus {
  const paid = cents(pix.valor);
  const returned = (pix.devolucoes ?? [])
    .filter((devolucao) => devolucao.status === 'DEVOLVIDO')
    .reduce((sum, devolucao) => sum + (cents(devolucao.valor) ?? 0), 0);
  return paid !== undefined && returned > 0 && returned >= paid ? 'CHARGEBACK' : 'APPROVED';
}

export function statusOfCob(cob: Pick<Cob, 'status' | 'pix'>): TransactionStatus {
  if (!cob.status) return 'PENDING';
  const status = cobStatus(cob.status);
  const received = cob.pix ?? [];
  if (status === 'APPROVED' && received.length > 0 && received.every((pix) => pixReceivedStatus(pix) === 'CHARGEBACK')) return 'CHARGEBACK';
  return status;
}

/**
 * Their cob → our result, without the QR image (made in the operation).
 * `fallback` fills what an answer may leave out: the amount asked for and the
 * time and validity of the request, for expiresAt.
 */
/**
 * A read answer must be an object carrying a status: an HTML page, `null`,
 * `{}` or a failure flag is the provider failing (UNAVAILABLE), never a status
 * for the table's unknown default to turn into a rejection.
 */
function withStatus<T extends { status?: unknown }>(prefix: string, data: unknown, what: string): T {
  if (!isObject(data) || typeof (data as { status?: unknown }).status !== 'string') {
    throw providerFailure(prefix, `resposta do provedor sem ${what} com status`, 'UNAVAILABLE');
  }
  return data as T;
}

export function fromCob(cob: Cob, fallback: { amount?: number; requestedAt?: Date; expirySeconds?: number } = {}): TransactionResult {
  const seconds = Number(cob.calendario?.expiracao ?? fallback.expirySeconds);
  const createdAt = cob.calendario?.criacao ? new Date(cob.calendario.criacao) : fallback.requestedAt;
  const expiresAt = createdAt && !Number.isNaN(createdAt.getTime()) && Number.isFinite(seconds) ? new Date(createdAt.getTime() + seconds * 1000) : undefined;
  return {
    paymentMethod: 'PIX',
    transactionId: cob.txid ?? '',
    status: statusOfCob(cob),
    amount: cents(cob.valor?.original) ?? fallback.amount ?? 0,
    ...(cob.pixCopiaECola ? { pixCode: cob.pixCopiaECola } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** The payout's id as both the answer and the TRANSFER event carry it. */
export const payoutId = (payment: Pick<DictPayment, 'endToEndId' | 'id'>): string | undefined =>
  payment.endToEndId || (payment.id !== undefined && payment.id !== null && payment.id !== '' ? String(payment.id) : undefined);

export function fromDictPayment(payment: DictPayment, options: { amount?: number; approvedAtCreation?: boolean; now?: Date } = {}): WithdrawResult {
  const status: WithdrawStatus = options.approvedAtCreation ? 'APPROVED' : payment.status ? payoutStatus(payment.status) : 'PENDING';
  const eventDate = payment.eventDate ? new Date(payment.eventDate) : undefined;
  const approvedAt = status === 'APPROVED' ? (eventDate && !Number.isNaN(eventDate.getTime()) ? eventDate : (options.now ?? new Date())) : undefined;
  return {
    withdrawId: payoutId(payment) ?? '',
    amount: cents(payment.payment?.amount) ?? options.amount ?? 0,
    status,
    ...(approvedAt ? { approvedAt } : {}),
  };
}

// ------------------------------------------------------------------ notifications

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() ? value.trim() : typeof value === 'number' ? String(value) : undefined;

/** The standard body's entries that belong to a charge. */
function chargedPix(body: Record<string, unknown>): PixReceived[] {
  const list = Array.isArray(body.pix) ? body.pix : [];
  return list.filter((entry): entry is PixReceived => isObject(entry) && text(entry.txid) !== undefined);
}

/**
 * A notification → our result, or undefined for ignored events and bodies that
 * cannot be parsed. Two shapes: the members' {type, data} and the standard {pix: [...]}.
 */
export function readBacenPixNotification(body: Buffer): WebhookResult | undefined {
  const parsed = parseJson(body);
  if (!isObject(parsed)) return undefined;

  if (Array.isArray(parsed.pix)) {
    const pix = chargedPix(parsed)[0];
    return pix ? { type: 'TRANSACTION', transactionId: text(pix.txid)!, status: pixReceivedStatus(pix) } : undefined;
  }

  const type = text(parsed.type)?.toUpperCase();
  const data = isObject(parsed.data) ? (parsed.data as NonNullable<PixEvent['data']>) : undefined;
  if (!type || !data) return undefined;

  if (type === PAYOUT_EVENT) {
    const id = payoutId({ endToEndId: text(data.endToEndId), id: text(data.id) });
    const status = text(data.status);
    return id && status ? { type: 'WITHDRAW', transactionId: id, status: payoutStatus(status) } : undefined;
  }

  const rule = CASH_IN_EVENTS[type];
  const txid = text(data.txId) ?? text(data.txid);
  if (!rule || rule === 'ignore' || !txid) return undefined;
  const status = 'status' in rule ? rule.status : (rule.byDataStatus[text(data.status)?.toUpperCase() ?? ''] ?? rule.otherwise);
  return { type: 'TRANSACTION', transactionId: txid, status };
}

/** What makes one notification distinct from another about the same payment; undefined when the body names nothing. */
export function bacenPixNotificationKey(body: Buffer): string | undefined {
  const parsed = parseJson(body);
  if (!isObject(parsed)) return undefined;
  if (Array.isArray(parsed.pix)) {
    const parts = chargedPix(parsed).map((pix) =>
      [
        text(pix.endToEndId) ?? text(pix.txid),
        ...(pix.devolucoes ?? []).map((devolucao) => `${text(devolucao.id) ?? text(devolucao.rtrId) ?? ''}=${text(devolucao.status) ?? ''}`),
      ].join(','),
    );
    return parts.length ? `bacen-pix:pix:${parts.join(';')}` : undefined;
  }
  const data = isObject(parsed.data) ? parsed.data : undefined;
  const type = text(parsed.type)?.toUpperCase();
  const id = data && (text(data.endToEndId) ?? text(data.id));
  return type && id ? `bacen-pix:${type}:${id}:${text(data.status)?.toUpperCase() ?? ''}` : undefined;
}

// ------------------------------------------------------------------ member declaration

/** How a member refunds a charge. */
export type BacenPixRefund =
  /** POST <path> {amount: reais} (VOLUTI, Podpay, Onz: /sells/{id}/refund). */
  | { kind: 'post'; path: (transactionId: string) => string }
  /** The API Pix devolução: GET /cob/{txid} for the Pix's endToEndId, then PUT /pix/{e2eid}/devolucao/{id} {valor}. */
  | { kind: 'devolucao' };

export interface BacenPixPayout {
  /** A host other than the account's for cash-out (Podpay, Onz). */
  baseUrl?: (ctx: AdapterContext) => string;
  /** Default '/pix/payments/dict'. */
  path?: string;
  /** Default 'x-idempotency-key'. */
  idempotencyHeader?: string;
  /** 'response' (default): PENDING unless the answer says more; 'approved': reported APPROVED at once (Podpay, Onz). */
  statusAtCreation?: 'response' | 'approved';
  /** GET for getWithdraw; omitted means getWithdraw is not offered. */
  lookupPath?: (withdrawId: string) => string;
  /** Cash-out presents the platform's cash-out certificate (default); false where the PSP's cash-out host does not ask for one. */
  mtls?: boolean;
  /** 'Unauthorized.' without the platform record (Podpay, Onz). */
  requirePlatform?: boolean;
}

/** What a member of the family declares: only what differs from the family. */
export interface BacenPixMember {
  id: string;
  aliases?: readonly string[];
  specGroup: string;
  defaultBaseUrl: string;
  /** calendario.expiracao of every cob, in seconds. */
  pixExpirySeconds: number;
  /** Token endpoint and request encoding. Default POST /oauth/token, form body, HTTP Basic client authentication. */
  token?: { path?: string; body?: 'form' | 'json'; clientAuth?: 'body' | 'basic'; scope?: string };
  timeoutMs?: number;
  /** Default: PHONE keys with '+55' (every member the spec names). */
  pixKeyStyle?: PixKeyStyle;
  /** Omitted: refunds not offered. */
  refund?: BacenPixRefund;
  /** Omitted: withdrawals not offered. */
  payout?: BacenPixPayout;
}

/** Per-adapter HTTP settings beyond the member's declaration (tests: no retries, a quiet logger, a CA). */
export type BacenPixHttpOverrides = Pick<ProviderHttpDeclaration, 'retry' | 'logger' | 'ca' | 'timeoutMs' | 'breaker'>;

export const DICT_PAYMENT_PATH = '/pix/payments/dict';
export const IDEMPOTENCY_HEADER = 'x-idempotency-key';
/** Where a member's POST refund lives when it follows the spec's /sells dialect. */
export const sellsRefundPath = (transactionId: string): string => `/sells/${encodeURIComponent(transactionId)}/refund`;
export const dictPaymentLookupPath = (withdrawId: string): string => `/pix/payments/${encodeURIComponent(withdrawId)}`;

/*
 * How the other members would be declared (not registered here; each needs its
 * own base URL and a test against its fake before it is):
 *
 *   export const TREEAL: BacenPixMember = {
 *     id: 'TREEAL', specGroup: 'document 2 (group 2)', defaultBaseUrl: '<TREEAL API host>',
 *     pixExpirySeconds: SECONDS_PER_DAY,
 *     payout: { lookupPath: dictPaymentLookupPath },          // the spec shows no TREEAL refund
 *   };
 *   export const PODPAY: BacenPixMember = {
 *     id: 'PODPAY', specGroup: 'document 3 (group 3)', defaultBaseUrl: '<Podpay API host>',
 *     pixExpirySeconds: SECONDS_PER_DAY,
 *     refund: { kind: 'post', path: sellsRefundPath },
 *     payout: { baseUrl: () => '<Podpay cash-out host>', statusAtCreation: 'approved', requirePlatform: true, mtls: false },
 *   };
 *   export const ONZ: BacenPixMember = {
 *     id: 'ONZ', specGroup: 'document 3 (group 3)', defaultBaseUrl: '<Onz QR-codes host>',
 *     pixExpirySeconds: SECONDS_PER_DAY,
 *     refund: { kind: 'post', path: sellsRefundPath },
 *     payout: { baseUrl: () => '<Onz accounts host>', statusAtCreation: 'approved', requirePlatform: true },
 *   };
 *   export class TreealAdapter extends BacenPixAdapter { constructor() { super(TREEAL); } }
 */

// ------------------------------------------------------------------ the family

/** Bacen's devolução id: [a-zA-Z0-9]{1,35}. */
const newDevolucaoId = (): string => randomUUID().replace(/-/g, '');

export class BacenPixAdapter extends ProviderAdapter {
  readonly identity: ProviderIdentity;

  constructor(
    protected readonly member: BacenPixMember,
    private readonly overrides: BacenPixHttpOverrides = {},
  ) {
    super();
    this.identity = {
      id: member.id,
      aliases: member.aliases ?? [],
      specGroup: member.specGroup,
      paymentMethods: ['PIX'],
      withdrawMethods: member.payout ? ['PIX'] : [],
      defaultBaseUrl: member.defaultBaseUrl,
    };
  }

  /** The family implements every operation it can; a member without refunds or payouts does not offer them. */
  override get operations(): Operation[] {
    const offered: Partial<Record<Operation, boolean>> = {
      refoundTransaction: Boolean(this.member.refund),
      withdraw: Boolean(this.member.payout),
      getWithdraw: Boolean(this.member.payout?.lookupPath),
    };
    return super.operations.filter((operation) => offered[operation] ?? true);
  }

  // Auth and transport: OAuth2 client credentials, both the token request and the calls over the platform's certificate.
  private declaration(): ProviderHttpDeclaration {
    const { token = {} } = this.member;
    return {
      provider: this.member.id,
      timeoutMs: this.member.timeoutMs,
      auth: {
        type: 'oauth2',
        tokenPath: token.path ?? '/oauth/token',
        body: token.body ?? 'form',
        clientAuth: token.clientAuth ?? 'basic',
        scope: token.scope,
        clientId: (account) => bacenPixCredentials(account).clientId,
        clientSecret: (account) => bacenPixCredentials(account).clientSecret,
      },
      ...this.overrides,
    };
  }

  private passphrase = (account: HttpAccount): string => bacenPixCredentials(account).certificatePassphrase ?? '';

  private cashIn(ctx: AdapterContext): ProviderHttp {
    return createProviderHttp({ ...this.declaration(), mtls: { certificate: 'cashIn', passphrase: this.passphrase }, ctx });
  }

  private cashOut(ctx: AdapterContext, payout: BacenPixPayout): ProviderHttp {
    if (payout.requirePlatform && !ctx.platformId) throw catalogueError('UNAUTHORIZED');
    return createProviderHttp({
      ...this.declaration(),
      ...(payout.baseUrl ? { baseUrl: payout.baseUrl(ctx) } : {}),
      ...(payout.mtls === false ? {} : { mtls: { certificate: 'cashOut' as const, passphrase: this.passphrase } }),
      ctx,
    });
  }

  private get pixKeyStyle(): PixKeyStyle {
    return this.member.pixKeyStyle ?? { phonePrefix: '+55' };
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    if (input.paymentMethod !== 'PIX') {
      throw new GatewayError('UNIMPLEMENTED', paymentMethodNotSupportedBy(this.member.id), {
        reason: 'PAYMENT_METHOD_NOT_SUPPORTED',
        field: 'transaction.payment_method',
      });
    }
    const prefix = FAILURE_PREFIXES.CREATE_TRANSACTION;
    const expirySeconds = this.member.pixExpirySeconds;
    const body = toCobRequest(input, { expirySeconds, chave: bacenPixCredentials(ctx).chave });
    const requestedAt = new Date();
    const { data } = await this.cashIn(ctx).post<Cob>('/cob', body, { errorPrefix: prefix });
    const result = fromCob(data ?? {}, { amount: input.amount, requestedAt, expirySeconds });
    if (!result.transactionId) throw providerFailure(prefix, 'a cobrança criada não trouxe txid', 'UNAVAILABLE');
    if (!result.pixCode) throw providerFailure(prefix, `a cobrança ${result.transactionId} não trouxe pixCopiaECola`, 'UNAVAILABLE');
    return { ...result, pixQrCode: await pixQrCodeDataUrl(result.pixCode) };
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = FAILURE_PREFIXES.GET_TRANSACTION;
    const { data } = await this.cashIn(ctx).get<Cob>(`/cob/${encodeURIComponent(transactionId)}`, { errorPrefix: prefix });
    // The id asked for stays the id, whatever the answer echoes.
    return { ...fromCob(withStatus(prefix, data, 'cobrança')), transactionId };
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const refund = this.member.refund;
    if (!refund) throw notImplemented();
    const prefix = FAILURE_PREFIXES.REFUND_TRANSACTION;
    const http = this.cashIn(ctx);
    if (refund.kind === 'post') {
      const { data } = await http.post<Record<string, unknown>>(refund.path(transactionId), { amount: centsToReais(amount) }, { errorPrefix: prefix });
      // An answer that is not an object says nothing about the refund: never "ok".
      const answer = isObject(data) ? data : {};
      const status = text(answer.status)?.toUpperCase();
      const refundId = text(answer.id) ?? text(answer.refundId) ?? text(answer.rtrId) ?? text(answer.endToEndId);
      // An answer with neither a status, an id nor a success flag says nothing about the refund: never "ok".
      if (!status && !refundId && typeof answer.success !== 'boolean')
        throw providerFailure(prefix, 'resposta do provedor sem dados do estorno', 'UNAVAILABLE');
      return {
        // The PSP's own refund id where it gives one; else the charge's, the only id the refund has.
        refundId: refundId ?? transactionId,
        status: answer.success !== false && !(status && REFUND_FAILED.has(status)),
      };
    }
    const { data: cob } = await http.get<Cob>(`/cob/${encodeURIComponent(transactionId)}`, { errorPrefix: prefix });
    const endToEndId = cob?.pix?.find((pix) => pix.endToEndId)?.endToEndId;
    if (!endToEndId) throw providerFailure(prefix, `a cobrança ${transactionId} não tem Pix recebido`, 'FAILED_PRECONDITION');
    const { data } = await http.put<Devolucao>(
      `/pix/${encodeURIComponent(endToEndId)}/devolucao/${newDevolucaoId()}`,
      { valor: centsToReaisString(amount) },
      { errorPrefix: prefix },
    );
    if (!isObject(data)) throw providerFailure(prefix, 'resposta do provedor sem dados da devolução', 'UNAVAILABLE');
    const devolucao: Devolucao = data;
    return { refundId: devolucao.rtrId || devolucao.id || endToEndId, status: !REFUND_FAILED.has(String(devolucao.status ?? '').toUpperCase()) };
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.member.payout;
    if (!payout) throw notImplemented();
    if (input.paymentMethod !== 'PIX') throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    if (!input.pixKey?.trim()) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals');
    const prefix = FAILURE_PREFIXES.WITHDRAW;
    const http = this.cashOut(ctx, payout);
    const idempotencyKey = input.idempotencyKey || input.withdrawReference?.trim() || randomUUID();
    const { data } = await http.post<DictPayment>(payout.path ?? DICT_PAYMENT_PATH, toDictPaymentRequest(input, this.pixKeyStyle), {
      errorPrefix: prefix,
      headers: { [payout.idempotencyHeader ?? IDEMPOTENCY_HEADER]: idempotencyKey },
    });
    const result = fromDictPayment(data ?? {}, { amount: input.amount, approvedAtCreation: payout.statusAtCreation === 'approved' });
    if (!result.withdrawId) throw providerFailure(prefix, 'o pagamento criado não trouxe id nem endToEndId', 'UNAVAILABLE');
    return result;
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const lookupPath = this.member.payout?.lookupPath;
    if (!this.member.payout || !lookupPath) throw notImplemented();
    const prefix = FAILURE_PREFIXES.GET_WITHDRAW;
    const { data } = await this.cashOut(ctx, this.member.payout).get<DictPayment>(lookupPath(withdrawId), { errorPrefix: prefix });
    return { ...fromDictPayment(withStatus(prefix, data, 'pagamento')), withdrawId };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return readBacenPixNotification(notification.body);
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return bacenPixNotificationKey(notification.body) ?? super.notificationKey(ctx, notification);
  }
}
