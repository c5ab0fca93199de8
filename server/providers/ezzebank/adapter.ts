import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import type {
  PixKeyType,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { parseJsonObject } from '../../lib/json.js';
import { normalizePixKey } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { statusTable } from '../../lib/statusTable.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { absentable, wireAmount, wireId, wireStatus, wireText } from '../kit/answers.js';
import { COMMON_WITHDRAWAL_STATUSES } from '../kit/commonStatuses.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, type ObjectNotification } from '../kit/declaredAdapter.js';

/**
 * EZZEBANK (spec doc 2, group 1): the spec shows no paths for group 1, so its
 * API as public integrations use it (provider research, and the stored public
 * code read for this adapter; every source is in docs/decisions.md):
 * - base `https://api.ezzebank.com/v2`; a token by `POST /v2/oauth/token`,
 *   `Authorization: Basic base64(clientId:clientSecret)`, form
 *   `grant_type=client_credentials`, answered `{access_token}` (research);
 * - PIX charges `POST /v2/pix/qrcode {amount (reais), payerQuestion?,
 *   external_id, payer{name, document}}` answered `{transactionId, emvqrcps}`
 *   (research);
 * - the charge read `GET /v2/pix/qrcode/{transactionId}/detail` answered
 *   `{status: "APPROVED", …}` (two integrations in stored code);
 * - PIX payouts `POST /v2/pix/payment {external_id, amount, description,
 *   creditParty{name, keyType, key, taxId}}` answered `{transactionId}`, key
 *   types CPF, CNPJ, TELEFONE (+55…), EMAIL, CHAVE_ALEATORIA (stored code);
 * - webhooks `{requestBody{transactionType, transactionId, external_id,
 *   amount, statusCode{statusId}}}`: RECEIVEPIX for charges (research),
 *   PAYMENT for payouts (stored code), statusId 2 paid, 3 and 9999 cancelled
 *   (an integration's mapping), signed with `verify-signature: t=<unix
 *   seconds>,vsign=<hex>` = HMAC-SHA256(signature secret, `<t>.<raw body>`)
 *   (three integrations in stored code).
 * No payout read was found, so unsigned payout notifications stay unconfirmed.
 */

// ---------------------------------------------------------------- declaration

export const EZZEBANK_PATHS = {
  // Relative to the base, which already ends in /v2: these are /v2/oauth/token, /v2/pix/….
  token: '/oauth/token',
  qrCode: '/pix/qrcode',
  qrCodeDetail: '/pix/qrcode/{id}/detail',
  payment: '/pix/payment',
} as const;

export const EZZEBANK: ProviderDeclaration = {
  identity: { id: 'EZZEBANK', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.ezzebank.com/v2' },
  // PIX charges read back by their detail; PIX payouts, for which no read was found; RECEIVEPIX and PAYMENT webhooks.
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: false, webhooks: true },
  // publicKey: the client id; secretKey: the client secret, both sent as HTTP Basic to the token endpoint.
  auth: { type: 'oauth2', tokenPath: EZZEBANK_PATHS.token, body: 'form', clientAuth: 'basic' },
  credentials: { required: ['publicKey', 'secretKey'] },
  money: 'reais',
  // Its payout body's own default ('Saque solicitado', doc 1 §9), also what the gateway fills in for a caller who gives none.
  payouts: { description: 'requested' },
  evidence: { level: 'third-party' },
  sources:
    "base `api.ezzebank.com/v2`, OAuth token (Basic client id:secret, form client_credentials), reais, POST /pix/qrcode `{amount, payerQuestion, external_id, payer}` → `{transactionId, emvqrcps}`, POST /pix/payment `{external_id, amount, description, creditParty}`, the RECEIVEPIX webhook and statusId 2 / 3 / 9999: research (integrations 11722427852, 2574046492, 18020891969, 23389025360, 23316550023, 11409394973); GET /pix/qrcode/{id}/detail and its APPROVED (stored public code 6330427472, 11890159998), key types CPF, CNPJ, TELEFONE (+55), EMAIL, CHAVE_ALEATORIA (14730811158), the PAYMENT webhook (19809185326), `verify-signature: t=…,vsign=…` HMAC-SHA256 of `t.body` (23336918103, 26189621994, 19809185326); other status words: document 1 §4; PIX valid 1 day, nothing sent: document 1 §9; no payout read, unsigned without the account's secret: the gateway's decision",
};

// ---------------------------------------------------------------- wire

/** POST /pix/qrcode's answer: nobody can pay a charge without its id and PIX code. */
export const ezzebankQrCode = z.object({ transactionId: wireId, emvqrcps: wireText, amount: absentable(wireAmount) });

/** GET /pix/qrcode/{id}/detail's answer: the charge's status and amount. */
export const ezzebankQrCodeDetail = z.object({ transactionId: absentable(wireId), status: wireStatus, amount: wireAmount });

/** POST /pix/payment's answer: the payout's id (its status where it says one). */
export const ezzebankPayment = z.object({ transactionId: wireId, status: absentable(wireStatus), amount: absentable(wireAmount) });

/** A webhook `{requestBody{transactionType, transactionId, statusCode{statusId}}}`; no statusCode is still pending. */
export const ezzebankNotification = z.object({
  requestBody: z.object({
    transactionType: wireText.transform((type) => type.toUpperCase()),
    transactionId: wireId,
    statusCode: absentable(z.object({ statusId: absentable(wireId) })),
  }),
});

/** Body of POST /pix/qrcode: `amount` in reais, `external_id` the charge's unique reference. */
export const ezzebankQrCodeRequest = z.object({
  amount: z.number().positive(),
  payerQuestion: z.string().optional(),
  external_id: z.string().min(1),
  payer: z.object({ name: z.string(), document: z.string().regex(/^\d*$/) }).optional(),
});
export type EzzebankQrCodeRequest = z.infer<typeof ezzebankQrCodeRequest>;

/** EzzeBank's key type names (stored code). */
const ezzebankKeyType = z.enum(['CPF', 'CNPJ', 'TELEFONE', 'EMAIL', 'CHAVE_ALEATORIA']);

/** Body of POST /pix/payment: `amount` in reais, the recipient's key, its type and (where known) name and document. */
export const ezzebankPaymentRequest = z.object({
  external_id: z.string().min(1),
  amount: z.number().positive(),
  description: z.string(),
  creditParty: z.object({
    name: z.string().optional(),
    keyType: ezzebankKeyType,
    key: z.string().min(1),
    taxId: z.string().regex(/^\d+$/).optional(),
  }),
});
export type EzzebankPaymentRequest = z.infer<typeof ezzebankPaymentRequest>;

// ---------------------------------------------------------------- request mappers

/** POST /pix/qrcode: `external_id` is the caller's order id, else its idempotency key, else a UUID; the payer only with a customer. */
export const toEzzebankQrCode = (input: TransactionInput, amount: number): EzzebankQrCodeRequest => ({
  amount,
  ...(input.description ? { payerQuestion: input.description } : {}),
  external_id: input.orderId ?? input.idempotencyKey ?? randomUUID(),
  ...(input.customer ? { payer: { name: input.customer.name, document: digitsOnly(input.customer.document) } } : {}),
});

/** EzzeBank's key type names (stored code); its phone keys carry +55. */
export const EZZEBANK_KEY_TYPES: Readonly<Record<PixKeyType, z.infer<typeof ezzebankKeyType>>> = {
  CPF: 'CPF',
  CNPJ: 'CNPJ',
  PHONE: 'TELEFONE',
  EMAIL: 'EMAIL',
  RANDOM: 'CHAVE_ALEATORIA',
};

/**
 * POST /pix/payment. `taxId` is the recipient's document: the caller's, else
 * the key itself when the key is a CPF or CNPJ (it is the holder's document);
 * name and taxId are left out when unknown, never invented.
 */
export function toEzzebankPayment(input: WithdrawInput & { pixKey: string; pixType: PixKeyType }, amount: number): EzzebankPaymentRequest {
  const key = normalizePixKey(input.pixKey, input.pixType, { phonePrefix: '+55' });
  const taxId = digitsOnly(input.document ?? '') || (input.pixType === 'CPF' || input.pixType === 'CNPJ' ? key : '');
  return {
    external_id: input.withdrawReference?.trim() || input.idempotencyKey || randomUUID(),
    amount,
    description: input.description ?? defaultWithdrawDescription(input.amount, 'requested'),
    creditParty: {
      ...(input.name ? { name: input.name } : {}),
      keyType: EZZEBANK_KEY_TYPES[input.pixType],
      key,
      ...(taxId ? { taxId } : {}),
    },
  };
}

// ---------------------------------------------------------------- statuses

/**
 * Charges: the webhook's statusId (an integration's mapping: 2 paid, 3 and
 * 9999 cancelled, a charge never paid), the detail's APPROVED (stored code),
 * and document 1 §4's words for the rest; unknown REJECTED (group 1).
 */
export const EZZEBANK_STATUSES = statusTable<TransactionStatus>(
  {
    ...{ '2': 'APPROVED', '3': 'CANCELED', '9999': 'CANCELED' },
    ...{ pending: 'PENDING', waiting: 'PENDING', waiting_payment: 'PENDING', processing: 'PENDING', created: 'PENDING', awaiting: 'PENDING' },
    ...{ approved: 'APPROVED', paid: 'APPROVED', completed: 'APPROVED', confirmed: 'APPROVED', received: 'APPROVED' },
    ...{ refunded: 'REFUNDED', chargeback: 'CHARGEBACK', chargedback: 'CHARGEBACK', in_dispute: 'CHARGEBACK', dispute: 'CHARGEBACK' },
    ...{ canceled: 'CANCELED', cancelled: 'CANCELED', expired: 'REJECTED', failed: 'REJECTED', refused: 'REJECTED' },
  },
  'REJECTED',
);

/** Payouts: the same statusIds (2 paid, 3 and 9999 cancelled) over document 1 §4's payout words; unknown PENDING. */
export const EZZEBANK_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>(
  { ...COMMON_WITHDRAWAL_STATUSES.entries, '2': 'APPROVED', '3': 'CANCELED', '9999': 'CANCELED' },
  COMMON_WITHDRAWAL_STATUSES.unknown,
);

// ---------------------------------------------------------------- readers

/** The webhook's transaction types it takes: a PIX received is a charge's news, a PAYMENT a payout's. */
const WEBHOOK_KINDS: Readonly<Record<string, ObjectNotification['kind']>> = { RECEIVEPIX: 'transaction', PAYMENT: 'withdrawal' };

/**
 * A webhook `{requestBody{transactionType, transactionId, statusCode{statusId}}}`
 * as the charge or payout it is about; one without a statusId is still
 * pending (the integration's reading). Undefined for any other type or shape.
 */
export function readEzzebankWebhook(body: Buffer): ObjectNotification | undefined {
  const parsed = ezzebankNotification.safeParse(parseJsonObject(body));
  if (!parsed.success) return undefined;
  const event = parsed.data.requestBody;
  const kind = Object.hasOwn(WEBHOOK_KINDS, event.transactionType) ? WEBHOOK_KINDS[event.transactionType] : undefined;
  return kind ? { kind, id: event.transactionId, status: event.statusCode?.statusId ?? 'pending' } : undefined;
}

/** The signature header: `t=<unix seconds>,vsign=<hex>`. */
export const EZZEBANK_SIGNATURE_HEADER = 'verify-signature';

// ---------------------------------------------------------------- operations

export class EzzebankAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = EZZEBANK, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: EZZEBANK_STATUSES, withdrawalStatuses: EZZEBANK_WITHDRAWAL_STATUSES });
  }

  /** POST /pix/qrcode; EzzeBank is sent no validity, so document 1's PIX day is the charge's. */
  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toEzzebankQrCode(input, this.toProviderAmount(input.amount));
    const charge = await this.exchange('createTransaction', prefix, () => this.http(ctx).post(EZZEBANK_PATHS.qrCode, body), ezzebankQrCode);
    return pixCodeOnly({
      paymentMethod: 'PIX',
      transactionId: charge.transactionId,
      // A charge just created has not been paid: PENDING until a notification or a read says otherwise.
      status: 'PENDING',
      amount: this.mapped('createTransaction', prefix, () => this.amountOr(charge.amount, input.amount, 'valor da cobrança')),
      pixCode: charge.emvqrcps,
      expiresAt,
    });
  }

  /** GET /pix/qrcode/{transactionId}/detail. */
  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const path = fillPath(EZZEBANK_PATHS.qrCodeDetail, { id: transactionId });
    const charge = await this.exchange('getTransaction', prefix, () => this.http(ctx).get(path), ezzebankQrCodeDetail);
    return {
      paymentMethod: 'PIX',
      transactionId: charge.transactionId ?? transactionId,
      status: this.transactionStatus(charge.status),
      amount: this.mapped('getTransaction', prefix, () => this.amountOr(charge.amount, undefined, 'valor da cobrança')),
    };
  }

  /** POST /pix/payment; a payout answered without a status is PENDING (document 1 §4). */
  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const body = toEzzebankPayment(this.pixPayout(input), this.toProviderAmount(input.amount));
    const prefix = this.prefixFor('withdraw');
    const payout = await this.exchange('withdraw', prefix, () => this.http(ctx).post(EZZEBANK_PATHS.payment, body), ezzebankPayment);
    return {
      withdrawId: payout.transactionId,
      status: payout.status ? this.withdrawalStatus(payout.status) : 'PENDING',
      amount: this.mapped('withdraw', prefix, () => this.amountOr(payout.amount, input.amount, 'valor do saque')),
    };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readEzzebankWebhook(notification.body));
  }

  /** No event id in the payload: the kind, the id and the statusId identify one across re-deliveries. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(readEzzebankWebhook(notification.body), ctx, notification);
  }

  /**
   * With the webhook's signature secret on the account: `verify-signature:
   * t=…,vsign=…`, vsign the hex HMAC-SHA256 of `<t>.<raw body>`, t within the
   * tolerance of the arrival. Without one: unsigned, so a charge's news is
   * confirmed by the detail read and a payout's stays unconfirmed (no read).
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    return this.timestampedBodyVerdict(ctx, notification, EZZEBANK_SIGNATURE_HEADER, { signatureKey: 'vsign' });
  }
}
