import { z } from 'zod';
import type { PaymentMethod, TransactionInput, TransactionResult, WebhookResult, WithdrawInput, WithdrawResult, WithdrawStatus } from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { parseJsonObject } from '../../lib/json.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { nationalPhoneDigits } from '../../lib/phone.js';
import { normalizePixKey, type PixKeyType } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { declaredStatusTable, statusTable } from '../../lib/statusTable.js';
import { defaultWithdrawDescription } from '../../lib/withdrawDescription.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { absentable, wireAmount, wireId, wireStatus, wireText, unwrappedAnswer } from '../kit/answers.js';
import { DOC3_COMMON_STATUSES } from '../kit/commonStatuses.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter, unusableAnswer, type ObjectNotification } from '../kit/declaredAdapter.js';

/**
 * BRAVIVE (spec doc 3, group 3), a bespoke dialect. What the spec says: POST
 * /payments (amount, currency BRL, description, payer_* fields, addr_* fields,
 * webhook_url, method), GET /payments/{id}, POST /withdraws (amount, currency,
 * description, pix_key, pix_key_type), GET /withdraws/{id} (§7); PIX and billet,
 * card not implemented (§5); 'Bravive secretKey is required' (§5); RANDOM keys
 * sent as EVP (§5); unknown charge statuses PENDING; withdrawals: refunded,
 * chargeback and other odd statuses REJECTED, in_dispute PENDING (§4); 'Bravive
 * API Error' with the provider's message, '(Withdraw)' and '(Get Withdraw)' for
 * payouts (§8); card tokens, saved cards, bank-account and receiver payouts not
 * implemented (§8). Not in §9's lists: the spec's default validities.
 *
 * From its documentation (app.bravive.com/docs, the introduction): host
 * app.bravive.com/v1, `Authorization: Bearer <token>`, the webhook events
 * on_transaction_* and on_withdraw_*. From integrations (provider research):
 * amount in cents, `method: 'PIX'`, the `payer_name/email/phone/document`
 * names, the answer `{id, method, status, pix_code, pix_qr_code, billet_code,
 * billet_url}`. The rest is the gateway's decision (docs/decisions.md).
 *
 * Read top to bottom: declaration → wire → request mappers → status
 * tables → response mappers → notifications → the operations.
 */

// ---------------------------------------------------------------- declaration

export const BRAVIVE: ProviderDeclaration = {
  identity: { id: 'BRAVIVE', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://app.bravive.com/v1' },
  capabilities: { paymentMethods: ['PIX', 'BILLET'], withdrawMethods: ['PIX'], withdrawalLookup: true, webhooks: true },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'], missing: 'BRAVIVE_SECRET_KEY_REQUIRED' },
  money: 'cents',
  // Its payout body's own default ('Saque solicitado', doc 1 §9), also what the gateway fills in for a caller who gives none.
  payouts: { description: 'requested' },
  failures: { unsupportedPaymentMethod: 'CREDIT_CARD_NOT_IMPLEMENTED' },
  failurePrefixes: {
    createTransaction: 'BRAVIVE_API_ERROR',
    getTransaction: 'BRAVIVE_API_ERROR',
    withdraw: 'BRAVIVE_API_ERROR_WITHDRAW',
    getWithdraw: 'BRAVIVE_API_ERROR_GET_WITHDRAW',
  },
  sources:
    "paths, body field groups, PIX and billet only, required secret key and its text, RANDOM as EVP, statuses, 'Bravive API Error' texts: spec (doc 3 §4/§5/§7/§8); host, Bearer, webhook event names: research (Bravive's documentation app.bravive.com/docs, introduction); amount in cents, method 'PIX', payer_name/email/phone/document, answer {id, status, pix_code, pix_qr_code, billet_code, billet_url}: research (integrations); addr_* names, 'BILLET', payout answer, webhook payload {event, data}: gateway's decision; validities: spec defaults (§9 names none for Bravive)",
};

export const BRAVIVE_PATHS = { payments: '/payments', payment: '/payments/{id}', withdraws: '/withdraws', withdraw: '/withdraws/{id}' } as const;

// ---------------------------------------------------------------- wire

/** Body of POST /payments (§7): flat, payer_* and addr_* fields; `amount` in integer cents. */
export const bravivePaymentRequest = z.object({
  amount: z.number().int().positive(),
  currency: z.string().min(1),
  description: z.string().optional(),
  method: z.enum(['PIX', 'BILLET']),
  webhook_url: z.string().min(1),
  custom_id: z.string().optional(),
  payer_name: z.string().optional(),
  payer_email: z.string().optional(),
  payer_document: z.string().optional(),
  payer_phone: z.string().optional(),
  addr_street: z.string().optional(),
  addr_number: z.string().optional(),
  addr_district: z.string().optional(),
  addr_city: z.string().optional(),
  addr_state: z.string().optional(),
  addr_zipcode: z.string().optional(),
});
export type BravivePaymentRequest = z.infer<typeof bravivePaymentRequest>;

/** The PIX key types of a payout: ours, RANDOM named EVP (§5). */
const bravivePixKeyType = z.enum(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'EVP']);

