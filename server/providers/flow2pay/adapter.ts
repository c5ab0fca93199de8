import type { RefundResult, TransactionInput, TransactionResult, TransactionStatus, WebhookResult } from '../../domain/types.js';
import { safeEqualText } from '../../lib/constantTime.js';
import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import { ProviderCallError } from '../../lib/http/index.js';
import { isRecord, parseJsonObject } from '../../lib/json.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { providerFailure } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { idText, textOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import type { AdapterRuntime, ProviderDeclaration } from '../kit/declaration.js';
import { LoginTokenAdapter, type LoginStyle } from '../kit/loginSession.js';
import { MASKED_SECRET, maskedJsonField } from '../kit/bodySecrets.js';

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
  sources:
    "paths, both keys, PIX only, PixIn/PixInReversal, 24-hour PIX, the three texts: spec (doc 3 §4/§5/§7/§8/§9); login path and `{accessToken}` as Bearer, `valor` in cents, `comImagem`, `informacaoAdicional`, `{sucesso, txId, qrcode{imagem, emv}}`, `{mensagem}` errors, the webhook's `token`: research (F9, the Sants Bank integration); no read call, webhook field names, refund answer: gateway's decision; host: the research's Sants Bank host",
};

export const FLOW2PAY_PATHS = {
  login: '/no-auth/autenticacao/v1/api/login',
  create: '/qrcode/v2/gerar',
  refund: '/pix/v1/transferir-reverso',
} as const;

// ---------------------------------------------------------------- wire shapes

/** Body of POST /qrcode/v2/gerar (§7, F9). */
export interface QrCodeRequest {
  valor: number;
  tempoExpiracao: number;
  comImagem: true;
  informacaoAdicional?: string;
}

/** A notification: `{evento, txid, endToEndId, valor, token}` (gateway's decision on the names; F9 shows `token`). */
export interface Flow2payNotification {
  evento?: string;
  txid?: string | number;
  txId?: string | number;
  endToEndId?: string;
  token?: string;
}

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

// ---------------------------------------------------------------- response mappers

/** The provider's own words for a refusal inside a 2xx answer (`mensagem`, or `erro{motivo, mensagem}`). */
function refusalText(answer: Record<string, unknown>): string | undefined {
  const error = isRecord(answer.erro) ? answer.erro : {};
  return textOf(answer.mensagem) ?? textOf(error.motivo) ?? textOf(error.mensagem);
}

/** A notification's charge id, event and end-to-end id; undefined without an event or a txid. */
export function readFlow2payNotification(body: Buffer): { txid: string; evento: string; endToEndId?: string } | undefined {
  const event = parseJsonObject(body) as Flow2payNotification | undefined;
  const evento = textOf(event?.evento);
  const txid = idText(event?.txid) ?? idText(event?.txId);
  if (!event || !evento || !txid) return undefined;
  return { txid, evento, ...(textOf(event.endToEndId) ? { endToEndId: textOf(event.endToEndId) } : {}) };
}

// ---------------------------------------------------------------- operations

const unusable = (what: string): never => {
  throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `resposta do provedor sem ${what}`);
};

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

  /** A 2xx answer that says `sucesso: false` is the provider's refusal, under the operation's prefix, with its words. */
  private refused(operation: 'createTransaction' | 'refoundTransaction', answer: unknown): void {
    if (isRecord(answer) && answer.sucesso === false) throw providerFailure(this.prefixFor(operation), refusalText(answer), 'FAILED_PRECONDITION');
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toQrCode(input, { amount: this.toProviderAmount(input.amount), expirySeconds: this.pixExpirySeconds });
    const answer = await this.loginCall(ctx, 'createTransaction', (http) => http.post<unknown>(FLOW2PAY_PATHS.create, body));
    this.refused('createTransaction', answer);
    const result = this.mapped('createTransaction', this.prefixFor('createTransaction'), (): TransactionResult => {
      const charge = isRecord(answer) ? answer : unusable('a cobrança');
      const transactionId = idText(charge.txId) ?? idText(charge.txid) ?? unusable('txId da cobrança');
      const pixCode = (isRecord(charge.qrcode) ? textOf(charge.qrcode.emv) : undefined) ?? unusable('código PIX (qrcode.emv)');
      // A charge just created has not been paid: PENDING until a notification says otherwise.
      return { paymentMethod: 'PIX', transactionId, status: 'PENDING', amount: input.amount, pixCode, expiresAt };
    });
    return withPixQrImage(result);
  }

  /** POST /pix/v1/transferir-reverso {endToEnd, valor} (§7): the charge's id names the PIX received (docs/decisions.md). */
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const body = { endToEnd: transactionId, valor: this.toProviderAmount(amount) };
    const answer = await this.loginCall(ctx, 'refoundTransaction', (http) => http.post<unknown>(FLOW2PAY_PATHS.refund, body));
    this.refused('refoundTransaction', answer);
    return this.mapped('refoundTransaction', this.prefixFor('refoundTransaction'), () => {
      const refund = isRecord(answer) && answer.sucesso === true ? answer : unusable('confirmação da devolução (sucesso)');
      return { refundId: idText(refund.idEnvio) ?? idText(refund.endToEnd) ?? idText(refund.id) ?? transactionId, status: true };
    });
  }

  /** Every event with a txid is a charge's news: PixIn APPROVED, PixInReversal CHARGEBACK, any other PENDING (§4). */
  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const event = readFlow2payNotification(notification.body);
    return event ? { type: 'TRANSACTION', transactionId: event.txid, status: this.transactionStatus(event.evento) } : undefined;
  }

  /**
   * F9: the payload's `token` is the value configured at Flow2Pay for the
   * account's webhook, compared in constant time with the account's webhook
   * secret; 'unsigned' when the account holds none.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    const secret = ctx.webhookSecret;
    if (!secret) return 'unsigned';
    const token = textOf((parseJsonObject(notification.body) as Flow2payNotification | undefined)?.token);
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
    return event ? `flow2pay:${event.evento.toLowerCase()}:${event.txid}:${event.endToEndId ?? ''}` : super.notificationKey(ctx, notification);
  }
}
