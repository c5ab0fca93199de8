import { createHash, randomBytes } from 'node:crypto';
import { z } from 'zod';
import type {
  PixPayment,
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { statedPixPayment } from '../../domain/pixPayments.js';
import { digitsOnly } from '../../lib/documents.js';
import { GatewayError } from '../../lib/errors.js';
import type { HttpAccount, OAuth2Auth } from '../../lib/http/index.js';
import { parseJsonObject } from '../../lib/json.js';
import { normalizePixKey, type PixKeyType } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { statusTable } from '../../lib/statusTable.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import { SPEC_GROUPS, type AccountSettings, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { COB_STATUSES } from '../kit/apiPix.js';
import { absentable, wireAmount, wireFact, wireId, wireStatus, wireText } from '../kit/answers.js';
import { credentialPart, parseCredentials } from '../kit/credentials.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, unusableAnswer, type ObjectNotification } from '../kit/declaredAdapter.js';

/**
 * TRANSFEERA (spec doc 2, group 1): the spec shows no paths for group 1, so
 * Transfeera's public API (docs.transfeera.dev, its integrations):
 * - a token from POST <login host>/authorization `{grant_type, client_id,
 *   client_secret}` (JSON) → `{access_token, expires_in}`, the login host being
 *   `login-api.` beside `api.`; every call names the integrator in
 *   `User-Agent: <company> (<contact e-mail>)`;
 * - PIX charges as immediate collections: POST /pix/qrcode/collection/immediate
 *   `{txid, integration_id, pix_key, original_value (reais), expiration (s),
 *   payer{name, document}}` answered `{id, txid, status, emv_payload, …}`;
 * - received PIX: GET /pix/cashin?txid=… `{entries[{id, value, type DEPOSIT |
 *   DEPOSIT_REFUND | PENDING_DEPOSIT_REFUND | CANCELLED_DEPOSIT_REFUND,
 *   end2end_id, txid, …}]}`, refunded by POST /pix/cashin/{end2end_id}/refund
 *   `{value, integration_id}`;
 * - payouts as a batch of one: POST /batch `{name, type TRANSFERENCIA,
 *   auto_close, transfers[{value, integration_id, idempotency_key,
 *   pix_description, destination_bank_account{pix_key_type, pix_key}}]}`, read
 *   by GET /batch/{id}/transfer;
 * - webhooks `{id, version, account_id, object, date, data}` (objects CashIn and
 *   Transfer) signed `Transfeera-Signature: t=<ms>,v1=<hex>`, HMAC-SHA256 over
 *   "<t>.<raw body>" with the secret Transfeera returned when the webhook was
 *   registered;
 * - refusals `{statusCode, error, errorCode, field, message, path}`, whose
 *   `message` reaches the caller.
 */

// ---------------------------------------------------------------- declaration

/**
 * publicKey 'clientId|pixKey|userAgent': the account's own PIX key, which
 * every charge names (payout-only accounts may leave it out), and the
 * `User-Agent` Transfeera asks of every call, the company and a contact
 * e-mail ('Loja Exemplo (dev@loja.example)'); secretKey the client secret.
 */
export const TRANSFEERA_CREDENTIALS = { publicKey: ['clientId', 'pixKey?', 'userAgent?'], secretKey: ['clientSecret'] } as const;

/** Sent when the account names no integrator: Transfeera asks for the company and an e-mail, which only the account holder can give. */
export const TRANSFEERA_FALLBACK_USER_AGENT = 'payment-gateway (Transfeera integration)';

/** "<company> (<e-mail>)", Transfeera's pattern ('Company (contact@company.com)'). */
const USER_AGENT = /^\S.*\(\s*[^\s@()]+@[^\s@()]+\.[^\s@()]+\s*\)$/;

/** The account's User-Agent part, else the gateway's own name. */
export function transfeeraUserAgent(account: Pick<HttpAccount, 'publicKey' | 'secretKey'>): string {
  return parseCredentials(TRANSFEERA_CREDENTIALS, account).userAgent ?? TRANSFEERA_FALLBACK_USER_AGENT;
}

const TOKEN_AUTH: OAuth2Auth = {
  type: 'oauth2',
  tokenPath: '/authorization',
  body: 'json',
  clientAuth: 'body',
  clientId: credentialPart(TRANSFEERA_CREDENTIALS, 'clientId'),
  clientSecret: credentialPart(TRANSFEERA_CREDENTIALS, 'clientSecret'),
};

export const TRANSFEERA: ProviderDeclaration = {
  identity: { id: 'TRANSFEERA', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.transfeera.com' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, refunds: true, webhooks: true },
  auth: TOKEN_AUTH,
  // Transfeera asks every call to name the integrator: the company and a contact e-mail.
  headers: { 'user-agent': transfeeraUserAgent },
  credentials: TRANSFEERA_CREDENTIALS,
  money: 'reais',
  // Its payout body's own default ('Saque solicitado', doc 1 §9), also what the gateway fills in for a caller who gives none.
  payouts: { description: 'requested' },
  // Unverified, not documented: the stand-in's collection-list, refund and batch shapes come from public integrations
  // (Transfeera's reference pages for them could not be read), beside what its own pages say (tests/standins/transfeera.ts).
  sources:
    "Transfeera's documentation (docs.transfeera.dev; the README of its transfeera/contacerta-doc repository): the login host, the JSON client-credentials token `{access_token, expires_in}` and the `User-Agent: <company> (<e-mail>)` every call must carry (Autenticação, and a published copy of that guide; the same User-Agent rule in the contacerta-doc README), the refusal body `{statusCode, error, errorCode, field, message, path}` (Erros), the QR code statuses ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR, REMOVIDA_PELO_PSP (Status dos QR Code), batches that are processed once closed (Lotes, Transferências), the CashIn and Transfer events `{id, version, account_id, object, date, data}` with FINALIZADO, and the CashIn object's `end2end_id` and `payer{name, document, bank{name, ispb}}` kept as the charge's PIX payment (Eventos), `Transfeera-Signature` (t in milliseconds, HMAC-SHA256 over \"t.body\", v1 only: Verificação da assinatura); /pix/qrcode/collection/immediate and its fields, /pix/cashin with its entry types and refund, /batch with auto_close and /batch/{id}/transfer, the transfer statuses other than FINALIZADO: Transfeera's integrations (research), the reference pages behind them not being readable; cob statuses: document 1 §4 (ATIVA, CONCLUIDA, REMOVIDA_PELO_PSP); the txid carrying the amount, the batch id as the payout id, a charge REFUNDED once its refunds cover the deposit, refunds named by the caller's idempotency key, the 5-minute signature window: the gateway's decision",
};

export const TRANSFEERA_PATHS = {
  charge: '/pix/qrcode/collection/immediate',
  cashIn: '/pix/cashin',
  refund: '/pix/cashin/{id}/refund',
  batch: '/batch',
  batchTransfers: '/batch/{id}/transfer',
} as const;

/** The login host for an account's base URL: `api.` becomes `login-api.` (sandbox `api-sandbox.` → `login-api-sandbox.`); any other base URL (a proxy, a test) takes the token at its own /authorization. */
export function transfeeraTokenUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  const login = base.replace(/^(https:\/\/)(api(?:-sandbox)?\.transfeera\.com)$/i, '$1login-$2');
  return `${login}/authorization`;
}

// ---------------------------------------------------------------- wire

/** The immediate collection POST /pix/qrcode/collection/immediate answers: its QR code id, the txid, the status and the copy-and-paste code. */
export const transfeeraCollection = z.object({
  id: absentable(wireId),
  txid: absentable(wireText),
  status: absentable(wireStatus),
  emv_payload: wireText,
  original_value: absentable(wireAmount),
});
export type TransfeeraCollection = z.output<typeof transfeeraCollection>;

/** A received PIX's payer (Eventos, CashIn): name, document (CPF/CNPJ) and bank; its account is not kept. */
const cashInPayer = absentable(
  z.object({ name: wireFact, document: wireFact, bank: absentable(z.object({ name: wireFact, ispb: wireFact })).catch(undefined) }),
).catch(undefined);

/** One received PIX (a deposit) or a refund of one, as the cash-in list shows it: the CashIn event's object. */
const cashInEntry = z.object({
  id: absentable(wireId),
  value: absentable(wireAmount),
  type: absentable(wireText),
  end2end_id: absentable(wireText),
  txid: absentable(wireText),
  payer: cashInPayer,
});
export type TransfeeraCashInEntry = z.output<typeof cashInEntry>;

/** GET /pix/cashin: the entries under `entries` (with `pagination`), or a bare list. */
export const transfeeraCashInList = z
  .union([z.object({ entries: z.array(cashInEntry) }), z.array(cashInEntry)])
  .transform((list) => (Array.isArray(list) ? list : list.entries));

/** The answer to a refund of a received PIX: an object, its id where it names one. */
export const transfeeraRefundAnswer = z.object({ id: absentable(wireId) });

/** The batch POST /batch answers: its id is the payout's. */
export const transfeeraBatch = z.object({ id: wireId });

const batchTransfer = z.object({ status: wireStatus, value: absentable(wireAmount) });

/** GET /batch/{id}/transfer: the batch's one transfer, in a list, bare or under `data` or `entries`. */
export const transfeeraBatchTransfers = z
  .union([z.array(batchTransfer), z.object({ data: z.array(batchTransfer) }), z.object({ entries: z.array(batchTransfer) })])
  .transform((answer) => (Array.isArray(answer) ? answer : 'data' in answer ? answer.data : answer.entries))
  .refine((transfers) => transfers.length === 1);

/** A webhook: the event envelope, its object named; CashIn carries the charge's txid, Transfer the payout's batch and status. */
export const transfeeraNotification = z.discriminatedUnion('object', [
  z.object({
    id: absentable(wireText),
    object: z.literal('CashIn'),
    data: z.object({ txid: wireText, type: absentable(wireText), end2end_id: wireFact, payer: cashInPayer }),
  }),
  z.object({ id: absentable(wireText), object: z.literal('Transfer'), data: z.object({ batch_id: wireId, status: wireStatus }) }),
]);

// ---------------------------------------------------------------- statuses

/** A collection's status: the BACEN cob words document 1 §4 names (ATIVA and REMOVIDA_PELO_PSP PENDING, CONCLUIDA APPROVED). */
export const TRANSFEERA_STATUSES = COB_STATUSES;

/**
 * A transfer's status, by document 1 §4's withdraw rule: CRIADA, RECEBIDO,
 * AGENDADO still on their way; TRANSFERIDO (transferred) and FINALIZADO paid;
 * FALHA and DEVOLVIDO (returned) REJECTED; unknown PENDING, as for every
 * payout: a payout wrongly recorded as failed could be paid twice.
 */
export const TRANSFEERA_TRANSFER_STATUSES = statusTable<WithdrawStatus>(
  {
    ...{ CRIADA: 'PENDING', CRIADO: 'PENDING', RECEBIDO: 'PENDING', AGENDADO: 'PENDING' },
    ...{ TRANSFERIDO: 'APPROVED', FINALIZADO: 'APPROVED' },
    ...{ FALHA: 'REJECTED', DEVOLVIDO: 'REJECTED', CANCELADO: 'CANCELED' },
  },
  'PENDING',
);

// ---------------------------------------------------------------- the charge's txid

/**
 * The charge's txid, chosen by the gateway (BACEN: 26–35 letters and digits):
 * 'gw', the amount in cents, 'x', random letters and digits up to 35. The
 * amount rides in it because Transfeera's cash-in list knows only received
 * PIX: an unpaid charge is read back as PENDING for the amount its txid names.
 */
export function transfeeraTxid(cents: number): string {
  const head = `gw${cents}x`;
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  const tail = [...randomBytes(35 - head.length)].map((byte) => alphabet[byte % alphabet.length]).join('');
  return head + tail;
}

/** The amount a gateway txid names, or undefined for a txid of another making. */
export function transfeeraTxidAmount(txid: string): number | undefined {
  const match = /^gw(\d{1,12})x[a-z0-9]+$/.exec(txid);
  return match && txid.length <= 35 ? Number(match[1]) : undefined;
}

// ---------------------------------------------------------------- wire: requests

/** POST /pix/qrcode/collection/immediate: a BACEN txid (26 to 35 letters and digits), `original_value` in reais, `expiration` in seconds. */
export const transfeeraChargeRequest = z.object({
  txid: z.string().regex(/^[a-zA-Z0-9]{26,35}$/),
  integration_id: z.string().min(1),
  pix_key: z.string().min(1),
  original_value: z.number().positive(),
  expiration: z.number().int().positive(),
  payer_question: z.string().optional(),
  payer: z.object({ name: z.string(), document: z.string().regex(/^\d*$/) }).optional(),
});
export type TransfeeraChargeRequest = z.infer<typeof transfeeraChargeRequest>;

/** Transfeera's key type names (its API is in Portuguese). */
const transfeeraKeyType = z.enum(['CPF', 'CNPJ', 'EMAIL', 'TELEFONE', 'CHAVE_ALEATORIA']);

/** POST /batch: a batch of one PIX transfer, auto-closed; `value` in reais. */
export const transfeeraBatchRequest = z.object({
  name: z.string().min(1),
  type: z.literal('TRANSFERENCIA'),
  auto_close: z.literal(true),
  transfers: z
    .array(
      z.object({
        value: z.number().positive(),
        integration_id: z.string().min(1),
        idempotency_key: z.string().min(1),
        pix_description: z.string().min(1),
        destination_bank_account: z.object({ pix_key_type: transfeeraKeyType, pix_key: z.string().min(1) }),
      }),
    )
    .length(1),
});
export type TransfeeraBatchRequest = z.infer<typeof transfeeraBatchRequest>;

/** POST /pix/cashin/{end2end_id}/refund: `value` in reais, `integration_id` the refund's own name. */
export const transfeeraRefundRequest = z.object({ value: z.number().nonnegative(), integration_id: z.string().min(1) });
export type TransfeeraRefundRequest = z.infer<typeof transfeeraRefundRequest>;

// ---------------------------------------------------------------- request mappers

export const toTransfeeraCharge = (
  input: TransactionInput,
  terms: { txid: string; pixKey: string; value: number; expirySeconds: number },
): TransfeeraChargeRequest => ({
  txid: terms.txid,
  integration_id: input.orderId?.trim() || terms.txid,
  pix_key: terms.pixKey,
  original_value: terms.value,
  expiration: terms.expirySeconds,
  ...(input.description ? { payer_question: input.description } : {}),
  ...(input.customer ? { payer: { name: input.customer.name, document: digitsOnly(input.customer.document) } } : {}),
});

/** Transfeera's key type names (its API is in Portuguese): TELEFONE, CHAVE_ALEATORIA. */
const KEY_TYPES: Readonly<Record<PixKeyType, z.infer<typeof transfeeraKeyType>>> = {
  CPF: 'CPF',
  CNPJ: 'CNPJ',
  EMAIL: 'EMAIL',
  PHONE: 'TELEFONE',
  RANDOM: 'CHAVE_ALEATORIA',
};

export function toTransfeeraBatch(
  input: WithdrawInput & { pixKey: string; pixType: PixKeyType },
  terms: { value: number; reference: string },
): TransfeeraBatchRequest {
  return {
    name: `Saque ${terms.reference}`,
    type: 'TRANSFERENCIA',
    auto_close: true,
    transfers: [
      {
        value: terms.value,
        integration_id: terms.reference,
        idempotency_key: terms.reference,
        pix_description: input.description?.trim() || defaultWithdrawDescription(input.amount, 'requested'),
        destination_bank_account: { pix_key_type: KEY_TYPES[input.pixType], pix_key: normalizePixKey(input.pixKey, input.pixType, { phonePrefix: '+55' }) },
      },
    ],
  };
}

/** A refund of `value` (reais) of a received PIX, named by `integration_id`. */
export const toTransfeeraRefund = (value: number, integrationId: string): TransfeeraRefundRequest => ({ value, integration_id: integrationId });

/**
 * A refund's `integration_id`: derived from the key the gateway runs the
 * refund under, so a retried refund names the same refund; a random one only
 * when there is no key.
 */
export function transfeeraRefundIntegrationId(transactionId: string, idempotencyKey?: string): string {
  const key = idempotencyKey?.trim();
  const tail = key ? createHash('sha256').update(`${transactionId}\0${key}`).digest('hex').slice(0, 16) : randomBytes(8).toString('hex');
  return `${transactionId}-r${tail}`;
}

// ---------------------------------------------------------------- response mappers

const DONE_REFUND = 'DEPOSIT_REFUND';

/**
 * A charge read from the PIX received for its txid: no deposit yet, PENDING;
 * a deposit, APPROVED; REFUNDED only once its settled refunds (DEPOSIT_REFUND)
 * cover the deposit: a partial refund leaves the charge APPROVED, with the
 * rest still refundable. Pending or cancelled refunds change nothing.
 */
export function transfeeraChargeState(
  entries: readonly TransfeeraCashInEntry[],
  txid: string,
  toCents: (value: string | number) => number | undefined,
): { status: TransactionStatus; depositCents?: number; pixPayment?: PixPayment } {
  const ours = entries.filter((entry) => entry.txid === txid);
  const deposit = ours.find((entry) => (entry.type ?? 'DEPOSIT').toUpperCase() === 'DEPOSIT');
  if (!deposit) return { status: 'PENDING' };
  const depositCents = deposit.value === undefined ? undefined : toCents(deposit.value);
  const refunded = ours
    .filter((entry) => entry.type?.toUpperCase() === DONE_REFUND)
    // A refund whose value cannot be read is counted whole: never refund the same money twice.
    .reduce((sum, entry) => sum + ((entry.value === undefined ? undefined : toCents(entry.value)) ?? Number.POSITIVE_INFINITY), 0);
  const whole = depositCents !== undefined && refunded >= depositCents;
  return { status: whole ? 'REFUNDED' : 'APPROVED', ...(depositCents !== undefined ? { depositCents } : {}), ...transfeeraPixPayment(deposit) };
}

/** A received PIX's end-to-end id and payer (the CashIn object's `end2end_id` and `payer`). */
const transfeeraPixPayment = (received: { end2end_id?: string; payer?: z.output<typeof cashInPayer> }) =>
  statedPixPayment({
    endToEndId: received.end2end_id,
    payerName: received.payer?.name,
    payerDocument: received.payer?.document,
    payerBankName: received.payer?.bank?.name,
    payerBankIspb: received.payer?.bank?.ispb,
  });

/**
 * A webhook: CashIn (a received PIX: the charge's txid, APPROVED, its end-to-end id and payer) or Transfer (the
 * payout's batch and the transfer's status); its event id.
 */
export function readTransfeeraWebhook(body: Buffer): (ObjectNotification & { eventId?: string }) | undefined {
  const parsed = transfeeraNotification.safeParse(parseJsonObject(body));
  if (!parsed.success) return undefined;
  const event = parsed.data;
  const eventId = event.id ? { eventId: event.id } : {};
  if (event.object === 'CashIn')
    return event.data.type === undefined || event.data.type === 'DEPOSIT'
      ? { kind: 'transaction', id: event.data.txid, status: 'CONCLUIDA', ...eventId, ...transfeeraPixPayment(event.data) }
      : undefined;
  return { kind: 'withdrawal', id: event.data.batch_id, status: event.data.status, ...eventId };
}

// ---------------------------------------------------------------- operations

export class TransfeeraAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = TRANSFEERA, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: TRANSFEERA_STATUSES, withdrawalStatuses: TRANSFEERA_TRANSFER_STATUSES });
  }

  /** The layout, and a User-Agent part that names the company and an e-mail, as Transfeera asks. */
  override checkAccount(account: AccountSettings): void {
    super.checkAccount(account);
    const userAgent = parseCredentials(TRANSFEERA_CREDENTIALS, account).userAgent;
    if (userAgent !== undefined && !USER_AGENT.test(userAgent))
      throw new GatewayError('INVALID_ARGUMENT', "TRANSFEERA's User-Agent names the company and a contact e-mail: 'Company (contact@company.com)'", {
        reason: 'CREDENTIALS_FORMAT',
        field: 'public_key',
      });
  }

  /** The provider's client with the token taken from the login host of this account's base URL. */
  private client(ctx: AdapterContext) {
    return this.http(ctx, { auth: { ...TOKEN_AUTH, tokenPath: transfeeraTokenUrl(ctx.baseUrl) } });
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const { pixKey } = parseCredentials(TRANSFEERA_CREDENTIALS, ctx);
    if (!pixKey)
      throw new GatewayError('FAILED_PRECONDITION', "TRANSFEERA charges need the account's PIX key: set the public key to 'clientId|pixKey'", {
        reason: 'CREDENTIALS_MISSING',
        field: 'public_key',
      });
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const txid = transfeeraTxid(input.amount);
    const body = toTransfeeraCharge(input, { txid, pixKey, value: this.toProviderAmount(input.amount), expirySeconds: this.pixExpirySeconds });
    const collection = await this.exchange('createTransaction', prefix, () => this.client(ctx).post(TRANSFEERA_PATHS.charge, body), transfeeraCollection);
    const result = this.mapped('createTransaction', prefix, (): TransactionResult => {
      // Another txid would be another charge: its notifications would never reach this one.
      if (collection.txid !== undefined && collection.txid !== txid) unusableAnswer('txid da cobrança');
      return {
        paymentMethod: 'PIX',
        transactionId: txid,
        status: this.transactionStatus(collection.status ?? 'ATIVA'),
        amount: this.amountOr(collection.original_value, input.amount, 'valor da cobrança'),
        pixCode: collection.emv_payload,
        expiresAt,
      };
    });
    return pixCodeOnly(result);
  }

  /** The PIX received for this txid (see transfeeraChargeState); none yet, PENDING for the amount the txid names. */
  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const entries = await this.cashIn(ctx, 'getTransaction', prefix, transactionId);
    return this.mapped('getTransaction', prefix, (): TransactionResult => {
      const { status, depositCents, pixPayment } = transfeeraChargeState(entries, transactionId, (value) => this.optionalProviderAmount(value));
      const amount = status === 'PENDING' ? transfeeraTxidAmount(transactionId) : depositCents;
      const read = { paymentMethod: 'PIX', transactionId, status } as const;
      return {
        ...read,
        amount: amount ?? unusableAnswer(status === 'PENDING' ? 'PIX recebido' : 'valor do PIX recebido'),
        ...(pixPayment ? { pixPayment } : {}),
      };
    });
  }

  /** A refund returns the received PIX: its end2end_id is read first; the refund is named by the gateway's idempotency key. */
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number, idempotencyKey?: string): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const entries = await this.cashIn(ctx, 'refoundTransaction', prefix, transactionId);
    const endToEnd = entries.find((entry) => entry.txid === transactionId && (entry.type ?? 'DEPOSIT').toUpperCase() === 'DEPOSIT')?.end2end_id;
    if (!endToEnd)
      throw new GatewayError('FAILED_PRECONDITION', `no PIX has been received for ${transactionId}: there is nothing to refund`, {
        field: 'transaction_id',
        reason: 'NO_PIX_RECEIVED',
      });
    const integrationId = transfeeraRefundIntegrationId(transactionId, idempotencyKey);
    const answer = await this.exchange(
      'refoundTransaction',
      prefix,
      () => this.client(ctx).post(fillPath(TRANSFEERA_PATHS.refund, { id: endToEnd }), toTransfeeraRefund(this.toProviderAmount(amount), integrationId)),
      transfeeraRefundAnswer,
    );
    return { refundId: answer.id ?? integrationId, status: true };
  }

  private cashIn(ctx: AdapterContext, operation: 'getTransaction' | 'refoundTransaction', prefix: string, txid: string) {
    return this.exchange(operation, prefix, () => this.client(ctx).get(TRANSFEERA_PATHS.cashIn, { params: { txid } }), transfeeraCashInList);
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const reference = input.withdrawReference?.trim() || input.idempotencyKey?.trim() || randomBytes(16).toString('hex');
    const body = toTransfeeraBatch(payout, { value: this.toProviderAmount(input.amount), reference });
    const batch = await this.exchange('withdraw', this.prefixFor('withdraw'), () => this.client(ctx).post(TRANSFEERA_PATHS.batch, body), transfeeraBatch);
    return { withdrawId: batch.id, status: 'PENDING', amount: input.amount };
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const [transfer] = await this.exchange(
      'getWithdraw',
      prefix,
      () => this.client(ctx).get(fillPath(TRANSFEERA_PATHS.batchTransfers, { id: withdrawId })),
      transfeeraBatchTransfers,
    );
    return this.mapped('getWithdraw', prefix, () => ({
      withdrawId,
      status: this.withdrawalStatus(transfer!.status),
      amount: this.amountOr(transfer!.value, undefined, 'valor da transferência'),
    }));
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readTransfeeraWebhook(notification.body));
  }

  /** Transfeera's event id where the envelope has one. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.eventNotificationKey(readTransfeeraWebhook(notification.body), ctx, notification);
  }

  /** With the account's webhook secret (Transfeera's signature_secret): `Transfeera-Signature: t=<ms>,v1=<hex>` over "<t>.<raw body>", within 5 minutes of arrival. */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    return this.timestampedBodyVerdict(ctx, notification, 'transfeera-signature', { timestampUnit: 'milliseconds' });
  }
}
