import { randomBytes } from 'node:crypto';
import type {
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
import { GatewayError } from '../../lib/errors.js';
import type { OAuth2Auth } from '../../lib/http/index.js';
import { isRecord, parseJsonObject } from '../../lib/json.js';
import { normalizePixKey, type PixKeyType } from '../../lib/pixKey.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { statusTable } from '../../lib/statusTable.js';
import { idText, textOf } from '../../lib/values.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { COB_STATUSES } from '../kit/apiPix.js';
import { credentialPart } from '../kit/credentials.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, unusableAnswer } from '../kit/declaredAdapter.js';

/**
 * TRANSFEERA (spec doc 2, group 1): the spec shows no paths for group 1, so
 * Transfeera's public API (official pages on authentication and webhook
 * signatures, its integrations; provider research):
 * - a token from POST <login host>/authorization `{grant_type, client_id,
 *   client_secret}` (JSON), the login host being `login-api.` beside `api.`;
 * - PIX charges as immediate collections: POST /pix/qrcode/collection/immediate
 *   `{txid, integration_id, pix_key, original_value (reais), expiration (s),
 *   payer{name, document}}` answered `{id, txid, status, emv_payload, …}`;
 * - received PIX: GET /pix/cashin?txid=… `{entries[{id, value, type DEPOSIT |
 *   DEPOSIT_REFUND, end2end_id, txid, …}]}`, refunded by POST
 *   /pix/cashin/{end2end_id}/refund `{value, integration_id}`;
 * - payouts as a batch of one: POST /batch `{name, type TRANSFERENCIA,
 *   auto_close, transfers[{value, integration_id, idempotency_key,
 *   pix_description, destination_bank_account{pix_key_type, pix_key}}]}`, read
 *   by GET /batch/{id}/transfer;
 * - webhooks `{id, version, account_id, object, date, data}` (objects CashIn and
 *   Transfer) signed `Transfeera-Signature: t=<ms>,v1=<hex>`, HMAC-SHA256 over
 *   "<t>.<raw body>" with the secret Transfeera returned when the webhook was
 *   registered.
 */

// ---------------------------------------------------------------- declaration

/** publicKey 'clientId|pixKey' (the account's own PIX key, which every charge names; payout-only accounts may leave it out), secretKey the client secret. */
export const TRANSFEERA_CREDENTIALS = { publicKey: ['clientId', 'pixKey?'], secretKey: ['clientSecret'] } as const;

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
  // Transfeera asks every caller to name itself in User-Agent.
  headers: { 'user-agent': { fixed: 'payment-gateway (Transfeera integration)' } },
  credentials: TRANSFEERA_CREDENTIALS,
  money: 'reais',
  // Its payout body's own default ('Saque solicitado', doc 1 §9), also what the gateway fills in for a caller who gives none.
  payouts: { description: 'requested' },
  sources:
    'login host and JSON client-credentials token, `Transfeera-Signature` (t in milliseconds, HMAC-SHA256 over "t.body", v1 only): research (docs.transfeera.dev, authentication and signature pages); /pix/qrcode/collection/immediate and its fields, /pix/cashin and its refund, /batch and /batch/{id}/transfer, transfer statuses, the webhook envelope: research (Transfeera integrations); cob statuses: document 1 §4 (ATIVA, CONCLUIDA, REMOVIDA_PELO_PSP); the txid carrying the amount, the batch id as the payout id, the 5-minute signature window: the gateway\'s decision',
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

// ---------------------------------------------------------------- request mappers

export const toTransfeeraCharge = (input: TransactionInput, terms: { txid: string; pixKey: string; value: number; expirySeconds: number }) => ({
  txid: terms.txid,
  integration_id: input.orderId?.trim() || terms.txid,
  pix_key: terms.pixKey,
  original_value: terms.value,
  expiration: terms.expirySeconds,
  ...(input.description ? { payer_question: input.description } : {}),
  ...(input.customer ? { payer: { name: input.customer.name, document: digitsOnly(input.customer.document) } } : {}),
});

/** Transfeera's key type names (its API is in Portuguese): TELEFONE, CHAVE_ALEATORIA. */
const KEY_TYPES: Record<PixKeyType, string> = { CPF: 'CPF', CNPJ: 'CNPJ', EMAIL: 'EMAIL', PHONE: 'TELEFONE', RANDOM: 'CHAVE_ALEATORIA' };

export function toTransfeeraBatch(input: WithdrawInput & { pixKey: string; pixType: PixKeyType }, terms: { value: number; reference: string }) {
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

// ---------------------------------------------------------------- readers

interface CashInEntry {
  value?: unknown;
  type?: unknown;
  end2end_id?: unknown;
  txid?: unknown;
}

/** The received PIX of a cash-in listing (`{entries: […]}` or a bare list) carrying this txid. */
function cashInEntries(answer: unknown, txid: string): CashInEntry[] | undefined {
  const list = Array.isArray(answer) ? answer : isRecord(answer) && Array.isArray(answer.entries) ? answer.entries : undefined;
  return list?.filter((entry): entry is CashInEntry => isRecord(entry) && textOf(entry.txid) === txid);
}

/** The single transfer of a batch (`[…]` or `{data: […]}`/`{entries: […]}`). */
function batchTransfer(answer: unknown): { status: string; value?: unknown } | undefined {
  const list = Array.isArray(answer)
    ? answer
    : isRecord(answer)
      ? Array.isArray(answer.data)
        ? answer.data
        : Array.isArray(answer.entries)
          ? answer.entries
          : undefined
      : undefined;
  const transfer = list?.length === 1 && isRecord(list[0]) ? list[0] : undefined;
  const status = transfer ? textOf(transfer.status) : undefined;
  return transfer && status ? { status, value: transfer.value } : undefined;
}

/** A webhook: CashIn (a received PIX: the charge's txid, APPROVED) or Transfer (the payout's batch and the transfer's status); its event id. */
export function readTransfeeraWebhook(
  body: Buffer,
): { eventId?: string; kind: 'transaction' | 'withdrawal'; id: string; status: string; deposit?: true } | undefined {
  const event = parseJsonObject(body);
  const data = event && isRecord(event.data) ? event.data : undefined;
  if (!event || !data) return undefined;
  const eventId = idText(event.id);
  if (event.object === 'CashIn') {
    const txid = textOf(data.txid);
    return txid && (data.type === undefined || data.type === 'DEPOSIT')
      ? { eventId, kind: 'transaction', id: txid, status: 'CONCLUIDA', deposit: true }
      : undefined;
  }
  if (event.object === 'Transfer') {
    const batchId = idText(data.batch_id);
    const status = textOf(data.status);
    return batchId && status ? { eventId, kind: 'withdrawal', id: batchId, status } : undefined;
  }
  return undefined;
}

// ---------------------------------------------------------------- operations

export class TransfeeraAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = TRANSFEERA, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: TRANSFEERA_STATUSES, withdrawalStatuses: TRANSFEERA_TRANSFER_STATUSES });
  }

  /** The provider's client with the token taken from the login host of this account's base URL. */
  private client(ctx: AdapterContext) {
    return this.http(ctx, { auth: { ...TOKEN_AUTH, tokenPath: transfeeraTokenUrl(ctx.baseUrl) } });
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const { pixKey } = this.credentials(ctx) as { pixKey?: string };
    if (!pixKey)
      throw new GatewayError('FAILED_PRECONDITION', "TRANSFEERA charges need the account's PIX key: set the public key to 'clientId|pixKey'", {
        reason: 'CREDENTIALS_MISSING',
        field: 'public_key',
      });
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const txid = transfeeraTxid(input.amount);
    const body = toTransfeeraCharge(input, { txid, pixKey, value: this.toProviderAmount(input.amount), expirySeconds: this.pixExpirySeconds });
    const answer = await this.exchange('createTransaction', prefix, () => this.client(ctx).post<unknown>(TRANSFEERA_PATHS.charge, body));
    const result = this.mapped('createTransaction', prefix, (): TransactionResult => {
      const collection = isRecord(answer) ? answer : {};
      const pixCode = textOf(collection.emv_payload) ?? unusableAnswer('emv_payload da cobrança');
      if (textOf(collection.txid) && textOf(collection.txid) !== txid) unusableAnswer('txid da cobrança');
      return {
        paymentMethod: 'PIX',
        transactionId: txid,
        status: this.transactionStatus(textOf(collection.status) ?? 'ATIVA'),
        amount: this.amountOr(collection.original_value, input.amount, 'valor da cobrança'),
        pixCode,
        expiresAt,
      };
    });
    return withPixQrImage(result);
  }

  /** The PIX received for this txid: a deposit is APPROVED (refunded when a deposit refund follows); none yet, PENDING for the amount the txid names. */
  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const entries = await this.cashIn(ctx, 'getTransaction', prefix, transactionId);
    return this.mapped('getTransaction', prefix, (): TransactionResult => {
      const deposit = entries.find((entry) => entry.type === 'DEPOSIT');
      const refunded = entries.some((entry) => entry.type === 'DEPOSIT_REFUND');
      const status: TransactionStatus = deposit ? (refunded ? 'REFUNDED' : 'APPROVED') : 'PENDING';
      const amount = deposit
        ? this.amountOr(deposit.value, undefined, 'valor do PIX recebido')
        : (transfeeraTxidAmount(transactionId) ?? unusableAnswer('PIX recebido'));
      return { paymentMethod: 'PIX', transactionId, status, amount };
    });
  }

  /** A refund returns the received PIX: its end2end_id is read first. */
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const entries = await this.cashIn(ctx, 'refoundTransaction', prefix, transactionId);
    const endToEnd = this.mapped('refoundTransaction', prefix, () => textOf(entries.find((entry) => entry.type === 'DEPOSIT')?.end2end_id));
    if (!endToEnd)
      throw new GatewayError('FAILED_PRECONDITION', `no PIX has been received for ${transactionId}: there is nothing to refund`, { field: 'transaction_id' });
    const integrationId = `${transactionId}-r${randomBytes(4).toString('hex')}`;
    const answer = await this.exchange('refoundTransaction', prefix, () =>
      this.client(ctx).post<unknown>(fillPath(TRANSFEERA_PATHS.refund, { id: endToEnd }), {
        value: this.toProviderAmount(amount),
        integration_id: integrationId,
      }),
    );
    return this.mapped('refoundTransaction', prefix, () => ({ refundId: (isRecord(answer) ? idText(answer.id) : undefined) ?? integrationId, status: true }));
  }

  private async cashIn(ctx: AdapterContext, operation: 'getTransaction' | 'refoundTransaction', prefix: string, txid: string) {
    const answer = await this.exchange(operation, prefix, () => this.client(ctx).get<unknown>(TRANSFEERA_PATHS.cashIn, { params: { txid } }));
    return this.mapped(operation, prefix, () => cashInEntries(answer, txid) ?? unusableAnswer('lista de PIX recebidos'));
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const reference = input.withdrawReference?.trim() || input.idempotencyKey?.trim() || randomBytes(16).toString('hex');
    const body = toTransfeeraBatch(payout, { value: this.toProviderAmount(input.amount), reference });
    const prefix = this.prefixFor('withdraw');
    const answer = await this.exchange('withdraw', prefix, () => this.client(ctx).post<unknown>(TRANSFEERA_PATHS.batch, body));
    return this.mapped('withdraw', prefix, (): WithdrawResult => {
      const batchId = (isRecord(answer) ? idText(answer.id) : undefined) ?? unusableAnswer('id do lote');
      return { withdrawId: batchId, status: 'PENDING', amount: input.amount };
    });
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const answer = await this.exchange('getWithdraw', prefix, () =>
      this.client(ctx).get<unknown>(fillPath(TRANSFEERA_PATHS.batchTransfers, { id: withdrawId })),
    );
    return this.mapped('getWithdraw', prefix, () => {
      const transfer = batchTransfer(answer) ?? unusableAnswer('transferência do lote');
      return { withdrawId, status: this.withdrawalStatus(transfer.status), amount: this.amountOr(transfer.value, undefined, 'valor da transferência') };
    });
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