/** Body of POST /withdraws (§7): `amount` in integer cents. */
export const braviveWithdrawRequest = z.object({
  amount: z.number().int().positive(),
  currency: z.literal('BRL'),
  description: z.string().min(1),
  pix_key: z.string().min(1),
  pix_key_type: bravivePixKeyType,
});
export type BraviveWithdrawRequest = z.infer<typeof braviveWithdrawRequest>;

/**
 * A payment or a withdrawal as answered (integrations: `{id, method, status,
 * amount, pix_code, pix_qr_code, billet_code, billet_url}`), bare or under
 * `data`: id and status required, the rest read where present.
 */
const braviveObjectShape = z.object({
  id: wireId,
  status: wireStatus,
  amount: absentable(wireAmount),
  method: absentable(wireText),
  pix_code: absentable(wireText),
  billet_code: absentable(wireText),
  billet_url: absentable(wireText),
});
export type BraviveObject = z.output<typeof braviveObjectShape>;

/** The answer of every call: the object bare or under `data`. */
export const braviveAnswer = unwrappedAnswer(braviveObjectShape);

/**
 * A notification `{event, id?, data: {id, status?}}`: the payload is not
 * public, so this is the gateway's reading (docs/decisions.md).
 */
export const braviveNotification = z.object({
  event: wireText,
  id: absentable(wireId),
  data: z.object({ id: wireId, status: absentable(wireStatus) }),
});

// ---------------------------------------------------------------- request mappers

const BRAVIVE_METHODS = paymentMethodCodec<PaymentMethod, string>({ PIX: 'PIX', BILLET: 'BILLET', CREDIT_CARD: 'CREDIT_CARD' }, { boleto: 'BILLET' });

export function toBravivePayment(input: TransactionInput, terms: { amount: number; webhookUrl: string }): BravivePaymentRequest {
  const { customer, address } = input;
  return {
    amount: terms.amount,
    currency: input.currency || 'BRL',
    ...(input.description ? { description: input.description } : {}),
    method: BRAVIVE_METHODS.toProvider(input.paymentMethod) as 'PIX' | 'BILLET',
    webhook_url: terms.webhookUrl,
    ...(input.orderId ? { custom_id: input.orderId } : {}),
    ...(customer
      ? {
          payer_name: customer.name,
          payer_email: customer.email,
          payer_document: digitsOnly(customer.document),
          payer_phone: nationalPhoneDigits(customer.phone),
        }
      : {}),
    ...(address
      ? {
          addr_street: address.address,
          addr_number: address.number,
          addr_district: address.district,
          addr_city: address.city,
          addr_state: address.state,
          addr_zipcode: digitsOnly(address.zipCode),
        }
      : {}),
  };
}

/** Our key types by Bravive's names (RANDOM is EVP, §5). */
const BRAVIVE_PIX_KEY_TYPES = { CPF: 'CPF', CNPJ: 'CNPJ', EMAIL: 'EMAIL', PHONE: 'PHONE', RANDOM: 'EVP' } as const satisfies Record<
  PixKeyType,
  z.infer<typeof bravivePixKeyType>
>;

/** Our PIX payout → POST /withdraws; the description is the caller's, else Bravive's own default ('Saque solicitado', doc 1 §9). */
export function toBraviveWithdraw(input: WithdrawInput & { pixKey: string; pixType: PixKeyType }, terms: { amount: number }): BraviveWithdrawRequest {
  return {
    amount: terms.amount,
    currency: 'BRL',
    description: input.description?.trim() || defaultWithdrawDescription(input.amount, 'requested'),
    pix_key: normalizePixKey(input.pixKey, input.pixType),
    pix_key_type: BRAVIVE_PIX_KEY_TYPES[input.pixType],
  };
}

// ---------------------------------------------------------------- status tables

/** Charges: doc 3's common pattern, the rejected and canceled events' words REJECTED, unknown PENDING (§4). */
export const BRAVIVE_STATUSES = declaredStatusTable(DOC3_COMMON_STATUSES, {
  overrides: { rejected: 'REJECTED', refused: 'REJECTED', canceled: 'REJECTED', cancelled: 'REJECTED', failed: 'REJECTED', expired: 'REJECTED' },
  unknown: 'PENDING',
});

/** Payouts (§4): the common pattern's PENDING and APPROVED words and in_dispute PENDING; refunded, chargeback and anything else REJECTED. */
export const BRAVIVE_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>(
  {
    ...Object.fromEntries(Object.entries(DOC3_COMMON_STATUSES.entries).filter(([, status]) => status === 'PENDING' || status === 'APPROVED')),
    in_dispute: 'PENDING',
  } as Record<string, WithdrawStatus>,
  'REJECTED',
);

// ---------------------------------------------------------------- notifications

