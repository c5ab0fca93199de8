import { z } from 'zod';
import type { Address, PaymentMethod, RefundResult, TransactionInput, TransactionResult, WebhookResult } from '../../domain/types.js';
import { tokenizableCard, type CardInput } from '../../lib/card.js';
import { digitsOnly, lowerCaseCpfWhenExactly11Digits } from '../../lib/documents.js';
import { parseJsonObject } from '../../lib/json.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { catalogueError, FAILURE_PREFIXES } from '../../lib/providerMessages.js';
import { declaredStatusTable } from '../../lib/statusTable.js';
import { dateOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { absentable, wireAmount, wireId, wireStatus, wireText, unwrappedAnswer } from '../kit/answers.js';
import { DOC3_COMMON_STATUSES } from '../kit/commonStatuses.js';
import type { AdapterRuntime, ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, unusableAnswer, type ObjectNotification } from '../kit/declaredAdapter.js';

/**
 * LUMINA (spec doc 3, group 4), a bespoke dialect. What the spec says: Bearer;
 * POST /transaction.tokenize, /transaction.pixPayments,
 * /transaction.cardPayments, /transaction.refund; GET
 * /transaction.getPayment?id={id} (§7); card or PIX, no withdrawals (§5); the
 * document type 'cpf' for exactly 11 digits (§5); the address defaults zip
 * 01001000, 'Não informado', S/N, Centro, São Paulo, SP (§5); APPROVED and PAID
 * APPROVED, DECLINED, CANCELLED, FAILED REJECTED (§4); PIX valid 1 day, a fixed
 * base (§9); the fourth group's texts (§8).
 *
 * From integrations (provider research): host api.luminapagamentos.com.br/api/v1,
 * the PIX body `{name, email, document{number, type}, phone, paymentMethod
 * 'PIX', amount (cents), traceable, items[…], cep, street, number, district,
 * city, state, externalId, postbackUrl}`, answers bare or under `_body` / `data`
 * with `id | transactionId`, `status`, `pix{qrCode | qrcode | code}`,
 * `timestamps{expiresAt}`. The card, token, refund and notification shapes are
 * the gateway's decision (docs/decisions.md).
 *
 * Read top to bottom: declaration → wire (zod schemas) → request mappers → status
 * table → response mappers → notifications → the operations.
 */

// ---------------------------------------------------------------- declaration

export const LUMINA: ProviderDeclaration = {
  identity: { id: 'LUMINA', specGroup: SPEC_GROUPS.DOC3_GROUP4, defaultBaseUrl: 'https://api.luminapagamentos.com.br/api/v1' },
  capabilities: { paymentMethods: ['PIX', 'CREDIT_CARD'], refunds: true, cardTokens: true, webhooks: true },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  failures: { unsupportedPaymentMethod: 'METODO_PAGAMENTO_NAO_SUPORTADO' },
  failurePrefixes: { refoundTransaction: 'REFUND_FOURTH_GROUP' },
  // §8: a payment the provider does not know is 'Transação não encontrada'; any other failure keeps the provider's message.
  notFound: { getTransaction: 'TRANSACAO_NAO_ENCONTRADA' },
  evidence: { level: 'third-party' },
  sources:
    "paths, Bearer, card or PIX only, document type rule, address defaults, statuses, 1-day PIX, fourth-group texts: spec (doc 3 §4/§5/§7/§8/§9); host, PIX body and its answer (wrapped in _body or data; id, status, pix.qrCode, timestamps.expiresAt): research (integrations); card, token, refund bodies, notification payload: gateway's decision",
};

export const LUMINA_PATHS = {
  tokenize: '/transaction.tokenize',
  pix: '/transaction.pixPayments',
  card: '/transaction.cardPayments',
  refund: '/transaction.refund',
  get: '/transaction.getPayment',
} as const;

/** §5: the address sent when the caller gives none (or leaves a field blank). */
export const LUMINA_ADDRESS_DEFAULTS = {
  cep: '01001000',
  street: 'Não informado',
  number: 'S/N',
  district: 'Centro',
  city: 'São Paulo',
  state: 'SP',
} as const;

// ---------------------------------------------------------------- wire

/** The body of both payment calls; a card charge adds `card` and `installments`. */
export const LUMINA_PAYMENT_REQUEST = z.object({
  name: z.string().optional(),
  email: z.string().optional(),
  document: z.object({ number: z.string(), type: z.enum(['cpf', 'cnpj']) }).optional(),
  phone: z.string().optional(),
  paymentMethod: z.enum(['PIX', 'CREDIT_CARD']),
  amount: z.number().int().positive(),
  traceable: z.boolean(),
  items: z.array(z.object({ title: z.string(), unitPrice: z.number().int(), quantity: z.number().int(), tangible: z.boolean() })),
  cep: z.string(),
  street: z.string(),
  number: z.string(),
  district: z.string(),
  city: z.string(),
  state: z.string(),
  externalId: z.string().optional(),
  postbackUrl: z.string(),
  card: z.object({ token: z.string() }).optional(),
  installments: z.number().int().optional(),
});
export type LuminaPaymentRequest = z.infer<typeof LUMINA_PAYMENT_REQUEST>;

/** Answers come bare or under `_body` / `data` (research). */
const WRAPPERS = ['_body', 'data'] as const;

/** A payment as answered (and as notified): `id | transactionId` and `status` required; an unreadable expiry is no expiry. */
export const LUMINA_PAYMENT = unwrappedAnswer(
  z
    .object({
      id: absentable(wireId),
      transactionId: absentable(wireId),
      status: wireStatus,
      amount: absentable(wireAmount),
      paymentMethod: absentable(wireText),
      pix: absentable(z.object({ qrCode: absentable(wireText), qrcode: absentable(wireText), code: absentable(wireText) })),
      timestamps: absentable(z.object({ expiresAt: absentable(z.union([z.string(), z.number()])).catch(undefined) })),
    })
    .transform((payment, ctx) => {
      const id = payment.id ?? payment.transactionId;
      if (id === undefined) {
        ctx.addIssue({ code: 'custom', path: ['id'], message: 'no id' });
        return z.NEVER;
      }
      const pixCode = payment.pix?.qrCode ?? payment.pix?.qrcode ?? payment.pix?.code;
      return {
        id,
        status: payment.status,
        amount: payment.amount,
        paymentMethod: payment.paymentMethod,
        pixCode,
        expiresAt: dateOf(payment.timestamps?.expiresAt),
      };
    }),
  WRAPPERS,
);
export type LuminaPayment = z.output<typeof LUMINA_PAYMENT>;

/** The tokenize answer: `token`, else `id` (gateway's decision). */
export const LUMINA_TOKEN = unwrappedAnswer(
  z.object({ token: absentable(wireId), id: absentable(wireId) }).transform((answer, ctx) => {
    const token = answer.token ?? answer.id;
    if (token === undefined) {
      ctx.addIssue({ code: 'custom', path: ['token'], message: 'no token' });
      return z.NEVER;
    }
    return token;
  }),
  WRAPPERS,
);

/** The refund answer: `{id, status}` (gateway's decision), status required. */
export const LUMINA_REFUND = unwrappedAnswer(z.object({ id: absentable(wireId), status: wireStatus }), WRAPPERS);

// ---------------------------------------------------------------- request mappers

const LUMINA_METHODS = paymentMethodCodec<PaymentMethod, string>({ PIX: 'PIX', CREDIT_CARD: 'CREDIT_CARD', BILLET: 'BOLETO' }, { card: 'CREDIT_CARD' });

const or = (value: string | undefined, fallback: string): string => value?.trim() || fallback;

/** §5's defaults field by field: a caller's blank field is as good as a missing one. */
export function luminaAddress(address: Address | undefined): Pick<LuminaPaymentRequest, 'cep' | 'street' | 'number' | 'district' | 'city' | 'state'> {
  const defaults = LUMINA_ADDRESS_DEFAULTS;
  return {
    cep: or(digitsOnly(address?.zipCode ?? ''), defaults.cep),
    street: or(address?.address, defaults.street),
    number: or(address?.number, defaults.number),
    district: or(address?.district, defaults.district),
    city: or(address?.city, defaults.city),
    state: or(address?.state, defaults.state),
  };
}

export function toLuminaPayment(input: TransactionInput, terms: { amount: (cents: number) => number; postbackUrl: string }): LuminaPaymentRequest {
  const { customer } = input;
  const items = input.items.length
    ? input.items.map((item) => ({ title: item.title, unitPrice: terms.amount(item.unitPrice), quantity: item.quantity, tangible: item.tangible }))
    : [{ title: input.description?.trim() || 'Pagamento', unitPrice: terms.amount(input.amount), quantity: 1, tangible: false }];
  return {
    ...(customer
      ? {
          name: customer.name,
          email: customer.email,
          document: { number: digitsOnly(customer.document), type: lowerCaseCpfWhenExactly11Digits(customer.document) },
          phone: nationalPhoneDigits(customer.phone),
        }
      : {}),
    paymentMethod: input.paymentMethod === 'CREDIT_CARD' ? 'CREDIT_CARD' : 'PIX',
    amount: terms.amount(input.amount),
    traceable: true,
    items,
    ...luminaAddress(input.address),
    ...(input.orderId ? { externalId: input.orderId } : {}),
    postbackUrl: terms.postbackUrl,
    ...(input.paymentMethod === 'CREDIT_CARD' ? { card: { token: input.cardId ?? '' }, installments: input.installments } : {}),
  };
}

export const toLuminaCard = (card: CardInput) => ({ ...tokenizableCard(card), holderDocument: digitsOnly(card.holderDocument) });

// ---------------------------------------------------------------- status table

/** §4: APPROVED and PAID APPROVED; DECLINED, CANCELLED, FAILED REJECTED; over doc 3's common pattern, unknown PENDING (most of group 4). */
export const LUMINA_STATUSES = declaredStatusTable(DOC3_COMMON_STATUSES, {
  overrides: { declined: 'REJECTED', cancelled: 'REJECTED', canceled: 'REJECTED', failed: 'REJECTED' },
  unknown: 'PENDING',
});

// ---------------------------------------------------------------- response mapper

/** The refund statuses that say no money went back (gateway's decision); any other is a refund made or under way. */
const REFUND_REFUSED = ['failed', 'declined', 'refused', 'error'];

export const luminaRefundAccepted = (status: string): boolean => !REFUND_REFUSED.includes(status.toLowerCase());

// ---------------------------------------------------------------- notifications

/** The postback is read as the payment itself (its shape is not public): an id and a status, else nothing. */
export function readLuminaNotification(body: Buffer): ObjectNotification | undefined {
  const parsed = LUMINA_PAYMENT.safeParse(parseJsonObject(body));
  return parsed.success ? { kind: 'transaction', id: parsed.data.id, status: parsed.data.status } : undefined;
}

// ---------------------------------------------------------------- operations

export class LuminaAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = LUMINA, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: LUMINA_STATUSES });
  }

  private payment(payment: LuminaPayment, fallback: { method?: PaymentMethod; amount?: number } = {}): TransactionResult {
    const { pixCode, expiresAt } = payment;
    return {
      paymentMethod: LUMINA_METHODS.fromProvider(payment.paymentMethod) ?? fallback.method ?? 'PIX',
      transactionId: payment.id,
      status: this.transactionStatus(payment.status),
      amount: payment.amount === undefined ? (fallback.amount ?? 0) : this.fromProviderAmount(payment.amount),
      ...(pixCode ? { pixCode } : {}),
      ...(expiresAt ? { expiresAt } : {}),
    };
  }

  override async createCardToken(ctx: AdapterContext, card: CardInput): Promise<string> {
    const prefix = this.prefixFor('createCardToken');
    return this.exchange('createCardToken', prefix, () => this.http(ctx).post(LUMINA_PATHS.tokenize, toLuminaCard(card)), LUMINA_TOKEN);
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const pix = input.paymentMethod === 'PIX';
    if (!pix && !input.cardId?.trim()) throw catalogueError('CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    // §8, fourth group: 'Erro na criação da transação PIX: …' for PIX; a card keeps 'Erro ao criar transação: …'.
    const prefix = pix ? FAILURE_PREFIXES.CREATE_PIX_TRANSACTION_FOURTH_GROUP : this.prefixFor('createTransaction');
    const body = toLuminaPayment(input, { amount: (cents) => this.toProviderAmount(cents), postbackUrl: ctx.notificationUrl });
    const answer = await this.exchange(
      'createTransaction',
      prefix,
      () => this.http(ctx).post(pix ? LUMINA_PATHS.pix : LUMINA_PATHS.card, body),
      LUMINA_PAYMENT,
    );
    const charge = this.mapped('createTransaction', prefix, () => {
      const result = this.payment(answer, { method: input.paymentMethod, amount: input.amount });
      // A PIX charge without its code is one nobody can pay.
      if (pix && !result.pixCode) unusableAnswer('código PIX');
      return pix ? { ...result, expiresAt: result.expiresAt ?? this.expiresAt(this.pixExpirySeconds) } : result;
    });
    return pixCodeOnly(charge);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange('getTransaction', prefix, () => this.http(ctx).get(LUMINA_PATHS.get, { params: { id: transactionId } }), LUMINA_PAYMENT);
    return pixCodeOnly({ ...this.payment(answer), transactionId });
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const refund = await this.exchange(
      'refoundTransaction',
      prefix,
      () => this.http(ctx).post(LUMINA_PATHS.refund, { id: transactionId, amount: this.toProviderAmount(amount) }),
      LUMINA_REFUND,
    );
    return { refundId: refund.id ?? transactionId, status: luminaRefundAccepted(refund.status) };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readLuminaNotification(notification.body));
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(readLuminaNotification(notification.body), ctx, notification);
  }
}
