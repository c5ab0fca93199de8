import { z } from 'zod';
import type {
  PaymentMethod,
  ReceiverInput,
  ReceiverResult,
  RefundResult,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { digitsOnly, inferDocumentType, type DocumentType } from '../../lib/documents.js';
import { GatewayError } from '../../lib/errors.js';
import { SECONDS_PER_DAY } from '../../lib/expiry.js';
import { formBody } from '../../lib/http/index.js';
import { parseJsonObject } from '../../lib/json.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { normalizePixKey, type PixKeyStyle, type PixKeyType } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { catalogueError, type CatalogueKey } from '../../lib/providerMessages.js';
import { declaredStatusTable, lookupStatus } from '../../lib/statusTable.js';
import { dateOf } from '../../lib/values.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { absentable, wireAmount, wireId, wireStatus, wireText } from '../kit/answers.js';
import { COMMON_RECEIVER_STATUSES, COMMON_WITHDRAWAL_STATUSES, DOC3_COMMON_STATUSES } from '../kit/commonStatuses.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, unusableAnswer, type ObjectNotification } from '../kit/declaredAdapter.js';

/**
 * MAKEYOURBANK (spec doc 3, group 3), a bespoke form-encoded dialect. What the
 * spec says: POST /marketplaces/{marketplace}/sellers/{seller}/transactions,
 * GET /payments/{id}, POST /payments/{id}/refund, POST /withdrawals/pix, GET
 * /withdrawals/{id}, POST /receivers, GET /receivers/{id}, form-encoded (§7);
 * unknown statuses PENDING, the common pattern otherwise (§4); the PIX code,
 * billet code and URL, refund id, withdraw id and receiver id must come back,
 * else an error (§5, §8: six messages whose wording is not shown, written in
 * the catalogue); PIX 1 day by default, billet 7 days, a 25 s timeout (§9).
 *
 * No public material on its API (provider research; one unconfirmed trace to
 * Paytime, a Zoop-style platform). The spec's marketplace/seller paths are
 * Zoop's shape, so where the spec is silent the dialect is Zoop's public
 * documentation (docs.zoop.co): Basic auth with the API key as user and no
 * password, amounts in cents, `payment_type` pix | boleto | credit, the PIX
 * copy-and-paste code in `payment_method.qr_code.emv`, statuses succeeded,
 * failed, canceled, pre_authorized, reversed, charged_back. Every other field
 * name is the gateway's decision (docs/decisions.md), in Zoop's snake_case.
 *
 * Read top to bottom: declaration → wire (zod schemas) → request mappers → status
 * tables → response mappers → notifications → the operations.
 */

// ---------------------------------------------------------------- declaration

/**
 * The marketplace and seller of the transactions path are the account's, not
 * placeholders: the public key packs 'marketplaceId|sellerId' (checked at the
 * door); the secret key is the API key.
 */
const CREDENTIALS = { publicKey: ['marketplaceId', 'sellerId'], required: ['publicKey', 'secretKey'] } as const;

export type MakeYourBankDeclaration = ProviderDeclaration & { credentials: typeof CREDENTIALS };

export const MAKEYOURBANK: MakeYourBankDeclaration = {
  // No public host: a placeholder after the brand's domain (makeyourbank.com.br); accounts set base_url.
  identity: { id: 'MAKEYOURBANK', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.makeyourbank.com.br' },
  capabilities: {
    paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'],
    withdrawMethods: ['PIX'],
    withdrawalLookup: true,
    refunds: true,
    receivers: true,
    webhooks: true,
  },
  auth: { type: 'basic', username: 'secretKey', password: 'empty' },
  credentials: CREDENTIALS,
  money: 'cents',
  // Its payout body's own default ('Saque solicitado', doc 1 §9), also what the gateway fills in for a caller who gives none.
  payouts: { description: 'requested' },
  expiry: { pixSeconds: SECONDS_PER_DAY, boletoSeconds: 7 * SECONDS_PER_DAY },
  timeoutMs: 25_000,
  evidence: { level: 'third-party' },
  sources:
    'paths, form-encoded bodies, unknown PENDING over the common status pattern, receiver statuses, the six missing-field errors, PIX 1 day, billet 7 days, 25 s timeout: spec (doc 3 §4/§5/§7/§8/§9); Basic with the API key and no password, cents, `payment_type` pix/boleto/credit, `payment_method.qr_code.emv`, the statuses succeeded, failed, canceled, pre_authorized, reversed, charged_back, `{id, type, payload.object}` events: Zoop public documentation (docs.zoop.co; the research links MakeYourBank only to a Zoop-style platform, unconfirmed); marketplace and seller ids from the public key `marketplaceId|sellerId`, the other field names, every answer beyond those, host: gateway (no public material; host a placeholder)',
};

export const MAKEYOURBANK_PATHS = {
  transactions: '/marketplaces/{marketplace}/sellers/{seller}/transactions',
  payment: '/payments/{id}',
  refund: '/payments/{id}/refund',
  pixWithdrawal: '/withdrawals/pix',
  withdrawal: '/withdrawals/{id}',
  receivers: '/receivers',
  receiver: '/receivers/{id}',
} as const;

// ---------------------------------------------------------------- wire (answers are JSON; requests are forms, below)

const paymentType = z.enum(['pix', 'boleto', 'credit']);
type PaymentType = z.infer<typeof paymentType>;

/**
 * The transactions path's form (Zoop's dialect): `amount` in integer cents, a
 * card by its token with an installment plan, else the validity's end
 * (ISO 8601); splits a fixed amount in cents or a percentage.
 */
export const mybTransactionRequest = z.object({
  amount: z.number().int().positive(),
  currency: z.string().min(1),
  payment_type: paymentType,
  description: z.string().optional(),
  reference_id: z.string().optional(),
  callback_url: z.string().min(1),
  customer: z.object({ name: z.string(), email: z.string(), document: z.string().regex(/^\d*$/), phone: z.string().optional() }).optional(),
  address: z.object({ street: z.string(), number: z.string(), district: z.string(), city: z.string(), state: z.string(), zip_code: z.string() }).optional(),
  token: z.string().optional(),
  installment_plan: z.object({ number_installments: z.number().int().positive() }).optional(),
  payment_method: z.object({ expiration_date: z.iso.datetime() }).optional(),
  split_rules: z
    .array(
      z.union([
        z.object({ recipient: z.string(), amount: z.number().int(), liable: z.boolean(), charge_processing_fee: z.boolean() }),
        z.object({ recipient: z.string(), percentage: z.number(), liable: z.boolean(), charge_processing_fee: z.boolean() }),
      ]),
    )
    .optional(),
});
export type MybTransactionRequest = z.infer<typeof mybTransactionRequest>;

/** The refund form: `amount` in integer cents. */
export const mybRefundRequest = z.object({ amount: z.number().int().nonnegative() });
export type MybRefundRequest = z.infer<typeof mybRefundRequest>;

/** Zoop's key type names: lower case, a random key is `evp`. */
const mybPixKeyType = z.enum(['cpf', 'cnpj', 'email', 'phone', 'evp']);

/** The PIX payout form: `amount` in integer cents. */
export const mybPixWithdrawalRequest = z.object({
  amount: z.number().int().positive(),
  pix_key: z.string().min(1),
  pix_key_type: mybPixKeyType,
  description: z.string().min(1),
  reference_id: z.string().optional(),
  recipient: z.object({ name: z.string().optional(), document: z.string().regex(/^\d*$/).optional() }).optional(),
});
export type MybPixWithdrawalRequest = z.infer<typeof mybPixWithdrawalRequest>;

/** The receivers form: the receiver with its document type in lower case, its bank account and address. */
export const mybReceiverRequest = z.object({
  name: z.string(),
  email: z.string(),
  document: z.string().regex(/^\d*$/),
  document_type: z.enum(['cpf', 'cnpj']),
  description: z.string().optional(),
  reference_id: z.string().optional(),
  bank_account: z
    .object({
      bank_code: z.string(),
      branch_number: z.string(),
      branch_digit: z.string().optional(),
      account_number: z.string(),
      account_digit: z.string(),
      account_type: z.string(),
      pix_key: z.string().optional(),
    })
    .optional(),
  address: z.object({ street: z.string(), number: z.string(), district: z.string(), city: z.string(), state: z.string(), zip_code: z.string() }).optional(),
});
export type MybReceiverRequest = z.infer<typeof mybReceiverRequest>;

/** A date-time as answered; an unreadable one reads as absent (an expiry or a transfer time: details, never the outcome). */
const wireDate = absentable(z.union([z.string(), z.number()]))
  .catch(undefined)
  .transform(dateOf);

/** Answer of the transactions path and of GET /payments/{id}: id and status required; amount in cents. */
export const MYB_PAYMENT = z.object({
  id: wireId,
  status: wireStatus,
  amount: absentable(wireAmount),
  payment_type: absentable(wireText),
  payment_method: absentable(
    z.object({
      qr_code: absentable(z.object({ emv: absentable(wireText) })),
      barcode: absentable(wireText),
      url: absentable(wireText),
      expiration_date: wireDate,
    }),
  ),
});
export type MybPayment = z.output<typeof MYB_PAYMENT>;

/** Answer of POST /payments/{id}/refund: its id may be missing (the spec's own error, §5), never of another type. */
export const MYB_REFUND = z.object({ id: absentable(wireId), status: absentable(wireStatus) });
export type MybRefund = z.output<typeof MYB_REFUND>;

/** Answer of POST /withdrawals/pix and GET /withdrawals/{id}: a missing id is the spec's error (§5); no status is PENDING. */
export const MYB_WITHDRAWAL = z.object({
  id: absentable(wireId),
  status: absentable(wireStatus),
  amount: absentable(wireAmount),
  transferred_at: wireDate,
});
export type MybWithdrawal = z.output<typeof MYB_WITHDRAWAL>;

/** Answer of POST /receivers and GET /receivers/{id}: a missing id is the spec's error (§5); the rest falls back to what was sent. */
export const MYB_RECEIVER = z.object({
  id: absentable(wireId),
  status: absentable(wireStatus),
  name: absentable(wireText),
  email: absentable(wireText),
  document: absentable(wireText),
  balance: absentable(wireAmount),
});
export type MybReceiver = z.output<typeof MYB_RECEIVER>;

/** A notification, Zoop's event shape: `{id, type: 'transaction.succeeded', payload: {object: {id, status}}}`. */
export const MYB_EVENT = z.object({
  id: absentable(wireId),
  type: wireText,
  payload: z.object({ object: z.object({ id: wireId, status: wireStatus }) }),
});
export type MybEvent = z.output<typeof MYB_EVENT>;

// ---------------------------------------------------------------- request mappers (form fields)

const PAYMENT_TYPES = paymentMethodCodec<PaymentMethod, PaymentType>({ PIX: 'pix', BILLET: 'boleto', CREDIT_CARD: 'credit' });

/** Phones in E.164. */
const PIX_KEY_STYLE: PixKeyStyle = { phonePrefix: '+55' };

/** Our key types by Zoop's names. */
const MYB_PIX_KEY_TYPES = { CPF: 'cpf', CNPJ: 'cnpj', EMAIL: 'email', PHONE: 'phone', RANDOM: 'evp' } as const satisfies Record<
  PixKeyType,
  z.infer<typeof mybPixKeyType>
>;

/** The type of a receiver's document, in the form's lower case. */
const MYB_DOCUMENT_TYPES = { CPF: 'cpf', CNPJ: 'cnpj' } as const satisfies Record<DocumentType, MybReceiverRequest['document_type']>;

/** Our charge → the transactions path's form; the validity is sent as the instant it ends (ISO 8601). */
export function toMybTransaction(
  input: TransactionInput,
  terms: { amount: number; splitAmount: (cents: number) => number; expiresAt: Date; notificationUrl: string },
): MybTransactionRequest {
  const customer = input.customer;
  const address = input.address;
  return {
    amount: terms.amount,
    currency: input.currency || 'BRL',
    payment_type: PAYMENT_TYPES.toProvider(input.paymentMethod),
    description: input.description || undefined,
    reference_id: input.orderId || undefined,
    callback_url: terms.notificationUrl,
    customer: customer && {
      name: customer.name,
      email: customer.email,
      document: digitsOnly(customer.document),
      phone: nationalPhoneDigits(customer.phone) || undefined,
    },
    address: address && {
      street: address.address,
      number: address.number,
      district: address.district,
      city: address.city,
      state: address.state,
      zip_code: digitsOnly(address.zipCode),
    },
    ...(input.paymentMethod === 'CREDIT_CARD'
      ? { token: input.cardId, installment_plan: { number_installments: input.installments || 1 } }
      : { payment_method: { expiration_date: terms.expiresAt.toISOString() } }),
    // Zoop's split rules: a fixed amount (the provider's unit, as the charge's) or a percentage; who bears the fee and the risk.
    split_rules: input.splits.length
      ? input.splits.map((split) => ({
          recipient: split.recipientId,
          ...(split.type === 'FIXED' ? { amount: terms.splitAmount(split.amount) } : { percentage: split.amount }),
          liable: split.liable,
          charge_processing_fee: split.chargeProcessingFee,
        }))
      : undefined,
  };
}

export function toMybPixWithdrawal(input: WithdrawInput & { pixKey: string; pixType: PixKeyType }, amount: number): MybPixWithdrawalRequest {
  return {
    amount,
    pix_key: normalizePixKey(input.pixKey, input.pixType, PIX_KEY_STYLE),
    pix_key_type: MYB_PIX_KEY_TYPES[input.pixType],
    description: input.description || defaultWithdrawDescription(input.amount, 'requested'),
    reference_id: input.withdrawReference || input.idempotencyKey || undefined,
    recipient: input.name || input.document ? { name: input.name, document: input.document && digitsOnly(input.document) } : undefined,
  };
}

export function toMybReceiver(input: ReceiverInput): MybReceiverRequest {
  const document = digitsOnly(input.document);
  const account = input.bankAccount;
  const address = input.address;
  return {
    name: input.name,
    email: input.email,
    document,
    document_type: MYB_DOCUMENT_TYPES[input.documentType ?? inferDocumentType(document)],
    description: input.description || undefined,
    reference_id: input.userId || undefined,
    bank_account: account && {
      bank_code: account.bankCode,
      branch_number: account.branchNumber,
      branch_digit: account.branchDigit || undefined,
      account_number: account.accountNumber,
      account_digit: account.accountDigit,
      account_type: account.accountType,
      pix_key: account.pixCode || undefined,
    },
    address: address && {
      street: address.street,
      number: address.number,
      district: address.district,
      city: address.city,
      state: address.state,
      zip_code: digitsOnly(address.zipcode),
    },
  };
}

/** A refund of `amount` (cents) of a payment. */
export const toMybRefund = (amount: number): MybRefundRequest => ({ amount });

// ---------------------------------------------------------------- status tables

/**
 * Charges: doc 3 §4's common pattern with Zoop's words; unknown PENDING (§4
 * names MakeYourBank among the exceptions), so every failure word is listed.
 */
export const MAKEYOURBANK_STATUSES = declaredStatusTable<TransactionStatus>(DOC3_COMMON_STATUSES, {
  overrides: {
    succeeded: 'APPROVED',
    pre_authorized: 'PENDING',
    failed: 'REJECTED',
    canceled: 'REJECTED',
    cancelled: 'REJECTED',
    expired: 'REJECTED',
    reversed: 'REFUNDED',
    charged_back: 'CHARGEBACK',
    dispute: 'CHARGEBACK',
  },
  unknown: 'PENDING',
});

/** Payouts: the common payout vocabulary (unknown PENDING) and Zoop's `succeeded`. */
export const MAKEYOURBANK_WITHDRAWAL_STATUSES = declaredStatusTable<WithdrawStatus>(COMMON_WITHDRAWAL_STATUSES, { overrides: { succeeded: 'APPROVED' } });

/** A refund answered with one of these did not happen. */
const REFUND_REFUSED: ReadonlySet<string> = new Set(['failed', 'refused', 'rejected', 'denied']);

// ---------------------------------------------------------------- response mappers

const missing = (key: CatalogueKey): GatewayError => catalogueError(key);

/**
 * A charge's answer → our result. `requested`: the PIX code, or the billet code
 * and URL, must be there (§5), else the spec's error; without an amount
 * answered or asked for, the answer is unusable.
 */
export function fromMybPayment(
  payment: MybPayment,
  terms: {
    status: (value: string) => TransactionStatus;
    amount: (value: number | string) => number;
    requested?: { method: PaymentMethod; amount: number; expiresAt: Date };
  },
): TransactionResult {
  const method = payment.payment_method;
  const paymentMethod =
    PAYMENT_TYPES.fromProvider(payment.payment_type) ??
    terms.requested?.method ??
    (method?.qr_code ? 'PIX' : method?.url || method?.barcode ? 'BILLET' : 'CREDIT_CARD');
  const amount = payment.amount !== undefined ? terms.amount(payment.amount) : (terms.requested?.amount ?? unusableAnswer('valor do pagamento'));
  const pixCode = method?.qr_code?.emv;
  const billetCode = method?.barcode;
  const billetUrl = method?.url;
  const expiresAt = paymentMethod === 'CREDIT_CARD' ? undefined : (method?.expiration_date ?? terms.requested?.expiresAt);
  if (terms.requested && paymentMethod === 'PIX' && !pixCode) throw missing('MAKEYOURBANK_PIX_CODE_MISSING');
  if (terms.requested && paymentMethod === 'BILLET' && !billetCode) throw missing('MAKEYOURBANK_BILLET_CODE_MISSING');
  if (terms.requested && paymentMethod === 'BILLET' && !billetUrl) throw missing('MAKEYOURBANK_BILLET_URL_MISSING');
  return {
    paymentMethod,
    transactionId: payment.id,
    status: terms.status(payment.status),
    amount,
    ...(paymentMethod === 'PIX' && pixCode ? { pixCode } : {}),
    ...(paymentMethod === 'BILLET' && billetCode ? { billetCode } : {}),
    ...(paymentMethod === 'BILLET' && billetUrl ? { billetUrl } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** The refund's own id must come back (§5); its status, when it refuses, makes the refund a failed one. */
export function fromMybRefund(refund: MybRefund): RefundResult {
  if (!refund.id) throw missing('MAKEYOURBANK_REFUND_ID_MISSING');
  const status = refund.status?.toLowerCase();
  return { refundId: refund.id, status: !(status && REFUND_REFUSED.has(status)) };
}

/** The payout's id must come back (§5); without a status it is PENDING (the unknown rule), without an amount the one asked for. */
export function fromMybWithdrawal(
  withdrawal: MybWithdrawal,
  terms: { status: (value: string | undefined) => WithdrawStatus; amount: (value: number | string) => number; requestedAmount?: number },
): WithdrawResult {
  if (!withdrawal.id) throw missing('MAKEYOURBANK_WITHDRAW_ID_MISSING');
  const amount = withdrawal.amount !== undefined ? terms.amount(withdrawal.amount) : (terms.requestedAmount ?? unusableAnswer('valor do saque'));
  const status = terms.status(withdrawal.status);
  const approvedAt = status === 'APPROVED' ? withdrawal.transferred_at : undefined;
  return { withdrawId: withdrawal.id, amount, status, ...(approvedAt ? { approvedAt } : {}) };
}

/** The receiver's id must come back (§5); the rest falls back to what was sent. */
export function fromMybReceiver(receiver: MybReceiver, input: Partial<ReceiverInput>, amount: (value: number | string) => number): ReceiverResult {
  if (!receiver.id) throw missing('MAKEYOURBANK_RECEIVER_ID_MISSING');
  const document = receiver.document ?? digitsOnly(input.document ?? '');
  return {
    receiverProvider: MAKEYOURBANK.identity.id,
    receiverId: receiver.id,
    name: receiver.name ?? input.name ?? '',
    document,
    documentType: input.documentType ?? inferDocumentType(document),
    email: receiver.email ?? input.email ?? '',
    status: lookupStatus(COMMON_RECEIVER_STATUSES, receiver.status),
    balance: receiver.balance !== undefined ? amount(receiver.balance) : 0,
  };
}

// ---------------------------------------------------------------- notifications

const EVENT_KINDS: Readonly<Record<string, ObjectNotification['kind']>> = { transaction: 'transaction', withdrawal: 'withdrawal' };

/** `transaction.*` and `withdrawal.*` events carrying their object's id and status; anything else is ignored. */
export function readMybEvent(body: Buffer): (ObjectNotification & { eventId?: string }) | undefined {
  const parsed = MYB_EVENT.safeParse(parseJsonObject(body));
  if (!parsed.success) return undefined;
  const event = parsed.data;
  const [family = ''] = event.type.toLowerCase().split('.');
  const kind = EVENT_KINDS[family];
  if (!kind) return undefined;
  const { id, status } = event.payload.object;
  return { kind, id, status, ...(event.id ? { eventId: event.id } : {}) };
}

// ---------------------------------------------------------------- operations

export class MakeYourBankAdapter extends DeclaredAdapter<MakeYourBankDeclaration> {
  constructor(declaration: MakeYourBankDeclaration = MAKEYOURBANK, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: MAKEYOURBANK_STATUSES, withdrawalStatuses: MAKEYOURBANK_WITHDRAWAL_STATUSES });
  }

  private readonly amountOf = (value: number | string): number => this.fromProviderAmount(value);

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId?.trim()) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    const { marketplaceId, sellerId } = this.credentials(ctx);
    const expiresAt = this.expiresAt(input.paymentMethod === 'BILLET' ? this.boletoExpirySeconds : this.pixExpirySeconds);
    const path = fillPath(MAKEYOURBANK_PATHS.transactions, { marketplace: marketplaceId, seller: sellerId });
    const body = formBody(
      toMybTransaction(input, {
        amount: this.toProviderAmount(input.amount),
        splitAmount: (cents) => this.toProviderAmount(cents),
        expiresAt,
        notificationUrl: ctx.notificationUrl,
      }),
    );
    const payment = await this.exchange('createTransaction', this.prefixFor('createTransaction'), () => this.http(ctx).post(path, body), MYB_PAYMENT);
    const result = this.mapped('createTransaction', this.prefixFor('createTransaction'), () =>
      fromMybPayment(payment, {
        status: (value) => this.transactionStatus(value),
        amount: this.amountOf,
        requested: { method: input.paymentMethod, amount: input.amount, expiresAt },
      }),
    );
    return pixCodeOnly(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const payment = await this.exchange(
      'getTransaction',
      this.prefixFor('getTransaction'),
      () => this.http(ctx).get(fillPath(MAKEYOURBANK_PATHS.payment, { id: transactionId })),
      MYB_PAYMENT,
    );
    const result = this.mapped('getTransaction', this.prefixFor('getTransaction'), () =>
      fromMybPayment(payment, { status: (value) => this.transactionStatus(value), amount: this.amountOf }),
    );
    return pixCodeOnly({ ...result, transactionId });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const refund = await this.exchange(
      'refoundTransaction',
      this.prefixFor('refoundTransaction'),
      () => this.http(ctx).post(fillPath(MAKEYOURBANK_PATHS.refund, { id: transactionId }), formBody(toMybRefund(this.toProviderAmount(amount)))),
      MYB_REFUND,
    );
    return fromMybRefund(refund);
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const withdrawal = await this.exchange(
      'withdraw',
      this.prefixFor('withdraw'),
      () => this.http(ctx).post(MAKEYOURBANK_PATHS.pixWithdrawal, formBody(toMybPixWithdrawal(payout, this.toProviderAmount(payout.amount)))),
      MYB_WITHDRAWAL,
    );
    return this.mapped('withdraw', this.prefixFor('withdraw'), () =>
      fromMybWithdrawal(withdrawal, { status: (value) => this.withdrawalStatus(value), amount: this.amountOf, requestedAmount: input.amount }),
    );
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const withdrawal = await this.exchange(
      'getWithdraw',
      this.prefixFor('getWithdraw'),
      () => this.http(ctx).get(fillPath(MAKEYOURBANK_PATHS.withdrawal, { id: withdrawId })),
      MYB_WITHDRAWAL,
    );
    const result = this.mapped('getWithdraw', this.prefixFor('getWithdraw'), () =>
      fromMybWithdrawal(withdrawal, { status: (value) => this.withdrawalStatus(value), amount: this.amountOf }),
    );
    return { ...result, withdrawId };
  }

  override async createReceiver(ctx: AdapterContext, input: ReceiverInput): Promise<ReceiverResult> {
    const receiver = await this.exchange(
      'createReceiver',
      this.prefixFor('createReceiver'),
      () => this.http(ctx).post(MAKEYOURBANK_PATHS.receivers, formBody(toMybReceiver(input))),
      MYB_RECEIVER,
    );
    return this.mapped('createReceiver', this.prefixFor('createReceiver'), () => fromMybReceiver(receiver, input, this.amountOf));
  }

  override async getReceiver(ctx: AdapterContext, receiverId: string): Promise<ReceiverResult> {
    const receiver = await this.exchange(
      'getReceiver',
      this.prefixFor('getReceiver'),
      () => this.http(ctx).get(fillPath(MAKEYOURBANK_PATHS.receiver, { id: receiverId })),
      MYB_RECEIVER,
    );
    return { ...this.mapped('getReceiver', this.prefixFor('getReceiver'), () => fromMybReceiver(receiver, {}, this.amountOf)), receiverId };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readMybEvent(notification.body));
  }

  /** Zoop-style events carry their own id; without one, the object's kind, id and status. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.eventNotificationKey(readMybEvent(notification.body), ctx, notification);
  }
}
