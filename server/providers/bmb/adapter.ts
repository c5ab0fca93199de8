import { z } from 'zod';
import type { TransactionInput, TransactionResult, TransactionStatus, WebhookResult } from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { parseJsonObject } from '../../lib/json.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { statusTable } from '../../lib/statusTable.js';
import { dateOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { absentable, wireAmount, wireId, wireStatus, wireText } from '../kit/answers.js';
import type { AdapterRuntime, ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import { notificationKeyOf } from '../notificationKeys.js';

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

// ---------------------------------------------------------------- wire

/** Body of POST /GerarQRCode: `valor` in reais, the validity in seconds. */
export const gerarQRCodeRequest = z.object({
  valor: z.number().positive(),
  expiracao: z.number().int().positive(),
  descricao: z.string().optional(),
  identificador: z.string().optional(),
  pagador: z.object({ nome: z.string().min(1), documento: z.string().regex(/^\d+$/) }).optional(),
  urlNotificacao: z.string().min(1),
});
export type GerarQRCodeRequest = z.infer<typeof gerarQRCodeRequest>;

/** A date as text or epoch milliseconds; one that does not read as a date is absent. */
const wireDate = absentable(z.union([z.string(), z.number()])).transform(dateOf);

/** Answer of /consultaQRCode: a QR code always carries its txid and status. */
export const bmbQRCode = z.object({
  txid: wireId,
  status: wireStatus,
  valor: absentable(wireAmount),
  qrCode: absentable(wireText),
  expiraEm: wireDate,
});
export type QRCodeAnswer = z.output<typeof bmbQRCode>;

/** Answer of /GerarQRCode: nobody can pay a QR code without its copy-and-paste code. */
export const bmbCreatedQRCode = bmbQRCode.extend({ qrCode: wireText });

/** The notification kind of a static QR, which is always APPROVED (doc 2 §4). */
const STATIC_QR = 'QRCODE_ESTATICO';

/** A static QR paid (a payment with no charge): its txid, amount and when it was paid. */
export const bmbStaticQRNotification = z.object({
  tipo: z.literal(STATIC_QR),
  txid: wireId,
  valor: wireAmount,
  pagoEm: wireDate,
});

/** A dynamic QR (a charge of ours): its txid and status. */
export const bmbDynamicQRNotification = z.object({ txid: wireId, status: wireStatus });

/** What identifies one delivery: each field read where it is usable, ignored where it is not. */
const bmbNotificationKey = z.object({
  txid: absentable(wireId).catch(undefined),
  endToEndId: absentable(wireText).catch(undefined),
  status: absentable(wireStatus).catch(undefined),
});

/** The kind of a notification, read before its body so that a static QR is never read as a dynamic one. */
const bmbNotificationKind = z.object({ tipo: z.unknown() });

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

// ---------------------------------------------------------------- response mappers

/** A parsed QR code as the contract's charge; `amount` converts the answer's value (absent: the amount asked for, else 0). */
export function fromQRCode(
  answer: QRCodeAnswer,
  terms: { status: (value: unknown) => TransactionStatus; amount: (value: number | string) => number; requestedAmount?: number; expiresAt?: Date },
): TransactionResult {
  const expiresAt = answer.expiraEm ?? terms.expiresAt;
  return {
    paymentMethod: 'PIX',
    transactionId: answer.txid,
    status: terms.status(answer.status),
    amount: answer.valor !== undefined ? terms.amount(answer.valor) : (terms.requestedAmount ?? 0),
    ...(answer.qrCode ? { pixCode: answer.qrCode } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

// ---------------------------------------------------------------- notifications

function amountOf(value: number | string, amount: (value: number | string) => number): number | undefined {
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
  terms: { status: (value: unknown) => TransactionStatus; amount: (value: number | string) => number },
): WebhookResult | undefined {
  const event = parseJsonObject(body);
  if (bmbNotificationKind.safeParse(event).data?.tipo === STATIC_QR) {
    const paid = bmbStaticQRNotification.safeParse(event);
    if (!paid.success) return undefined;
    const amount = amountOf(paid.data.valor, terms.amount);
    // A payment without a readable amount cannot be recorded: ignored rather than guessed.
    if (amount === undefined || amount <= 0) return undefined;
    return {
      type: 'UNSOLICITED_PAYMENT',
      transactionId: paid.data.txid,
      amount,
      paymentMethod: 'PIX',
      status: 'APPROVED',
      paidAt: paid.data.pagoEm,
    };
  }
  const charge = bmbDynamicQRNotification.safeParse(event);
  return charge.success ? { type: 'TRANSACTION', transactionId: charge.data.txid, status: terms.status(charge.data.status) } : undefined;
}

// ---------------------------------------------------------------- operations

export class BmbAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = BMB, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: BMB_STATUSES });
  }

  private terms() {
    return {
      status: (value: unknown) => this.transactionStatus(value),
      amount: (value: number | string) => this.amountOr(value, undefined, 'valor do QR Code'),
    };
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
    const answer = await this.exchange('createTransaction', prefix, () => this.http(ctx).post('/GerarQRCode', body), bmbCreatedQRCode);
    const expiresAt = this.expiresAt(this.pixExpirySeconds, requestedAt);
    return pixCodeOnly(this.mapped('createTransaction', prefix, () => fromQRCode(answer, { ...this.terms(), requestedAmount: input.amount, expiresAt })));
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange('getTransaction', prefix, () => this.http(ctx).post('/consultaQRCode', { txid: transactionId }), bmbQRCode);
    const result = this.mapped('getTransaction', prefix, () => fromQRCode(answer, this.terms()));
    // The id asked for stays the id, whatever the answer echoes.
    return pixCodeOnly({ ...result, transactionId });
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return readQRCodeNotification(notification.body, this.terms());
  }

  /** One payment's notification is the same across re-deliveries: its endToEndId (or txid) and status. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const event = bmbNotificationKey.safeParse(parseJsonObject(notification.body)).data;
    const id = event?.endToEndId ?? event?.txid;
    return id ? notificationKeyOf({ subject: 'transaction', id, status: event?.status ?? '' }, notification.body) : super.notificationKey(ctx, notification);
  }
}
