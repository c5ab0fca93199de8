import { z } from 'zod';
import { statedPixPayment } from '../../domain/pixPayments.js';
import type { RefundedCharge, RefundResult, TransactionInput, TransactionResult, TransactionStatus, WebhookResult } from '../../domain/types.js';
import { safeEqualText } from '../../lib/constantTime.js';
import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import type { ProviderHttp, ProviderResponse } from '../../lib/http/index.js';
import { parseJsonObject } from '../../lib/json.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { providerFailure } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { absentable, parseAnswer, wireId, wireStatus, wireText, type AnswerSchema } from '../kit/answers.js';
import type { AdapterRuntime, ProviderDeclaration } from '../kit/declaration.js';
import { LoginTokenAdapter, type LoginStyle } from '../kit/loginSession.js';
import { MASKED_SECRET, maskedJsonField } from '../kit/bodySecrets.js';
import { notificationKeyOf } from '../notificationKeys.js';

/**
 * FLOW2PAY (spec doc 3, group 3): a bespoke PIX dialect. What the spec says:
 * POST login (clientId, clientSecret), POST /qrcode/v2/gerar {valor,
 * tempoExpiracao, comImagem}, POST /pix/v1/transferir-reverso {endToEnd, valor}
 * (§7); webhook PixIn APPROVED, PixInReversal CHARGEBACK, otherwise PENDING
 * (§4); both keys required, PIX only (§5); 'Failed to authenticate with
 * Flow2Pay', 'Erro ao criar transação PIX', 'Erro ao solicitar devolução' (§8);
 * PIX valid 24 hours, 86400 s (§9).
 *
 * From the provider research (groups 3–4, F9: the Sants Bank integration, the
 * same paths): the login path /no-auth/autenticacao/v1/api/login answered
 * `{sucesso, accessToken}` (sent as Bearer), `valor` in cents, `comImagem:
 * true`, `informacaoAdicional`, the answer `{sucesso, mensagem, txId | txid,
 * qrcode{imagem, emv}}`, errors `{mensagem}` or `{erro{motivo, mensagem}}`, and
 * the webhook's `token` field, which the receiver compares with a configured
 * value. The rest is the gateway's decision (docs/decisions.md): no read call
 * (none is shown anywhere), the notification's field names, the refund's answer.
 */

// ---------------------------------------------------------------- declaration

/** publicKey: the clientId; secretKey: the clientSecret. Both required (§5, the kit's texts: the spec gives none). */
export const FLOW2PAY_CREDENTIALS = { publicKey: ['clientId'], secretKey: ['clientSecret'] } as const;

export type Flow2payDeclaration = ProviderDeclaration & { credentials: typeof FLOW2PAY_CREDENTIALS };

export const FLOW2PAY: Flow2payDeclaration = {
  // The research's host (the Sants Bank deployment of the same API): an account sets its base_url.
  identity: { id: 'FLOW2PAY', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.pix.santsbank.com.br' },
  // No read call: neither the spec nor the research shows one (docs/decisions.md).
  capabilities: { paymentMethods: ['PIX'], transactionLookup: false, refunds: true, webhooks: true },
  // The bearer token comes from the login call (kit/loginSession.ts), not from a declared style.
  auth: { type: 'none' },
  credentials: FLOW2PAY_CREDENTIALS,
  money: 'cents',
  expiry: { pixSeconds: SECONDS_PER_DAY },
  failurePrefixes: { createTransaction: 'CREATE_PIX_TRANSACTION', refoundTransaction: 'REQUEST_REFUND' },
  evidence: { level: 'third-party' },
  sources:
    "paths, both keys, PIX only, PixIn/PixInReversal, 24-hour PIX, the three texts: spec (doc 3 §4/§5/§7/§8/§9); login path and `{accessToken}` as Bearer, `valor` in cents, `comImagem`, `informacaoAdicional`, `{sucesso, txId, qrcode{imagem, emv}}`, `{mensagem}` errors, the webhook's `token`: research (F9, the Sants Bank integration); no read call, webhook field names (a PixIn's `endToEndId` kept as the charge's), the refund's `endToEnd` being the stored end-to-end id (else the charge's id), refund answer: gateway's decision; host: the research's Sants Bank host",
};

export const FLOW2PAY_PATHS = {
  login: '/no-auth/autenticacao/v1/api/login',
  create: '/qrcode/v2/gerar',
  refund: '/pix/v1/transferir-reverso',
} as const;

// ---------------------------------------------------------------- wire

/** Body of POST /qrcode/v2/gerar (§7, F9). */
export const FLOW2PAY_QRCODE_REQUEST = z.object({
  valor: z.number().int().positive(),
  tempoExpiracao: z.number().int().positive(),
  comImagem: z.literal(true),
  informacaoAdicional: z.string().optional(),
});
export type QrCodeRequest = z.infer<typeof FLOW2PAY_QRCODE_REQUEST>;

/** The provider's words in a refusal: a text of the wrong type is no reason to lose the refusal itself. */
const refusalWords = absentable(wireText).catch(undefined);

/** A 2xx answer saying `sucesso: false`: the provider's refusal, its words in `mensagem` or `erro{motivo, mensagem}` (F9). */
export const FLOW2PAY_REFUSAL = z
  .object({
    sucesso: z.literal(false),
    mensagem: refusalWords,
    erro: absentable(z.object({ motivo: refusalWords, mensagem: refusalWords })).catch(undefined),
  })
  .transform((refusal) => ({ message: refusal.mensagem ?? refusal.erro?.motivo ?? refusal.erro?.mensagem }));

/** The QR code created: `{sucesso, mensagem, txId | txid, qrcode{imagem, emv}}` (F9); the id under either spelling is required. */
export const FLOW2PAY_CHARGE = z
  .object({
    sucesso: z.literal(true).optional(),
    txId: absentable(wireId),
    txid: absentable(wireId),
    qrcode: z.object({ emv: wireText }),
  })
  .transform((charge, ctx) => {
    const transactionId = charge.txId ?? charge.txid;
    if (transactionId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['txId'], message: 'no txId' });
      return z.NEVER;
    }
    return { transactionId, pixCode: charge.qrcode.emv };
  });

