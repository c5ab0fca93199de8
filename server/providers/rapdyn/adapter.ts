import type {
  Operation,
  PaymentMethod,
  RefundResult,
  TransactionInput,
  TransactionResult,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
} from '../../domain/types.js';
import axios from 'axios';
import { z } from 'zod';
import { tokenizableCard, type CardInput } from '../../lib/card.js';
import { digitsOnly, requireCnpjDigits, requireCpfDigits, requirePhoneDigits } from '../../lib/documents.js';
import { GatewayError } from '../../lib/errors.js';
import { parseJsonObject } from '../../lib/json.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { normalizePixKey, type PixKeyType } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { catalogueError, rapdynWithdrawErrorMessage } from '../../lib/providerMessages.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { COMMON_WITHDRAWAL_STATUSES, DOC3_COMMON_STATUSES } from '../kit/commonStatuses.js';
import { parseCredentials } from '../kit/credentials.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { absentable, wireAmount, wireId, wireStatus, wireText, unwrappedAnswer } from '../kit/answers.js';
import { DeclaredAdapter, type ObjectNotification } from '../kit/declaredAdapter.js';

/**
 * RAPDYN (spec doc 3, group 3): a bespoke dialect. What the spec says (its notes
 * are cut off; nothing beyond is shown): POST /transfers/out {pix_key_type,
 * pix_key, value} read for status and transfer_id, POST /card-token with the
 * publicKey query {number, holderName, expirationMonth, expirationYear, cvv},
 * POST /payments {amount, method pix, customer, products}, GET
 * /transactions/{id}, PUT /payments/refund/{id} (§7); doc 3's common pattern,
 * unknown REJECTED (§4); RANDOM keys as EVP, the CPF, CNPJ and phone checks
 * with its own texts (§5, the texts in the catalogue); 'Houve um erro ao tentar
 * realizar o saque' followed by the response data (§8); PIX valid 1 day (§9).
 * From third-party integrations (provider research; no official documentation):
 * host api.rapdyn.io/v1, a Bearer token, amounts in cents, the payment body
 * `{amount, method, external_id, customer {name, email, phone, document {type,
 * value}}, products [{name, price, quantity, type digital|physical}]}` and the
 * answer's `id` and `pix.copy_paste` / `copy_paste` (low confidence). The rest
 * is the gateway's decision (docs/decisions.md).
 */

// ---------------------------------------------------------------- declaration

