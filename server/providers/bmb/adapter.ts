import type { TransactionInput, TransactionResult, TransactionStatus, WebhookResult } from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { ProviderCallError } from '../../lib/http/index.js';
import { parseJsonObject } from '../../lib/json.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { statusTable } from '../../lib/statusTable.js';
import { dateOf, idText, textOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import type { AdapterRuntime, ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';

/**
 * BMB (spec doc 2, group 2): a bespoke dialect, and the model of a bespoke
 * adapter (docs/adding-a-provider.md). What the spec says: POST /GerarQRCode and
 * POST /consultaQRCode (§7); "Paid is APPROVED, anything else PENDING; a static
 * QR webhook is always APPROVED" (§4); refunds not implemented (§8). No public
 * material on BMB's API was found (provider research, groups 1–2), so the
 * shapes below are the gateway's decision, written in the dialect's own
 * Portuguese naming and recorded in docs/decisions.md: amounts in reais, the
 * secret key as a bearer token, the copy-and-paste code in `qrCode`.
 *
 * Read top to bottom: declaration (identity, capabilities, auth) → wire shapes
 * → request mappers → status table → response mappers → notifications → the
 * operations, one HTTP exchange each.
 */

// ---------------------------------------------------------------- declaration

export const BMB: ProviderDeclaration = {
  identity: { id: 'BMB', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api.bmb.com.br' },
  // PIX charges and their notifications only; the spec lists BMB among the providers without refunds.
  capabilities: { paymentMethods: ['PIX'], webhooks: true },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'reais',
  evidence: { level: 'specification-only' },
  sources:
    'paths (`/GerarQRCode`, `/consultaQRCode`), statuses, static-QR rule, no refunds: spec (doc 2 §4/§7/§8); bodies, auth, host: gateway (no public API material found)',
};

// ---------------------------------------------------------------- wire shapes

/** Body of POST /GerarQRCode. */
export interface GerarQRCodeRequest {
  valor: number;
  /** Validity in seconds. */
  expiracao: number;
  descricao?: string;
  identificador?: string;
  pagador?: { nome: string; documento: string };
  urlNotificacao: string;
}

/** Answer of /GerarQRCode and /consultaQRCode. */
export interface QRCodeAnswer {
  txid?: string;
  status?: string;
  valor?: number | string;
  qrCode?: string;
  expiraEm?: string;
}

/** Notification: a dynamic QR (a charge of ours) or a static one (a payment with no charge). */
export interface QRCodeNotification {
  tipo?: 'QRCODE_DINAMICO' | 'QRCODE_ESTATICO' | string;
  txid?: string;
  endToEndId?: string;
  status?: string;
  valor?: number | string;
  pagoEm?: string;
}

// ---------------------------------------------------------------- request mappers

export function toGerarQRCode(input: TransactionInput, terms: { valor: number; expirySeconds: number; notificationUrl: string }): GerarQRCodeRequest {
  const documento = digitsOnly(input.customer?.document ?? '');
  return {
    valor: terms.valor,
    expiracao: terms.expirySeconds,
    ...(input.description ? { descricao: input.description } : {}),
    ...(input.orderId ? { identificador: input.orderId } : {}),
    ...(input.customer?.name && documento ? { pagador: { nome: input.customer.name, documento } } : {}),
    urlNotificacao: terms.notificationUrl,
  };
}

// ---------------------------------------------------------------- status table

/** "Paid is APPROVED, anything else PENDING" (doc 2 §4): one entry and a PENDING default. */
export const BMB_STATUSES = statusTable<TransactionStatus>({ Paid: 'APPROVED' }, 'PENDING');

/** The notification kind of a static QR, which is always APPROVED (doc 2 §4). */
const STATIC_QR = 'QRCODE_ESTATICO';

// ---------------------------------------------------------------- response mappers

/** Undefined without a txid or a status: the operation turns that into an error, never a status. */
export function fromQRCode(
  answer: QRCodeAnswer | undefined,
  terms: { status: (value: unknown) => TransactionStatus; amount: (value: unknown) => number; requestedAmount?: number; expiresAt?: Date },
): TransactionResult | undefined {
  const transactionId = textOf(answer?.txid);
  if (!answer || !transactionId || !textOf(answer.status)) return undefined;
  const pixCode = textOf(answer.qrCode);
  const expiresAt = dateOf(answer.expiraEm) ?? terms.expiresAt;
  return {
    paymentMethod: 'PIX',
    transactionId,
    status: terms.status(answer.status),
    amount: answer.valor !== undefined && answer.valor !== null ? terms.amount(answer.valor) : (terms.requestedAmount ?? 0),
    ...(pixCode ? { pixCode } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

// ---------------------------------------------------------------- notifications

function amountOf(value: unknown, amount: (value: unknown) => number): number | undefined {
  try {
    return amount(value);
  } catch {
    return undefined;
  }
}

/**
 * A static QR paid is a payment the gateway never asked for: reported as
 * UNSOLICITED_PAYMENT (always APPROVED), which the gateway records as a
 * transaction of its own. A dynamic QR is one of our charges, through the table.
 */
export function readQRCodeNotification(
  body: Buffer,
  terms: { status: (value: unknown) => TransactionStatus; amount: (value: unknown) => number },
): WebhookResult | undefined {
  const event = parseJsonObject(body) as QRCodeNotification | undefined;
  const txid = textOf(event?.txid);
  if (!event || !txid) return undefined;
  if (event.tipo === STATIC_QR) {
    const amount = amountOf(event.valor, terms.amount);
    // A payment without a readable amount cannot be recorded: ignored rather than guessed.
    if (amount === undefined || amount <= 0) return undefined;
    return {
      type: 'UNSOLICITED_PAYMENT',
      transactionId: txid,
      amount,
      paymentMethod: 'PIX',
      status: 'APPROVED',
      paidAt: dateOf(event.pagoEm),
    };
  }
  if (!textOf(event.status)) return undefined;
  return { type: 'TRANSACTION', transactionId: txid, status: terms.status(event.status) };
}

// ---------------------------------------------------------------- operations

export class BmbAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = BMB, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: BMB_STATUSES });
  }

  private terms() {
    return { status: (value: unknown) => this.transactionStatus(value), amount: (value: unknown) => this.fromProviderAmount(value) };
  }

  private unusable(operation: 'createTransaction' | 'getTransaction', prefix: string): Error {
    return this.failure(operation, prefix, new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', 'resposta do provedor sem txid ou status do QR Code'));
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const requestedAt = this.now();
    const body = toGerarQRCode(input, {
      valor: this.toProviderAmount(input.amount),
      expirySeconds: this.pixExpirySeconds,
      notificationUrl: ctx.notificationUrl,
    });
    const answer = await this.exchange('createTransaction', prefix, () => this.http(ctx).post<QRCodeAnswer | undefined>('/GerarQRCode', body));
    const result = fromQRCode(answer, { ...this.terms(), requestedAmount: input.amount, expiresAt: this.expiresAt(this.pixExpirySeconds, requestedAt) });
    if (!result?.pixCode) throw this.unusable('createTransaction', prefix);
    return withPixQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange('getTransaction', prefix, () =>
      this.http(ctx).post<QRCodeAnswer | undefined>('/consultaQRCode', { txid: transactionId }),
    );
    const result = fromQRCode(answer, this.terms());
    if (!result) throw this.unusable('getTransaction', prefix);
    // The id asked for stays the id, whatever the answer echoes.
    return withPixQrImage({ ...result, transactionId });
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return readQRCodeNotification(notification.body, this.terms());
  }

  /** One payment's notification is the same across re-deliveries: its endToEndId (or txid) and status. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const event = parseJsonObject(notification.body) as QRCodeNotification | undefined;
    const id = textOf(event?.endToEndId) ?? idText(event?.txid);
    return id ? `bmb:${id}:${textOf(event?.status)?.toLowerCase() ?? ''}` : super.notificationKey(ctx, notification);
  }
}