const TRANSACTION_EVENT = /^on_transaction_(created|updated|approved|rejected|canceled|chargeback|refunded)$/;
/** The documentation's list of payout events is cut off after on_withdraw_appr…: every on_withdraw_* event is read. */
const WITHDRAW_EVENT = /^on_withdraw_[a-z_]+$/;

/**
 * The status is the object's; a status event without one
 * (on_transaction_approved, …) carries its status in its name. Anything else
 * (an undocumented event, a body that does not parse) is undefined.
 */
export function readBraviveNotification(body: Buffer): (ObjectNotification & { eventId?: string }) | undefined {
  const parsed = braviveNotification.safeParse(parseJsonObject(body));
  if (!parsed.success) return undefined;
  const { event: name, id: eventId, data } = parsed.data;
  const transaction = TRANSACTION_EVENT.exec(name);
  if (!transaction && !WITHDRAW_EVENT.test(name)) return undefined;
  const named = name.replace(/^on_(transaction|withdraw)_/, '');
  const status = data.status ?? (['created', 'updated'].includes(named) ? undefined : named);
  if (!status) return undefined;
  const distinctEventId = eventId !== undefined && eventId !== data.id ? eventId : undefined;
  return { kind: transaction ? 'transaction' : 'withdrawal', id: data.id, status, ...(distinctEventId ? { eventId: distinctEventId } : {}) };
}

// ---------------------------------------------------------------- operations

export class BraviveAdapter extends DeclaredAdapter {
  constructor(declaration: ProviderDeclaration = BRAVIVE, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { transactionStatuses: BRAVIVE_STATUSES, withdrawalStatuses: BRAVIVE_WITHDRAWAL_STATUSES });
  }

  /** A payment: the answer's method (else the one asked for), its amount (else the one asked for; a read without one is unusable). */
  private payment(object: BraviveObject, fallback: { method?: PaymentMethod; amount?: number } = {}): TransactionResult {
    return {
      paymentMethod: BRAVIVE_METHODS.fromProvider(object.method) ?? fallback.method ?? 'PIX',
      transactionId: object.id,
      status: this.transactionStatus(object.status),
      amount: this.amountOr(object.amount, fallback.amount, 'valor do pagamento'),
      ...(object.pix_code ? { pixCode: object.pix_code } : {}),
      ...(object.billet_code ? { billetCode: object.billet_code } : {}),
      ...(object.billet_url ? { billetUrl: object.billet_url } : {}),
    };
  }

  private payout(object: BraviveObject, requested?: number): WithdrawResult {
    return { withdrawId: object.id, status: this.withdrawalStatus(object.status), amount: this.amountOr(object.amount, requested, 'valor do saque') };
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const billet = input.paymentMethod === 'BILLET';
    const expiresAt = this.expiresAt(billet ? this.boletoExpirySeconds : this.pixExpirySeconds);
    const body = toBravivePayment(input, { amount: this.toProviderAmount(input.amount), webhookUrl: ctx.notificationUrl });
    const answer = await this.exchange('createTransaction', prefix, () => this.http(ctx).post(BRAVIVE_PATHS.payments, body), braviveAnswer);
    const charge = this.mapped('createTransaction', prefix, () => {
      const result = this.payment(answer, { method: input.paymentMethod, amount: input.amount });
      // A charge nobody can pay is no charge: PIX needs its code, a billet its line or its URL.
      if (billet ? !result.billetCode && !result.billetUrl : !result.pixCode) unusableAnswer(billet ? 'código ou URL do boleto' : 'código PIX');
      return result;
    });
    return pixCodeOnly({ ...charge, expiresAt });
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange(
      'getTransaction',
      prefix,
      () => this.http(ctx).get(fillPath(BRAVIVE_PATHS.payment, { id: transactionId })),
      braviveAnswer,
    );
    const charge = this.mapped('getTransaction', prefix, () => this.payment(answer));
    return pixCodeOnly({ ...charge, transactionId });
  }

  /** PIX only: bank-account and receiver payouts are not implemented (§8). */
  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const prefix = this.prefixFor('withdraw');
    const body = toBraviveWithdraw(payout, { amount: this.toProviderAmount(input.amount) });
    const answer = await this.exchange('withdraw', prefix, () => this.http(ctx).post(BRAVIVE_PATHS.withdraws, body), braviveAnswer);
    return this.mapped('withdraw', prefix, () => this.payout(answer, input.amount));
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const answer = await this.exchange('getWithdraw', prefix, () => this.http(ctx).get(fillPath(BRAVIVE_PATHS.withdraw, { id: withdrawId })), braviveAnswer);
    return { ...this.mapped('getWithdraw', prefix, () => this.payout(answer)), withdrawId };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readBraviveNotification(notification.body));
  }

  /** The event's own id where the payload has one, else the object's kind, id and status. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.eventNotificationKey(readBraviveNotification(notification.body), ctx, notification);
  }
}