/** The refund accepted: `{sucesso: true, idEnvio | endToEnd | id}` (the gateway's decision on the ids; none is required). */
export const FLOW2PAY_REFUND = z
  .object({ sucesso: z.literal(true), idEnvio: absentable(wireId), endToEnd: absentable(wireId), id: absentable(wireId) })
  .transform((refund) => ({ refundId: refund.idEnvio ?? refund.endToEnd ?? refund.id }));

/** A notification: `{evento, txid | txId, endToEndId, valor, token}`, of which the event and the txid are read (gateway's decision on the names; F9 shows `token`). */
export const FLOW2PAY_NOTIFICATION = z
  .object({
    evento: wireStatus,
    txid: absentable(wireId),
    txId: absentable(wireId),
    endToEndId: absentable(wireText),
  })
  .transform((event, ctx) => {
    const txid = event.txid ?? event.txId;
    if (txid === undefined) {
      ctx.addIssue({ code: 'custom', path: ['txid'], message: 'no txid' });
      return z.NEVER;
    }
    return { txid, evento: event.evento, ...(event.endToEndId ? { endToEndId: event.endToEndId } : {}) };
  });
export type Flow2payNotification = z.output<typeof FLOW2PAY_NOTIFICATION>;

/** The notification's `token` alone, what its check reads. */
const FLOW2PAY_NOTIFICATION_TOKEN = z.object({ token: absentable(wireText) });

// ---------------------------------------------------------------- request mapper

export const toQrCode = (input: TransactionInput, terms: { amount: number; expirySeconds: number }): QrCodeRequest => ({
  valor: terms.amount,
  tempoExpiracao: terms.expirySeconds,
  comImagem: true,
  ...(input.description ? { informacaoAdicional: input.description } : {}),
});

// ---------------------------------------------------------------- status table

/** §4: PixIn APPROVED; PixInReversal CHARGEBACK; otherwise PENDING. */
export const FLOW2PAY_STATUSES = statusTable<TransactionStatus>({ PixIn: 'APPROVED', PixInReversal: 'CHARGEBACK' }, 'PENDING');

// ---------------------------------------------------------------- notification reader

/** A notification's charge id, event and end-to-end id; undefined when it is not JSON or lacks an event or a txid. */
export function readFlow2payNotification(body: Buffer): Flow2payNotification | undefined {
  const parsed = FLOW2PAY_NOTIFICATION.safeParse(parseJsonObject(body));
  return parsed.success ? parsed.data : undefined;
}

// ---------------------------------------------------------------- operations

