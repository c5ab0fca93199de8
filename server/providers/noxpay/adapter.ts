import { createHash, randomUUID } from 'node:crypto';
import { z } from 'zod';
import type {
  AccountBalance,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { statedPixPayment } from '../../domain/pixPayments.js';
import { safeEqualText } from '../../lib/constantTime.js';
import { digitsOnly } from '../../lib/documents.js';
import { isRecord, parseJsonObject } from '../../lib/json.js';
import { normalizePixKey } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { statusTable } from '../../lib/statusTable.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification, type NotificationVerdict } from '../adapter.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { absentable, wireAmount, wireFact, wireId, wireStatus, wireText, unwrappedAnswer } from '../kit/answers.js';
import { DeclaredAdapter, type ObjectNotification } from '../kit/declaredAdapter.js';

/**
 * NOXPAY (spec doc 2, group 1): the spec shows no paths for group 1, so its
 * API as its public SDK and integrations use it (provider research): host
 * api2.noxpay.io, the `api-key` header, amounts in reais, one resource for
 * both directions: POST /payment `{method: "PIX", code, amount, webhook_url,
 * client_name, client_document}` answered `{txid, qrCodeText, status, …}`,
 * POST /payment `{method: "PIXOUT", code, amount, type: "PIX_KEY", pixkey}`,
 * GET /payment/{txid} `{method, status, code, txid, amount, end2end}`, and
 * webhooks `{txid, code, amount, status, pix_end2end_id, receipt_name,
 * receipt_cpf_cnpj, …}` signed with `X-Signature` =
 * base64(SHA-256(secret + raw body)) (one integration's reading).
 */

// ---------------------------------------------------------------- declaration

export const NOXPAY: ProviderDeclaration = {
  identity: { id: 'NOXPAY', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api2.noxpay.io' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, webhooks: true, balances: true },
  auth: { type: 'apiKey', header: 'api-key', value: 'secretKey' },
  credentials: { required: ['secretKey'] },
  money: 'reais',
  evidence: { level: 'documented', addresses: ['https://github.com/NoxPay/apidocs'] },
  sources:
    'NoxPay\'s own API document (github.com/NoxPay/apidocs: apiv2.org and webhook_signature.org), which its stand-in follows: the `api-key` header; POST /payment for a PIX charge `{method, code, amount (reais), webhook_url, client_name, client_document}` answered with capitalised keys (`QRCodeText`, `TxID`, `Status`); GET /payment/{code or txid} `{Method, Status (PAY once paid), Code, TxID, Amount, end2end}`; the webhook `{…, status PAID, pix_end2end_id, receipt_name, receipt_cpf_cnpj}` signed in `X-Signature` = base64(SHA-256(secret + raw body)); GET /account `{name, balance}` in reais. Host `api2.noxpay.io` and payouts (POST /payment `{method: "PIXOUT", code, amount, type: "PIX_KEY", pixkey}`): research (NoxPay\'s PHP SDK and integrations); statuses other than PAID and PAY: document 1 §4\'s words; the payout kind of a webhook read from its `method`: the gateway\'s decision',
};

export const NOXPAY_PATHS = { payment: '/payment', read: '/payment/{id}', account: '/account' } as const;

// ---------------------------------------------------------------- wire: requests

/** POST /payment for a charge (research): `amount` in reais, `code` NoxPay's unique reference. */
export const noxpayChargeRequest = z.object({
  method: z.literal('PIX'),
  code: z.string().min(1),
  amount: z.number().positive(),
  webhook_url: z.string().min(1),
  client_name: z.string().optional(),
  client_document: z.string().regex(/^\d*$/).optional(),
});
export type NoxpayChargeRequest = z.infer<typeof noxpayChargeRequest>;

/** POST /payment for a payout to a PIX key (research): `amount` in reais. */
export const noxpayPayoutRequest = z.object({
  method: z.literal('PIXOUT'),
  code: z.string().min(1),
  amount: z.number().positive(),
  type: z.literal('PIX_KEY'),
  pixkey: z.string().min(1),
});
export type NoxpayPayoutRequest = z.infer<typeof noxpayPayoutRequest>;

// ---------------------------------------------------------------- request mappers

/** NoxPay's own reference (`code`) must be unique: the caller's reference, else its idempotency key, else a UUID. */
const codeOf = (...candidates: Array<string | undefined>): string => candidates.find((value) => value?.trim()) ?? randomUUID();

export const toNoxpayCharge = (input: TransactionInput, terms: { amount: number; webhookUrl: string }): NoxpayChargeRequest => ({
  method: 'PIX',
  code: codeOf(input.orderId, input.idempotencyKey),
  amount: terms.amount,
  webhook_url: terms.webhookUrl,
  ...(input.customer ? { client_name: input.customer.name, client_document: digitsOnly(input.customer.document) } : {}),
});

export const toNoxpayPayout = (
  input: WithdrawInput & { pixKey: string; pixType: NonNullable<WithdrawInput['pixType']> },
  amount: number,
): NoxpayPayoutRequest => ({
  method: 'PIXOUT',
  code: codeOf(input.withdrawReference, input.idempotencyKey),
  amount,
  type: 'PIX_KEY',
  pixkey: normalizePixKey(input.pixKey, input.pixType),
});

// ---------------------------------------------------------------- statuses

/**
 * Document 1 §4's words for NoxPay's statuses (research: PAID); NoxPay's API document's reads answer PAY for a
 * payment made (either direction) and WAITING_PAYMENT before; a charge cancelled before payment is CANCELED.
 */
export const NOXPAY_STATUSES = statusTable<TransactionStatus>(
  {
    ...{ waiting_payment: 'PENDING', waiting: 'PENDING', pending: 'PENDING', processing: 'PENDING', created: 'PENDING' },
    ...{ paid: 'APPROVED', pay: 'APPROVED', approved: 'APPROVED', completed: 'APPROVED' },
    ...{ refunded: 'REFUNDED', chargeback: 'CHARGEBACK', chargedback: 'CHARGEBACK', in_dispute: 'CHARGEBACK', med: 'CHARGEBACK' },
    ...{ canceled: 'CANCELED', cancelled: 'CANCELED', expired: 'REJECTED', failed: 'REJECTED', refused: 'REJECTED' },
  },
  'REJECTED',
);

/** Payouts: PAID (PAY in a read) paid, cancelled given back, failed or refused REJECTED; anything else still on its way. */
export const NOXPAY_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>(
  { paid: 'APPROVED', pay: 'APPROVED', completed: 'APPROVED', canceled: 'CANCELED', cancelled: 'CANCELED', failed: 'REJECTED', refused: 'REJECTED' },
  'PENDING',
);

// ---- wire

/** Keys as the schemas name them: lower case (`txid`, `qrcodetext`). */
const paymentFields = z.object({
  txid: wireId,
  status: wireStatus,
  method: absentable(wireText),
  amount: absentable(wireAmount),
  qrcodetext: absentable(wireText),
  /** A PIX charge's end-to-end id once paid (the document's read: `"end2end": ""` before). */
  end2end: wireFact,
});

/**
 * NoxPay's own API document prints its answers' keys capitalised (`TxID`, `Status`, `QRCodeText`, `Amount`) where
 * integrations read them in lower or camel case (`txid`, `status`, `qrCodeText`): every spelling is read alike.
 */
const lowerCasedKeys = (answer: unknown): unknown =>
  isRecord(answer) ? Object.fromEntries(Object.entries(answer).map(([key, value]) => [key.toLowerCase(), value])) : answer;

/** The payment bare or wrapped in `data` (an object there is the payment): a mismatch names the payment's field at fault. */
const payment = <T extends z.ZodType>(fields: T) => unwrappedAnswer(z.preprocess(lowerCasedKeys, fields));

/** Answer of a payout and of a read (either direction). */
export const noxpayPayment = payment(paymentFields);
export type NoxpayPayment = z.output<typeof noxpayPayment>;

/** Answer of a PIX charge: the payment with the copy-and-paste code it exists for. */
export const noxpayCharge = payment(paymentFields.extend({ qrcodetext: wireText }));

/** GET /account (NoxPay's API document): the merchant's `name` and `balance` in reais, one figure (no pending part). */
export const noxpayAccount = z.object({ balance: wireAmount });

/**
 * A webhook: the payment itself, read by what routes it (its amount is not used, so not required to be readable),
 * and a paid charge's PIX payment (NoxPay's API document, "Webhook Notifications": `pix_end2end_id`, and the payer
 * as `receipt_name`, `receipt_cpf_cnpj`).
 */
const notificationFields = z.object({
  txid: wireId,
  status: wireStatus,
  method: absentable(wireText),
  pix_end2end_id: wireFact,
  receipt_name: wireFact,
  receipt_cpf_cnpj: wireFact,
});
export const noxpayNotification = payment(notificationFields);

/** A webhook: the payment itself (a PIXOUT is a payout), with a charge's PIX payment where stated. */
export function readNoxpayWebhook(body: Buffer): ObjectNotification | undefined {
  const parsed = noxpayNotification.safeParse(parseJsonObject(body));
  if (!parsed.success) return undefined;
  const { txid, status, method } = parsed.data;
  if (method?.toUpperCase() === 'PIXOUT') return { kind: 'withdrawal', id: txid, status };
  const { pix_end2end_id, receipt_name, receipt_cpf_cnpj } = parsed.data;
  return {
    kind: 'transaction',
    id: txid,
    status,
    ...statedPixPayment({ endToEndId: pix_end2end_id, payerName: receipt_name, payerDocument: receipt_cpf_cnpj }),
  };
}

/** base64(SHA-256(secret + raw body)), the signature one integration checks in `X-Signature`. */
export const noxpaySignature = (secret: string, body: Buffer): string => createHash('sha256').update(secret).update(body).digest('base64');

// ---------------------------------------------------------------- operations

export class NoxpayAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = NOXPAY, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: NOXPAY_STATUSES, withdrawalStatuses: NOXPAY_WITHDRAWAL_STATUSES });
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toNoxpayCharge(input, { amount: this.toProviderAmount(input.amount), webhookUrl: ctx.notificationUrl });
    const payment = await this.exchange('createTransaction', prefix, () => this.http(ctx).post<unknown>(NOXPAY_PATHS.payment, body), noxpayCharge);
    return pixCodeOnly({
      paymentMethod: 'PIX',
      transactionId: payment.txid,
      status: this.transactionStatus(payment.status),
      amount: this.mapped('createTransaction', prefix, () => this.amountOr(payment.amount, input.amount, 'valor do pagamento')),
      pixCode: payment.qrcodetext,
      expiresAt,
    });
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const payment = await this.read(ctx, 'getTransaction', prefix, transactionId);
    return {
      paymentMethod: 'PIX',
      transactionId: payment.txid,
      status: this.transactionStatus(payment.status),
      amount: this.mapped('getTransaction', prefix, () => this.amountOr(payment.amount, undefined, 'valor do pagamento')),
      ...statedPixPayment({ endToEndId: payment.end2end }),
    };
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const body = toNoxpayPayout(this.pixPayout(input), this.toProviderAmount(input.amount));
    const prefix = this.prefixFor('withdraw');
    const payout = await this.exchange('withdraw', prefix, () => this.http(ctx).post<unknown>(NOXPAY_PATHS.payment, body), noxpayPayment);
    return {
      withdrawId: payout.txid,
      status: this.withdrawalStatus(payout.status),
      amount: this.mapped('withdraw', prefix, () => this.amountOr(payout.amount, input.amount, 'valor do saque')),
    };
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const payout = await this.read(ctx, 'getWithdraw', prefix, withdrawId);
    return {
      withdrawId: payout.txid,
      status: this.withdrawalStatus(payout.status),
      amount: this.mapped('getWithdraw', prefix, () => this.amountOr(payout.amount, undefined, 'valor do saque')),
    };
  }

  override async getAccountBalance(ctx: AdapterContext): Promise<AccountBalance> {
    const prefix = this.prefixFor('getAccountBalance');
    const account = await this.exchange('getAccountBalance', prefix, () => this.http(ctx).get<unknown>(NOXPAY_PATHS.account), noxpayAccount);
    return { available: this.mapped('getAccountBalance', prefix, () => this.amountOr(account.balance, undefined, 'saldo')), currency: 'BRL' };
  }

  /** GET /payment/{txid}: one read for both directions. */
  private read(ctx: AdapterContext, operation: 'getTransaction' | 'getWithdraw', prefix: string, id: string): Promise<NoxpayPayment> {
    return this.exchange(operation, prefix, () => this.http(ctx).get<unknown>(fillPath(NOXPAY_PATHS.read, { id })), noxpayPayment);
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readNoxpayWebhook(notification.body));
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(readNoxpayWebhook(notification.body), ctx, notification);
  }

  /** With a webhook secret on the account, `X-Signature` must be base64(SHA-256(secret + raw body)); without one, unsigned (confirmed by a read). */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    if (!ctx.webhookSecret) return 'unsigned';
    const signature = notification.headers['x-signature'];
    return signature && safeEqualText(signature, noxpaySignature(ctx.webhookSecret, notification.body)) ? 'valid' : 'invalid';
  }
}
