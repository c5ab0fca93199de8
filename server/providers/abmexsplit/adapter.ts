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
import { GatewayError, invalidArgument } from '../../lib/errors.js';
import { expiresAfter } from '../../lib/expiry.js';
import { providerMessage } from '../../lib/http/index.js';
import { isRecord, parseJsonObject } from '../../lib/json.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { catalogueError, providerFailure } from '../../lib/providerMessages.js';
import { lookupStatus, statusTable } from '../../lib/statusTable.js';
import { dateOf, idText, textOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { COMMON_RECEIVER_STATUSES } from '../kit/commonStatuses.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import { ABMEXSPLIT_SUPPORTED_BANKS, BANKS_WITHOUT_BRANCH_DIGIT } from './banks.js';

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

type SellPaymentMethod = 'pix' | 'credit_card' | 'boleto';

/** Body of POST /marketplaces. */
export interface MarketplaceRequest {
  name: string;
  email: string;
  document: string;
  document_type: 'CNPJ';
  description?: string;
  price_range: number;
  bank_account: {
    bank_code: string;
    branch_number: string;
    branch_digit?: string;
    account_number: string;
    account_digit: string;
    account_type: string;
    pix_key?: string;
  };
  address?: { street: string; number: string; district: string; city: string; state: string; zip_code: string };
  monthly_revenue?: number;
}

/** Answer of POST /marketplaces and GET /marketplaces/{id}. */
export interface Marketplace {
  id?: string | number;
  token?: string;
  name?: string;
  document?: string;
  email?: string;
  status?: string;
  balance?: number | string;
}

/** Body of POST /sells (doc 2 §7: items, customer, splits, payment_method, webhook, credit_card). */
export interface SellRequest {
  items: Array<{ title: string; unit_price: number; quantity: number; tangible: boolean }>;
  customer?: { name: string; email: string; document: string; phone: string };
  splits: Array<{ marketplace_id: string; type: 'FIXED' | 'percent'; value: number }>;
  payment_method: SellPaymentMethod;
  webhook: string;
  credit_card?: { token: string; installments: number };
}

/** Answer of POST /sells and GET /sells/{id}. */
export interface Sell {
  id?: string | number;
  status?: string;
  amount?: number | string;
  payment_method?: string;
  pix?: { qr_code?: string; expires_at?: string } | null;
  boleto?: { digitable_line?: string; url?: string; due_date?: string } | null;
}

/** A notification: the sell and its status (doc 2 §4 names `sell_id` among the identifying fields). */
export interface SellNotification {
  sell_id?: string | number;
  status?: string;
}

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
  if (!account) throw invalidArgument('receiver.bank_account', 'receiver.bank_account is required: ABMEXSPLIT pays its marketplaces to a bank account');
  const bank = compensationCode(account.bankCode);
  if (!Object.hasOwn(ABMEXSPLIT_SUPPORTED_BANKS, bank)) throw catalogueError('BANCO_NAO_SUPORTADO', { field: 'receiver.bank_account.bank_code' });
  const digit = (account.branchDigit ?? '').trim();
  if (BANKS_WITHOUT_BRANCH_DIGIT.has(bank) && digit && !/^0+$/.test(digit))
    throw invalidArgument('receiver.bank_account.branch_digit', `receiver.bank_account.branch_digit must be empty or 0 for bank ${bank}`);
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

/** Undefined without an id: the operation turns that into an error. */
export function fromMarketplace(answer: unknown, input: Partial<ReceiverInput>, amount: (value: unknown) => number): ReceiverResult | undefined {
  const marketplace = (isRecord(answer) ? answer : {}) as Marketplace;
  const receiverId = idText(marketplace.id);
  if (!receiverId) return undefined;
  const document = textOf(marketplace.document) ?? digitsOnly(input.document ?? '');
  const token = textOf(marketplace.token);
  return {
    receiverProvider: ABMEXSPLIT.identity.id,
    receiverId,
    ...(token ? { receiverToken: token } : {}),
    name: textOf(marketplace.name) ?? input.name ?? '',
    document,
    documentType: inferDocumentType(document),
    email: textOf(marketplace.email) ?? input.email ?? '',
    status: lookupStatus(COMMON_RECEIVER_STATUSES, marketplace.status),
    balance: marketplace.balance !== undefined && marketplace.balance !== null ? amount(marketplace.balance) : 0,
  };
}

export interface SellReading {
  status: (value: unknown) => TransactionStatus;
  amount: (value: unknown) => number;
  /** Where the answer leaves out the method, the amount or an expiry: what was asked for. */
  requested?: { paymentMethod: PaymentMethod; amount: number; pixExpiresAt: Date; boletoExpiresAt: Date };
}

/** Undefined without an id or a status: the operation turns that into an error, never a status. */
export function fromSell(answer: unknown, reading: SellReading): TransactionResult | undefined {
  const sell = (isRecord(answer) ? answer : {}) as Sell;
  const transactionId = idText(sell.id);
  const statusText = textOf(sell.status);
  if (!transactionId || !statusText) return undefined;
  const paymentMethod =
    SELL_METHODS.fromProvider(sell.payment_method) ?? reading.requested?.paymentMethod ?? (sell.pix ? 'PIX' : sell.boleto ? 'BILLET' : 'CREDIT_CARD');
  const amount = sell.amount !== undefined && sell.amount !== null ? reading.amount(sell.amount) : (reading.requested?.amount ?? 0);
  const result: TransactionResult = { paymentMethod, transactionId, status: reading.status(statusText), amount };
  const pixCode = textOf(sell.pix?.qr_code);
  const billetCode = textOf(sell.boleto?.digitable_line);
  const billetUrl = textOf(sell.boleto?.url);
  const expiresAt =
    paymentMethod === 'PIX'
      ? (dateOf(sell.pix?.expires_at) ?? reading.requested?.pixExpiresAt)
      : paymentMethod === 'BILLET'
        ? (dateOf(sell.boleto?.due_date) ?? reading.requested?.boletoExpiresAt)
        : undefined;
  return {
    ...result,
    ...(paymentMethod === 'PIX' && pixCode ? { pixCode } : {}),
    ...(paymentMethod === 'BILLET' && billetCode ? { billetCode } : {}),
    ...(paymentMethod === 'BILLET' && billetUrl ? { billetUrl } : {}),
    ...(expiresAt ? { expiresAt } : {}),
  };
}

/** A 2xx refund answer is a refund taken, unless its status refuses it; undefined when it says nothing (never "refunded"). */
export function fromSellRefund(answer: unknown, sellId: string): RefundResult | undefined {
  const body = (isRecord(answer) ? answer : {}) as { id?: unknown; status?: unknown };
  const status = textOf(body.status);
  const id = idText(body.id);
  if (!status && !id) return undefined;
  return { refundId: id ?? sellId, status: !(status && REFUND_REFUSED.has(status.toLowerCase())) };
}

// ---------------------------------------------------------------- notifications

/** `{ sell_id, status }` (JSON); anything else, or without either, is ignored. */
export function readSellNotification(body: Buffer): { sellId: string; status: string } | undefined {
  const event = parseJsonObject(body) as SellNotification | undefined;
  const sellId = idText(event?.sell_id);
  const status = textOf(event?.status);
  return sellId && status ? { sellId, status } : undefined;
}

// ---------------------------------------------------------------- operations

export class AbmexSplitAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = ABMEXSPLIT, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: ABMEXSPLIT_STATUSES });
  }

  /** A 2xx answer without the resource: the provider's message where a JSON answer gives one (it refused), else an outage. */
  private unusable(operation: Operation, prefix: string, body: unknown, what: string): GatewayError {
    const message = isRecord(body) ? providerMessage(body) : undefined;
    const error = message ? providerFailure(prefix, message, 'INVALID_ARGUMENT') : providerFailure(prefix, `resposta do provedor sem ${what}`, 'UNAVAILABLE');
    return this.failure(operation, prefix, error);
  }

  private reading(requested?: SellReading['requested']): SellReading {
    return { status: (value) => this.transactionStatus(value), amount: (value) => this.fromProviderAmount(value), requested };
  }

  override async createReceiver(ctx: AdapterContext, input: ReceiverInput): Promise<ReceiverResult> {
    const bankCode = checkMarketplace(input);
    const prefix = this.prefixFor('createReceiver');
    const answer = await this.exchange('createReceiver', prefix, () =>
      this.http(ctx).post<unknown>(ABMEXSPLIT_PATHS.marketplaces, toMarketplace(input, bankCode, randomPriceRange())),
    );
    const receiver = fromMarketplace(answer, input, (value) => this.fromProviderAmount(value));
    if (!receiver) throw this.unusable('createReceiver', prefix, answer, 'id do marketplace');
    return receiver;
  }

  override async getReceiver(ctx: AdapterContext, receiverId: string): Promise<ReceiverResult> {
    const prefix = this.prefixFor('getReceiver');
    const answer = await this.exchange('getReceiver', prefix, () => this.http(ctx).get<unknown>(fillPath(ABMEXSPLIT_PATHS.marketplace, { id: receiverId })));
    const receiver = fromMarketplace(answer, {}, (value) => this.fromProviderAmount(value));
    if (!receiver) throw this.unusable('getReceiver', prefix, answer, 'id do marketplace');
    return { ...receiver, receiverId };
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    const prefix = this.prefixFor('createTransaction');
    const now = this.now();
    const answer = await this.exchange('createTransaction', prefix, () =>
      this.http(ctx).post<unknown>(ABMEXSPLIT_PATHS.sells, toSell(input, ctx.notificationUrl)),
    );
    const result = fromSell(
      answer,
      this.reading({
        paymentMethod: input.paymentMethod,
        amount: input.amount,
        pixExpiresAt: expiresAfter(now, this.pixExpirySeconds),
        boletoExpiresAt: expiresAfter(now, this.boletoExpirySeconds),
      }),
    );
    if (!result) throw this.unusable('createTransaction', prefix, answer, 'id ou status da venda');
    return withPixQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange('getTransaction', prefix, () => this.http(ctx).get<unknown>(fillPath(ABMEXSPLIT_PATHS.sell, { id: transactionId })));
    const result = fromSell(answer, this.reading());
    if (!result) throw this.unusable('getTransaction', prefix, answer, 'id ou status da venda');
    return withPixQrImage({ ...result, transactionId });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const answer = await this.exchange('refoundTransaction', prefix, () =>
      this.http(ctx).post<unknown>(fillPath(ABMEXSPLIT_PATHS.refund, { id: transactionId }), { amount: this.toProviderAmount(amount) }),
    );
    const result = fromSellRefund(answer, transactionId);
    if (!result) throw this.unusable('refoundTransaction', prefix, answer, 'dados do estorno');
    return result;
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const event = readSellNotification(notification.body);
    return event && { type: 'TRANSACTION', transactionId: event.sellId, status: this.transactionStatus(event.status) };
  }

  /** Unsigned notifications without an id of their own: the sell and its status identify one. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const event = readSellNotification(notification.body);
    return event ? `sell:${event.sellId}:${event.status.toLowerCase()}` : super.notificationKey(ctx, notification);
  }
}