export class Flow2payAdapter extends LoginTokenAdapter<Flow2payDeclaration> {
  constructor(declaration: Flow2payDeclaration = FLOW2PAY, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { family: 'bespoke', transactionStatuses: FLOW2PAY_STATUSES });
  }

  /** POST login {clientId, clientSecret}; a refused login is 'Failed to authenticate with Flow2Pay' (§8). */
  protected readonly loginPath = FLOW2PAY_PATHS.login;

  protected override login(ctx: AdapterContext): LoginStyle {
    const { clientId, clientSecret } = this.credentials(ctx);
    return { path: this.loginPath, body: { clientId, clientSecret }, refused: 'FLOW2PAY_AUTHENTICATION_FAILED' };
  }

  /**
   * One call with the session's token. A 2xx answer that says `sucesso: false`
   * is the provider's refusal, under the operation's prefix, with its words;
   * any other answer is read by `schema` (a mismatch is the kit's bad answer,
   * under the operation's texts: never a refusal, the provider may have acted).
   */
  private async call<T>(
    ctx: AdapterContext,
    operation: 'createTransaction' | 'refoundTransaction',
    send: (http: ProviderHttp) => Promise<ProviderResponse<unknown>>,
    schema: AnswerSchema<T>,
  ): Promise<T> {
    const prefix = this.prefixFor(operation);
    const answer = await this.loginCall(ctx, operation, send);
    const refusal = FLOW2PAY_REFUSAL.safeParse(answer);
    if (refusal.success) throw providerFailure(prefix, refusal.data.message, 'FAILED_PRECONDITION');
    return this.mapped(operation, prefix, () => parseAnswer(schema, answer));
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toQrCode(input, { amount: this.toProviderAmount(input.amount), expirySeconds: this.pixExpirySeconds });
    const charge = await this.call(ctx, 'createTransaction', (http) => http.post(FLOW2PAY_PATHS.create, body), FLOW2PAY_CHARGE);
    // A charge just created has not been paid: PENDING until a notification says otherwise.
    const { transactionId, pixCode } = charge;
    return pixCodeOnly({ paymentMethod: 'PIX', transactionId, status: 'PENDING', amount: input.amount, pixCode, expiresAt });
  }

  /**
   * POST /pix/v1/transferir-reverso {endToEnd, valor} (§7): the PIX received is named by its end-to-end id, as the
   * gateway stored it from the PixIn notification; a charge whose id was never stated falls back to the charge's id,
   * as before the id was kept (docs/decisions.md).
   */
  override async refoundTransaction(
    ctx: AdapterContext,
    transactionId: string,
    amount: number,
    _idempotencyKey?: string,
    charge?: RefundedCharge,
  ): Promise<RefundResult> {
    const body = { endToEnd: charge?.pixEndToEndId ?? transactionId, valor: this.toProviderAmount(amount) };
    const refund = await this.call(ctx, 'refoundTransaction', (http) => http.post(FLOW2PAY_PATHS.refund, body), FLOW2PAY_REFUND);
    return { refundId: refund.refundId ?? transactionId, status: true };
  }

  /**
   * Every event with a txid is a charge's news: PixIn APPROVED, PixInReversal CHARGEBACK, any other PENDING (§4).
   * A PixIn's end-to-end id is the charge's PIX payment; a reversal's may be the devolução's, so it is not kept.
   */
  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const event = readFlow2payNotification(notification.body);
    if (!event) return undefined;
    const status = this.transactionStatus(event.evento);
    const pixPayment = status === 'APPROVED' ? statedPixPayment({ endToEndId: event.endToEndId }) : {};
    return { type: 'TRANSACTION', transactionId: event.txid, status, ...pixPayment };
  }

  /**
   * F9: the payload's `token` is the value configured at Flow2Pay for the
   * account's webhook, compared in constant time with the account's webhook
   * secret; 'unsigned' when the account holds none.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    const secret = ctx.webhookSecret;
    if (!secret) return 'unsigned';
    const parsed = FLOW2PAY_NOTIFICATION_TOKEN.safeParse(parseJsonObject(notification.body));
    const token = parsed.success ? parsed.data.token : undefined;
    // A stored notification has its token masked (storableBody): intake kept what it proved.
    if (token === MASKED_SECRET) return 'unsigned';
    return token !== undefined && safeEqualText(token, secret) ? 'valid' : 'invalid';
  }

  /** The notification is stored with its `token` masked: the shared secret never reaches the database. */
  override storableBody(body: Buffer): Buffer {
    return maskedJsonField(body, 'token');
  }

  /** No event id: the event, the charge and the PIX's end-to-end id identify one across re-deliveries. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const event = readFlow2payNotification(notification.body);
    return event
      ? notificationKeyOf({ subject: 'transaction', id: `${event.txid}/${event.endToEndId ?? ''}`, status: event.evento }, notification.body)
      : super.notificationKey(ctx, notification);
  }
}
