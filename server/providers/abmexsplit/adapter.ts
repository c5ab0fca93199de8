import { z } from 'zod';
import { randomInt } from 'node:crypto';
import type {
  Operation,
  PaymentMethod,
  ReceiverInput,
  ReceiverResult,
  RefundResult,
  Split,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
} from '../../domain/types.js';
import { compensationCode } from '../../lib/banks.js';
import { digitsOnly, inferDocumentType } from '../../lib/documents.js';
import { invalidArgument } from '../../lib/errors.js';
import { expiresAfter } from '../../lib/expiry.js';
import type { ProviderResponse } from '../../lib/http/index.js';
import { parseJsonObject } from '../../lib/json.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { catalogueError, providerFailure } from '../../lib/providerMessages.js';
import { lookupStatus, statusTable } from '../../lib/statusTable.js';
import { dateOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { orRefusal } from '../families/transactionsApi/wire.js';
import { absentable, wireAmount, wireId, wireStatus, wireText, type AnswerSchema } from '../kit/answers.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { COMMON_RECEIVER_STATUSES } from '../kit/commonStatuses.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import { ABMEXSPLIT_SUPPORTED_BANKS, BANKS_WITHOUT_BRANCH_DIGIT } from './banks.js';
import { notificationKeyOf } from '../notificationKeys.js';

/**
 * ABMEXSPLIT (spec doc 2, group 2): a bespoke dialect of sells split between
 * marketplaces. What the spec says: POST /marketplaces, GET /marketplaces/{id},
 * POST /sells (items, customer, splits, payment_method, webhook, credit_card),
 * GET /sells/{id}, POST /sells/{id}/refund (§7); its marketplaces are its
 * receivers, whose token is the receiverToken only ABMEXSPLIT has (§3); CPF
 * documents rejected, banks from a 28-entry list, no branch digit above 0 at
 * banks 001, 036, 246, 204, 237 (§5, §9); splits FIXED (cents) or percent, the
 * first dropped when it has no marketplace id (§5, §9); a random price_range
 * between 50 and 150000 (§9); 'Receiver not found.' (§8); notifications
 * identified by `sell_id` (§4). The research found only contradictory plugin
 * code for ABMEX, nothing for ABMEXSPLIT: every body and answer below beyond
 * the spec's field names is the gateway's decision (docs/decisions.md), in the
 * snake_case the spec's names use; amounts in cents, as the spec gives its
 * fixed splits.
 *
 * Read top to bottom: declaration → wire shapes → request mappers → status
 * tables → response mappers → notifications → the operations, one HTTP exchange each.
 */

// ---------------------------------------------------------------- declaration

export const ABMEXSPLIT: ProviderDeclaration = {
  // The ABMEX host the research saw (api2.abmex.com.br); unconfirmed for the split API: accounts set base_url.
  identity: { id: 'ABMEXSPLIT', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://api2.abmex.com.br' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'], refunds: true, receivers: true, webhooks: true },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  // 'Receiver not found.' (doc 2 §8) when the provider does not know the marketplace; the other failures under the common prefix.
  notFound: { getReceiver: 'RECEIVER_NOT_FOUND' },
  evidence: { level: 'third-party' },
  sources:
    "paths, sell fields (items, customer, splits, payment_method, webhook, credit_card), receiverToken, CPF and bank rules, branch-digit banks, split types and first-split rule, price_range bounds, 'Receiver not found.', `sell_id` notifications: spec (doc 2 §3/§4/§5/§7/§8/§9); the 11 bank codes the spec shows (of its 28): spec, kept as data in `server/providers/abmexsplit/banks.ts`; every body and answer beyond those names, bearer auth, cents, statuses beyond the common pattern: gateway (the research found only contradictory ABMEX plugin code, none for ABMEXSPLIT); host: the ABMEX host the research saw (`api2.abmex.com.br`), unconfirmed",
};

export const ABMEXSPLIT_PATHS = {
  marketplaces: '/marketplaces',
  marketplace: '/marketplaces/{id}',
  sells: '/sells',
  sell: '/sells/{id}',
  refund: '/sells/{id}/refund',
} as const;

/** Doc 2 §9: "its random price_range falls between 50 and 150000" (both included). */
export const PRICE_RANGE = { min: 50, max: 150_000 } as const;

// ---------------------------------------------------------------- wire shapes

const sellPaymentMethod = z.enum(['pix', 'credit_card', 'boleto']);
type SellPaymentMethod = z.infer<typeof sellPaymentMethod>;

/** Body of POST /marketplaces: a company (CNPJ) with its bank account; `price_range` within PRICE_RANGE (doc 2 §9). */
export const marketplaceRequest = z.object({
  name: z.string(),
  email: z.string(),
  document: z.string().regex(/^\d+$/),
  document_type: z.literal('CNPJ'),
  description: z.string().optional(),
  price_range: z.number().int().min(PRICE_RANGE.min).max(PRICE_RANGE.max),
  bank_account: z.object({
    bank_code: z.string().regex(/^\d{3}$/),
    branch_number: z.string(),
    branch_digit: z.string().optional(),
    account_number: z.string(),
    account_digit: z.string(),
    account_type: z.string(),
    pix_key: z.string().optional(),
  }),
  address: z.object({ street: z.string(), number: z.string(), district: z.string(), city: z.string(), state: z.string(), zip_code: z.string() }).optional(),
  monthly_revenue: z.number().optional(),
});
export type MarketplaceRequest = z.infer<typeof marketplaceRequest>;

/** A date as text or epoch milliseconds; one that does not read as a date is absent. */
const wireDate = absentable(z.union([z.string(), z.number()])).transform(dateOf);

/** Answer of POST /marketplaces and GET /marketplaces/{id}: a marketplace has its id. */
export const abmexsplitMarketplace = z.object({
  id: wireId,
  token: absentable(wireText),
  name: absentable(wireText),
  document: absentable(wireText),
  email: absentable(wireText),
  status: absentable(wireStatus),
  balance: absentable(wireAmount),
});
export type Marketplace = z.output<typeof abmexsplitMarketplace>;

/** A split: FIXED in integer cents, else a percentage (doc 2 §9). */
const sellSplit = z.discriminatedUnion('type', [
  z.object({ marketplace_id: z.string(), type: z.literal('FIXED'), value: z.number().int() }),
  z.object({ marketplace_id: z.string(), type: z.literal('percent'), value: z.number() }),
]);

/** Body of POST /sells (doc 2 §7: items, customer, splits, payment_method, webhook, credit_card); prices in integer cents. */
export const sellRequest = z.object({
  items: z.array(z.object({ title: z.string(), unit_price: z.number().int(), quantity: z.number().int().positive(), tangible: z.boolean() })).min(1),
  customer: z.object({ name: z.string(), email: z.string(), document: z.string(), phone: z.string() }).optional(),
  splits: z.array(sellSplit),
  payment_method: sellPaymentMethod,
  webhook: z.string().min(1),
  credit_card: z.object({ token: z.string(), installments: z.number().int().positive() }).optional(),
});
export type SellRequest = z.infer<typeof sellRequest>;

/** Answer of POST /sells and GET /sells/{id}: a sell has its id and status. */
export const abmexsplitSell = z.object({
  id: wireId,
  status: wireStatus,
  amount: absentable(wireAmount),
  payment_method: absentable(wireText),
  pix: absentable(z.object({ qr_code: absentable(wireText), expires_at: wireDate })),
  boleto: absentable(z.object({ digitable_line: absentable(wireText), url: absentable(wireText), due_date: wireDate })),
});
export type Sell = z.output<typeof abmexsplitSell>;

/** Answer of POST /sells/{id}/refund: it says something of the refund, its id or its status (or both). */
export const abmexsplitRefund = z.union([z.object({ id: wireId, status: absentable(wireStatus) }), z.object({ id: absentable(wireId), status: wireStatus })]);
export type SellRefund = z.output<typeof abmexsplitRefund>;

/** A notification: the sell and its status (doc 2 §4 names `sell_id` among the identifying fields). */
export const abmexsplitNotification = z.object({ sell_id: wireId, status: wireStatus });

// ---------------------------------------------------------------- request mappers

const SELL_METHODS = paymentMethodCodec<PaymentMethod, SellPaymentMethod>({ PIX: 'pix', CREDIT_CARD: 'credit_card', BILLET: 'boleto' });

/** A price range from a CSPRNG within PRICE_RANGE (doc 2 §9). */
export const randomPriceRange = (): number => randomInt(PRICE_RANGE.min, PRICE_RANGE.max + 1);

/**
 * The receiver rules of doc 2 §5, checked before anything is sent: the
 * acquirer takes companies only ('Adquirente não aceita CPF'), banks of its
 * list only ('Banco não suportado, tente outro.'), and no branch digit above 0
 * at 001, 036, 246, 204, 237 (the spec shows no text for that one: the
 * gateway's, naming the field). Returns the bank's three-digit code.
 */
export function checkMarketplace(input: ReceiverInput): string {
  if ((input.documentType ?? inferDocumentType(input.document)) === 'CPF') throw catalogueError('ADQUIRENTE_NAO_ACEITA_CPF', { field: 'receiver.document' });
  const account = input.bankAccount;
  if (!account)
    throw invalidArgument('receiver.bank_account', 'receiver.bank_account is required: ABMEXSPLIT pays its marketplaces to a bank account', 'REQUIRED');
  const bank = compensationCode(account.bankCode);
  if (!Object.hasOwn(ABMEXSPLIT_SUPPORTED_BANKS, bank)) throw catalogueError('BANCO_NAO_SUPORTADO', { field: 'receiver.bank_account.bank_code' });
  const digit = (account.branchDigit ?? '').trim();
  if (BANKS_WITHOUT_BRANCH_DIGIT.has(bank) && digit && !/^0+$/.test(digit))
    throw invalidArgument('receiver.bank_account.branch_digit', `receiver.bank_account.branch_digit must be empty or 0 for bank ${bank}`, 'INVALID_VALUE');
  return bank;
}

export function toMarketplace(input: ReceiverInput, bankCode: string, priceRange: number): MarketplaceRequest {
  const account = input.bankAccount!;
  const address = input.address;
  return {
    name: input.name,
    email: input.email,
    document: digitsOnly(input.document),
    document_type: 'CNPJ',
    ...(input.description ? { description: input.description } : {}),
    price_range: priceRange,
    bank_account: {
      bank_code: bankCode,
      branch_number: account.branchNumber,
      ...(account.branchDigit?.trim() ? { branch_digit: account.branchDigit.trim() } : {}),
      account_number: account.accountNumber,
      account_digit: account.accountDigit,
      account_type: account.accountType,
      ...(account.pixCode ? { pix_key: account.pixCode } : {}),
    },
    ...(address
      ? {
          address: {
            street: address.street,
            number: address.number,
            district: address.district,
            city: address.city,
            state: address.state,
            zip_code: digitsOnly(address.zipcode),
          },
        }
      : {}),
    ...(input.monthlyRevenue !== undefined ? { monthly_revenue: input.monthlyRevenue } : {}),
  };
}

/** Doc 2 §5: the first split is dropped when it has no marketplace id; FIXED is in cents, the rest percent (§9). */
export function toSellSplits(splits: readonly Split[]): SellRequest['splits'] {
  const [first, ...others] = splits;
  const kept = first && !first.recipientId.trim() ? others : splits;
  return kept.map((split) => ({ marketplace_id: split.recipientId, type: split.type === 'FIXED' ? 'FIXED' : 'percent', value: split.amount }));
}

/**
 * Our charge → POST /sells. A sell has no amount of its own (§7 lists none):
 * it is its items', so the caller's items are sent when they total the amount,
 * else one item of the whole amount. The webhook is the gateway's sidecar.
 */
export function toSell(input: TransactionInput, webhook: string): SellRequest {
  const total = input.items.reduce((sum, item) => sum + item.unitPrice * item.quantity, 0);
  const items =
    input.items.length && total === input.amount
      ? input.items.map(({ title, unitPrice, quantity, tangible }) => ({ title, unit_price: unitPrice, quantity, tangible }))
      : [{ title: input.description || 'Pedido', unit_price: input.amount, quantity: 1, tangible: false }];
  const customer = input.customer;
  return {
    items,
    ...(customer
      ? { customer: { name: customer.name, email: customer.email, document: digitsOnly(customer.document), phone: nationalPhoneDigits(customer.phone) } }
      : {}),
    splits: toSellSplits(input.splits),
    payment_method: SELL_METHODS.toProvider(input.paymentMethod),
    webhook,
    ...(input.paymentMethod === 'CREDIT_CARD' ? { credit_card: { token: input.cardId ?? '', installments: input.installments || 1 } } : {}),
  };
}

// ---------------------------------------------------------------- status tables

/** The spec's common pattern (doc 2 §4) and doc 1 §4's vocabulary; unknown REJECTED. */
export const ABMEXSPLIT_STATUSES = statusTable<TransactionStatus>(
  {
    waiting: 'PENDING',
    waiting_payment: 'PENDING',
    pending: 'PENDING',
    processing: 'PENDING',
    authorized: 'PENDING',
    paid: 'APPROVED',
    approved: 'APPROVED',
    refunded: 'REFUNDED',
    chargeback: 'CHARGEBACK',
    chargedback: 'CHARGEBACK',
    refused: 'REJECTED',
    failed: 'REJECTED',
    expired: 'REJECTED',
    canceled: 'CANCELED',
  },
  'REJECTED',
);

/** Refund answers that say the refund was refused. */
const REFUND_REFUSED: ReadonlySet<string> = new Set(['refused', 'rejected', 'failed', 'denied']);

// ---------------------------------------------------------------- response mappers

/** A parsed marketplace as our receiver; `amount` converts its balance (absent: 0). */
export function fromMarketplace(marketplace: Marketplace, input: Partial<ReceiverInput>, amount: (value: number | string) => number): ReceiverResult {
  const document = marketplace.document ?? digitsOnly(input.document ?? '');
  return {
    receiverProvider: ABMEXSPLIT.identity.id,
    receiverId: marketplace.id,
    ...(marketplace.token ? { receiverToken: marketplace.token } : {}),
    name: marketplace.name ?? input.name ?? '',
    document,
    documentType: inferDocumentType(document),
    email: marketplace.email ?? input.email ?? '',
    status: lookupStatus(COMMON_RECEIVER_STATUSES, marketplace.status),
    balance: marketplace.balance !== undefined ? amount(marketplace.balance) : 0,
  };
}

export interface SellReading {
  status: (value: unknown) => TransactionStatus;
  amount: (value: number | string) => number;
  /** Where the answer leaves out the method, the amount or an expiry: what was asked for. */
  requested?: { paymentMethod: PaymentMethod; amount: number; pixExpiresAt: Date; boletoExpiresAt: Date };
}

/** A parsed sell as our charge. */
export function fromSell(sell: Sell, reading: SellReading): TransactionResult {
  const paymentMethod =
    SELL_METHODS.fromProvider(sell.payment_method) ?? reading.requested?.paymentMethod ?? (sell.pix ? 'PIX' : sell.boleto ? 'BILLET' : 'CREDIT_CARD');
  const amount = sell.amount !== undefined ? reading.amount(sell.amount) : (reading.requested?.amount ?? 0);
  const result: TransactionResult = { paymentMethod, transactionId: sell.id, status: reading.status(sell.status), amount };
  const pixCode = sell.pix?.qr_code;
  const billetCode = sell.boleto?.digitable_line;
  const billetUrl = sell.boleto?.url;
  const expiresAt =
    paymentMethod === 'PIX'
      ? (sell.pix?.expires_at ?? reading.requested?.pixExpiresAt)
      : paymentMethod === 'BILLET'
        ? (sell.boleto?.due_date ?? reading.requested?.boletoExpiresAt)
        : undefined;
  return {
    ...result,
    ...(paymentMethod === 'PIX' && pixCode ? { pixCode } : {}),
    ...(paymentMethod === 'BILLET' && billetCode ? { billetCode } : {}),
    ...(paymentMethod === 'BILLET' && billetUrl ? { billetUrl } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** A 2xx refund answer is a refund taken, unless its status refuses it. */
export function fromSellRefund(refund: SellRefund, sellId: string): RefundResult {
  return { refundId: refund.id ?? sellId, status: !(refund.status && REFUND_REFUSED.has(refund.status.toLowerCase())) };
}

// ---------------------------------------------------------------- notifications

/** `{ sell_id, status }` (JSON); anything else, or without either, is ignored. */
export function readSellNotification(body: Buffer): { sellId: string; status: string } | undefined {
  const event = abmexsplitNotification.safeParse(parseJsonObject(body));
  return event.success ? { sellId: event.data.sell_id, status: event.data.status } : undefined;
}

// ---------------------------------------------------------------- operations

export class AbmexSplitAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = ABMEXSPLIT, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: ABMEXSPLIT_STATUSES });
  }

  /**
   * One exchange whose answer is `schema`'s resource or the dialect's 2xx
   * refusal (`success: false` with a message): the refusal is the operation's
   * failure with the provider's message (INVALID_ARGUMENT); anything else that
   * is not the resource is a bad answer (UNAVAILABLE, its outcome unknown).
   */
  private async answer<T>(operation: Operation, prefix: string, send: () => Promise<ProviderResponse<unknown>>, schema: AnswerSchema<T>): Promise<T> {
    const answered = await this.exchange(operation, prefix, send, orRefusal(schema));
    if (answered.refused) throw this.failure(operation, prefix, providerFailure(prefix, answered.message, 'INVALID_ARGUMENT'));
    return answered.value;
  }

  /** The answer's cents; one that cannot be read makes the answer unusable. */
  private amount(value: number | string): number {
    return this.amountOr(value, undefined, 'valor legível');
  }

  private reading(requested?: SellReading['requested']): SellReading {
    return { status: (value) => this.transactionStatus(value), amount: (value) => this.amount(value), requested };
  }

  override async createReceiver(ctx: AdapterContext, input: ReceiverInput): Promise<ReceiverResult> {
    const bankCode = checkMarketplace(input);
    const prefix = this.prefixFor('createReceiver');
    const body = toMarketplace(input, bankCode, randomPriceRange());
    const marketplace = await this.answer('createReceiver', prefix, () => this.http(ctx).post(ABMEXSPLIT_PATHS.marketplaces, body), abmexsplitMarketplace);
    return this.mapped('createReceiver', prefix, () => fromMarketplace(marketplace, input, (value) => this.amount(value)));
  }

  override async getReceiver(ctx: AdapterContext, receiverId: string): Promise<ReceiverResult> {
    const prefix = this.prefixFor('getReceiver');
    const path = fillPath(ABMEXSPLIT_PATHS.marketplace, { id: receiverId });
    const marketplace = await this.answer('getReceiver', prefix, () => this.http(ctx).get(path), abmexsplitMarketplace);
    return { ...this.mapped('getReceiver', prefix, () => fromMarketplace(marketplace, {}, (value) => this.amount(value))), receiverId };
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    const prefix = this.prefixFor('createTransaction');
    const now = this.now();
    const sell = await this.answer(
      'createTransaction',
      prefix,
      () => this.http(ctx).post(ABMEXSPLIT_PATHS.sells, toSell(input, ctx.notificationUrl)),
      abmexsplitSell,
    );
    const reading = this.reading({
      paymentMethod: input.paymentMethod,
      amount: input.amount,
      pixExpiresAt: expiresAfter(now, this.pixExpirySeconds),
      boletoExpiresAt: expiresAfter(now, this.boletoExpirySeconds),
    });
    return pixCodeOnly(this.mapped('createTransaction', prefix, () => fromSell(sell, reading)));
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const path = fillPath(ABMEXSPLIT_PATHS.sell, { id: transactionId });
    const sell = await this.answer('getTransaction', prefix, () => this.http(ctx).get(path), abmexsplitSell);
    return pixCodeOnly({ ...this.mapped('getTransaction', prefix, () => fromSell(sell, this.reading())), transactionId });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const path = fillPath(ABMEXSPLIT_PATHS.refund, { id: transactionId });
    const refund = await this.answer(
      'refoundTransaction',
      prefix,
      () => this.http(ctx).post(path, { amount: this.toProviderAmount(amount) }),
      abmexsplitRefund,
    );
    return fromSellRefund(refund, transactionId);
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const event = readSellNotification(notification.body);
    return event && { type: 'TRANSACTION', transactionId: event.sellId, status: this.transactionStatus(event.status) };
  }

  /** Unsigned notifications without an id of their own: the sell and its status identify one. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const event = readSellNotification(notification.body);
    return event ? notificationKeyOf({ subject: 'sell', id: event.sellId, status: event.status }, notification.body) : super.notificationKey(ctx, notification);
  }
}