export const RAPDYN: ProviderDeclaration = {
  identity: { id: 'RAPDYN', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.rapdyn.io/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD'], withdrawMethods: ['PIX'], refunds: true, cardTokens: true, webhooks: true },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  evidence: { level: 'third-party' },
  sources:
    "paths, card-token query and fields, payout fields, RANDOM as EVP, CPF/CNPJ/phone checks, the payout text, statuses, 1-day PIX: spec (doc 3 §4/§5/§7/§8/§9); host `api.rapdyn.io/v1`, Bearer, cents, the payment body (external_id, customer.document {type, value}, products) and its answer's id and copy-paste code: research (third-party integrations, low confidence); card charges with the token, the refund body, the answers' other fields, the postback: the gateway's decision",
};

export const RAPDYN_PATHS = {
  create: '/payments',
  get: '/transactions/{id}',
  refund: '/payments/refund/{id}',
  cardToken: '/card-token',
  withdraw: '/transfers/out',
} as const;

const rapdynMethod = z.enum(['pix', 'credit_card', 'boleto']);
const RAPDYN_METHODS = paymentMethodCodec<PaymentMethod, z.infer<typeof rapdynMethod>>({ PIX: 'pix', CREDIT_CARD: 'credit_card', BILLET: 'boleto' });

// ---- wire: requests

const rapdynCustomerRequest = z.object({
  name: z.string(),
  email: z.string(),
  phone: z.string().regex(/^\d+$/),
  document: z.discriminatedUnion('type', [
    z.object({ type: z.literal('CPF'), value: z.string().regex(/^\d{11}$/) }),
    z.object({ type: z.literal('CNPJ'), value: z.string().regex(/^\d{14}$/) }),
  ]),
});

/** Body of POST /payments: amounts in integer cents, at least one product, a card charge by its Rapdyn token. */
export const rapdynPaymentRequest = z.object({
  amount: z.number().int().positive(),
  method: rapdynMethod,
  external_id: z.string().optional(),
  customer: rapdynCustomerRequest.optional(),
  products: z
    .array(z.object({ name: z.string(), price: z.number().int().nonnegative(), quantity: z.number().int().positive(), type: z.enum(['physical', 'digital']) }))
    .min(1),
  card_token: z.string().optional(),
  installments: z.number().int().nonnegative().optional(),
  postback_url: z.string().min(1),
});
export type RapdynPaymentRequest = z.infer<typeof rapdynPaymentRequest>;

/** Body of PUT /payments/refund/{id}: `amount` in integer cents. */
export const rapdynRefundRequest = z.object({ amount: z.number().int().nonnegative() });
export type RapdynRefundRequest = z.infer<typeof rapdynRefundRequest>;

/** §5's key type names: ours, RANDOM named EVP. */
const rapdynPixKeyType = z.enum(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP']);
export const RAPDYN_PIX_KEY_TYPES = { CPF: 'CPF', CNPJ: 'CNPJ', EMAIL: 'EMAIL', PHONE: 'PHONE', RANDOM: 'EVP' } as const satisfies Record<
  PixKeyType,
  z.infer<typeof rapdynPixKeyType>
>;

/** Body of POST /transfers/out (§7): `value` in integer cents. */
export const rapdynTransferRequest = z.object({ pix_key_type: rapdynPixKeyType, pix_key: z.string().min(1), value: z.number().int().positive() });
export type RapdynTransferRequest = z.infer<typeof rapdynTransferRequest>;

// ---------------------------------------------------------------- request mappers

/** The customer's document and phone pass §5's checks (length only, Rapdyn's texts) before anything is sent. */
function rapdynCustomer(customer: NonNullable<TransactionInput['customer']>): z.infer<typeof rapdynCustomerRequest> {
  const digits = digitsOnly(customer.document);
  const cnpj = digits.length > 11;
  const value = cnpj ? requireCnpjDigits(digits, 'transaction.customer.document') : requireCpfDigits(digits, 'transaction.customer.document');
  return {
    name: customer.name,
    email: customer.email,
    phone: requirePhoneDigits(nationalPhoneDigits(customer.phone), 'transaction.customer.phone'),
    document: cnpj ? { type: 'CNPJ', value } : { type: 'CPF', value },
  };
}

export function toRapdynPayment(input: TransactionInput, terms: { amount: (cents: number) => number; notificationUrl: string }): RapdynPaymentRequest {
  const products: RapdynPaymentRequest['products'] = input.items.length
    ? input.items.map((item) => ({
        name: item.title,
        price: terms.amount(item.unitPrice),
        quantity: item.quantity,
        type: item.tangible ? 'physical' : 'digital',
      }))
    : [{ name: input.description || 'Pagamento', price: terms.amount(input.amount), quantity: 1, type: 'digital' }];
  return {
    amount: terms.amount(input.amount),
    method: RAPDYN_METHODS.toProvider(input.paymentMethod),
    ...(input.orderId ? { external_id: input.orderId } : {}),
    ...(input.customer ? { customer: rapdynCustomer(input.customer) } : {}),
    products,
    ...(input.paymentMethod === 'CREDIT_CARD' ? { card_token: input.cardId, installments: input.installments } : {}),
    postback_url: terms.notificationUrl,
  };
}

/** The payout body of §7: the key checked and typed by §5's rules, the value in cents. */
export function toRapdynTransfer(input: { pixKey: string; pixType: NonNullable<WithdrawInput['pixType']> }, value: number): RapdynTransferRequest {
  const checked =
    input.pixType === 'CPF'
      ? requireCpfDigits(input.pixKey, 'withdraw.pix_key')
      : input.pixType === 'CNPJ'
        ? requireCnpjDigits(input.pixKey, 'withdraw.pix_key')
        : input.pixType === 'PHONE'
          ? requirePhoneDigits(nationalPhoneDigits(input.pixKey), 'withdraw.pix_key')
          : input.pixKey;
  return { pix_key_type: RAPDYN_PIX_KEY_TYPES[input.pixType], pix_key: normalizePixKey(checked, input.pixType), value };
}

/** A refund of `amount` (cents) of a payment. */
export const toRapdynRefund = (amount: number): RapdynRefundRequest => ({ amount });

// ---- wire

/** An answer bare or wrapped in `data` (an object there is the answer): a mismatch names the answer's field at fault. */
const answer = <T extends z.ZodType>(fields: T) => unwrappedAnswer(fields);

/** Answer of POST /card-token: the token as `token`, else `id`. */
export const rapdynCardToken = answer(z.object({ token: absentable(wireId), id: absentable(wireId) })).transform((body, ctx) => {
  const token = body.token ?? body.id;
  if (token) return token;
  ctx.addIssue({ code: 'custom', path: ['token'], message: 'token do cartão ausente' });
  return z.NEVER;
});

const pixCodes = {
  copy_paste: absentable(wireText),
  qr_code: absentable(wireText),
  pix: absentable(z.object({ copy_paste: absentable(wireText), qr_code: absentable(wireText) })),
};

/** The copy-paste code: `pix.copy_paste` or `copy_paste`, else the `qr_code` text. */
const pixCodeOf = (charge: { copy_paste?: string; qr_code?: string; pix?: { copy_paste?: string; qr_code?: string } }): string | undefined =>
  charge.pix?.copy_paste ?? charge.copy_paste ?? charge.pix?.qr_code ?? charge.qr_code;

/** Answer of POST /payments: the payment created (a status is not always named: then it is not paid yet). */
const createdFields = z.object({ id: wireId, status: absentable(wireStatus), amount: absentable(wireAmount), ...pixCodes });
export const rapdynCreated = answer(createdFields);

/** The same for a PIX payment, which exists for its copy-paste code: without one nobody could pay it. */
export const rapdynPixCreated = answer(
  createdFields.superRefine((charge, ctx) => {
    if (!pixCodeOf(charge)) ctx.addIssue({ code: 'custom', path: ['pix', 'copy_paste'], message: 'código PIX ausente' });
  }),
);

/** Answer of GET /transactions/{id}. */
export const rapdynTransaction = answer(z.object({ id: wireId, status: wireStatus, amount: wireAmount, method: absentable(wireText), ...pixCodes }));

/** Answer of PUT /payments/refund/{id}: its status (one the table reads as REJECTED is a refusal). */
export const rapdynRefund = answer(z.object({ status: wireStatus, refund_id: absentable(wireId), id: absentable(wireId) }));

/** Answer of POST /transfers/out. */
export const rapdynTransfer = answer(z.object({ transfer_id: wireId, status: wireStatus, value: absentable(wireAmount) }));

/** A postback: the charge itself, bare or in `data` beside the event's own id (no public shape: the gateway's reading). */
const postbackCharge = z.object({ id: wireId, status: wireStatus });
export const rapdynPostback = z.union([
  z.object({ id: absentable(wireId), data: postbackCharge }).transform((body) => ({ charge: body.data, eventId: body.id })),
  postbackCharge.transform((charge) => ({ charge, eventId: undefined })),
]);

export function readRapdynPostback(body: Buffer): (ObjectNotification & { eventId?: string }) | undefined {
  const parsed = rapdynPostback.safeParse(parseJsonObject(body));
  if (!parsed.success) return undefined;
  const { charge, eventId } = parsed.data;
  return { kind: 'transaction', id: charge.id, status: charge.status, ...(eventId ? { eventId } : {}) };
}

// ---------------------------------------------------------------- operations

export class RapdynAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = RAPDYN, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: DOC3_COMMON_STATUSES, withdrawalStatuses: COMMON_WITHDRAWAL_STATUSES });
  }

  override async createCardToken(ctx: AdapterContext, card: CardInput): Promise<string> {
    const prefix = this.prefixFor('createCardToken');
    // §7: the account's public key travels as the query; without it there is nothing to ask with.
    parseCredentials({ required: ['publicKey', 'secretKey'] }, ctx);
    return this.exchange(
      'createCardToken',
      prefix,
      () => this.http(ctx).post<unknown>(RAPDYN_PATHS.cardToken, tokenizableCard(card), { params: { publicKey: ctx.publicKey } }),
      rapdynCardToken,
    );
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const pix = input.paymentMethod === 'PIX';
    if (!pix && !input.cardId?.trim()) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    const prefix = this.prefixFor('createTransaction');
    const body = toRapdynPayment(input, { amount: (cents) => this.toProviderAmount(cents), notificationUrl: ctx.notificationUrl });
    const charge = await this.exchange(
      'createTransaction',
      prefix,
      () => this.http(ctx).post<unknown>(RAPDYN_PATHS.create, body),
      pix ? rapdynPixCreated : rapdynCreated,
    );
    const common = {
      paymentMethod: input.paymentMethod,
      transactionId: charge.id,
      // A charge just created that names no status has not been paid: PENDING.
      status: charge.status ? this.transactionStatus(charge.status) : ('PENDING' as const),
      amount: this.mapped('createTransaction', prefix, () => this.amountOr(charge.amount, input.amount, 'valor da transação')),
    };
    const pixCode = pixCodeOf(charge);
    if (!pix || !pixCode) return common;
    return pixCodeOnly({ ...common, pixCode, expiresAt: this.expiresAt(this.pixExpirySeconds) });
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const charge = await this.exchange(
      'getTransaction',
      prefix,
      () => this.http(ctx).get<unknown>(fillPath(RAPDYN_PATHS.get, { id: transactionId })),
      rapdynTransaction,
    );
    const pixCode = pixCodeOf(charge);
    return {
      paymentMethod: RAPDYN_METHODS.fromProvider(charge.method) ?? 'PIX',
      transactionId: charge.id,
      status: this.transactionStatus(charge.status),
      amount: this.mapped('getTransaction', prefix, () => this.amountOr(charge.amount, undefined, 'valor da transação')),
      ...(pixCode ? { pixCode } : {}),
    };
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const refund = await this.exchange(
      'refoundTransaction',
      this.prefixFor('refoundTransaction'),
      () => this.http(ctx).put<unknown>(fillPath(RAPDYN_PATHS.refund, { id: transactionId }), toRapdynRefund(this.toProviderAmount(amount))),
      rapdynRefund,
    );
    return { refundId: refund.refund_id ?? refund.id ?? transactionId, status: this.transactionStatus(refund.status) !== 'REJECTED' };
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const body = toRapdynTransfer(payout, this.toProviderAmount(input.amount));
    const prefix = this.prefixFor('withdraw');
    const transfer = await this.exchange('withdraw', prefix, () => this.http(ctx).post<unknown>(RAPDYN_PATHS.withdraw, body), rapdynTransfer);
    return {
      withdrawId: transfer.transfer_id,
      status: this.withdrawalStatus(transfer.status),
      amount: this.mapped('withdraw', prefix, () => this.amountOr(transfer.value, input.amount, 'valor do saque')),
    };
  }

  /** §8: a payout the provider refused is 'Houve um erro ao tentar realizar o saque' followed by the response data; the rest keeps the common texts. */
  protected override failure(operation: Operation, prefix: string, error: unknown): GatewayError {
    const common = super.failure(operation, prefix, error);
    const response = axios.isAxiosError(error) ? error.response : undefined;
    if (operation !== 'withdraw' || !response?.status) return common;
    return new GatewayError(common.code, rapdynWithdrawErrorMessage(response.data), common.details);
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readRapdynPostback(notification.body));
  }

  /** The event's own id where the body has one, else the charge's id and status. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.eventNotificationKey(readRapdynPostback(notification.body), ctx, notification);
  }
}
