import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type {
  Operation,
  PaymentMethod,
  TransactionInput,
  TransactionResult,
  TransactionStatus,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
  WithdrawStatus,
} from '../../domain/types.js';
import { digitsOnly } from '../../lib/documents.js';
import { parseJson } from '../../lib/json.js';
import { inferPixKeyType, normalizePixKey } from '../../lib/pixKey.js';
import { pixCodeOnly } from '../../lib/pixQrCode.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import type { ProviderHttp, ProviderResponse } from '../../lib/http/index.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
import { absentable, parseAnswer, wireAmount, wireId, wireStatus, wireText } from '../kit/answers.js';
import { unusableAnswer, type ObjectNotification } from '../kit/declaredAdapter.js';
import { LoginTokenAdapter, type LoginStyle } from '../kit/loginSession.js';

/**
 * VELTRAX (spec doc 3, group 3), registered also as VEXYPAYMENTS (group 4, "the
 * same provider as Veltrax"): a bespoke dialect. What the spec says: login POST
 * /api/auth/login {client_id, client_secret} returning a token, POST
 * /api/payments/deposit, GET /api/payments/{id}, POST /api/withdrawals/withdraw
 * {amount, external_id, pix_key, key_type, description}, GET
 * /api/withdrawals/{id} (§7); PENDING and PROCESSING PENDING, COMPLETED
 * APPROVED, RETIDO CHARGEBACK, unknown REJECTED, for payments and withdrawals
 * (§4); a webhook "accepted only when it carries amount, fee and net amount, or
 * recipient bank details" (§4); PIX only, with its three texts, and 'Falha na
 * autenticação' (§5, §8); the key type inferred from the key (§5); refunds not
 * implemented, receivers not required (§8); PIX valid 1 day (§9, the default).
 *
 * From the documentation of the platform it runs on (research F5: 7hubpag,
 * VexusPay and PulsePag sell the API with the same paths; VELTRAX_ADDRESSES):
 * amounts in reais, the token `{token}` sent as Bearer, the deposit's
 * `clientCallbackUrl`, `external_id` unique and idempotent, the withdrawal
 * answer `{transactionId, withdrawal{transaction_id, external_id, status,
 * amount, fee, total}}` and the webhook `{transaction_id, external_id, status,
 * amount, fee, total, type}`. Where those pages show nothing (the deposit's
 * answer, the reads' answers), the shapes are the gateway's decision
 * (docs/decisions.md).
 *
 * Read top to bottom: declaration → wire (zod schemas) → request mappers →
 * status tables → notifications → the operations (which map parsed answers).
 */

// ---------------------------------------------------------------- declaration

/**
 * The pages of the platform VELTRAX runs on (research F5: 7hubpag, VexusPay and
 * PulsePag sell the same API) its stand-in (tests/standins/veltrax.ts) was
 * written from.
 */
export const VELTRAX_ADDRESSES = [
  'https://web.7hubpag.com/api-documentation',
  'https://vexuspay.com/developer/access.token',
  'https://pulsepag.com/developer/webhooks/withdrawal',
  'https://pulsepag.com/developer/cards/tokenization',
] as const;

/** publicKey: the client_id; secretKey: the client_secret. Both required. */
export const VELTRAX_CREDENTIALS = { publicKey: ['clientId'], secretKey: ['clientSecret'] } as const;

export type VeltraxDeclaration = ProviderDeclaration & { credentials: typeof VELTRAX_CREDENTIALS };

export const VELTRAX: VeltraxDeclaration = {
  // The host is a placeholder (no Veltrax-branded material names one): an account sets its base_url.
  identity: { id: 'VELTRAX', aliases: ['VEXYPAYMENTS'], specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.veltrax.com.br' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, webhooks: true },
  // The bearer token comes from the login call (kit/loginSession.ts), not from a declared style.
  auth: { type: 'none' },
  credentials: VELTRAX_CREDENTIALS,
  money: 'reais',
  failures: { unsupportedPaymentMethod: 'VELTRAX_PIX_PAYMENTS_ONLY', unsupportedWithdrawMethod: 'VELTRAX_PIX_WITHDRAWALS_ONLY' },
  // §5: the key type inferred from the key when none is given; 'Saque solicitado' when no description is (doc 3 §9).
  payouts: { description: 'requested', withoutPixKeyType: 'inferredFromKey' },
  evidence: { level: 'platform', addresses: VELTRAX_ADDRESSES },
  sources:
    "paths (the reads included), login body, statuses, webhook rule, key type inference, PIX-only texts, 'Falha na autenticação', no refunds: spec (doc 3 §4/§5/§7/§8); the login's answer `{token}` sent as `Authorization: Bearer`, amounts in reais, the deposit's `amount`, `external_id` (unique, idempotent) and `clientCallbackUrl`, the withdrawal body `{amount, external_id, pix_key, key_type CPF|CNPJ|EMAIL|PHONE, clientCallbackUrl, description}` and its answer `{transactionId, withdrawal{transaction_id, external_id, status PROCESSING, amount, fee, total, type}}`, the unsigned webhook `{transaction_id, external_id, status, amount, fee, total, type}` (PROCESSING, then COMPLETED): the documentation of the platform it runs on (7hubpag API documentation, VexusPay's withdrawal page, PulsePag's webhook and card pages); the deposit's answer (`qr_code`, bare or wrapped), the reads' answers, `net_amount`/`recipient` names, `external_id` from the idempotency key: gateway's decision; host: placeholder",
};

export const VELTRAX_PATHS = {
  login: '/api/auth/login',
  deposit: '/api/payments/deposit',
  payment: '/api/payments/{id}',
  withdraw: '/api/withdrawals/withdraw',
  withdrawal: '/api/withdrawals/{id}',
} as const;

// ---------------------------------------------------------------- wire

/** Body of POST /api/payments/deposit (F5). */
export const VELTRAX_DEPOSIT_REQUEST = z.object({
  amount: z.number().positive(),
  external_id: z.string().min(1),
  clientCallbackUrl: z.string().min(1),
  description: z.string().optional(),
  payer: z.object({ name: z.string(), document: z.string(), email: z.string().optional() }).optional(),
});
export type DepositRequest = z.infer<typeof VELTRAX_DEPOSIT_REQUEST>;

/** Body of POST /api/withdrawals/withdraw (§7, F5). */
export const VELTRAX_WITHDRAW_REQUEST = z.object({
  amount: z.number().positive(),
  external_id: z.string().min(1),
  pix_key: z.string().min(1),
  key_type: z.enum(['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM']),
  description: z.string(),
  clientCallbackUrl: z.string().min(1),
});
export type WithdrawRequest = z.infer<typeof VELTRAX_WITHDRAW_REQUEST>;

/** A payment or a withdrawal as the API answers it (F5's fields; `net_amount`, `recipient` and the code's names are the gateway's reading). */
const VELTRAX_OBJECT = z.object({
  transaction_id: absentable(wireId),
  id: absentable(wireId),
  /** F5's withdrawal answer names the payout beside its `withdrawal` object too. */
  transactionId: absentable(wireId),
  external_id: absentable(z.string()),
  status: wireStatus,
  amount: absentable(wireAmount),
  fee: absentable(wireAmount),
  total: absentable(wireAmount),
  net_amount: absentable(wireAmount),
  /** The deposit's copy-and-paste code (gateway's decision; `qr_code` and `pix_code` read alike). */
  qr_code: absentable(wireText),
  pix_code: absentable(wireText),
  type: absentable(z.string()),
  recipient: absentable(z.record(z.string(), z.unknown())),
});

const WRAPPERS = ['deposit', 'payment', 'withdrawal', 'data'] as const;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The object an answer carries, bare or under one of F5's wrappers (a wrapped object lacking an id takes the `transactionId` beside it). */
function unwrapped(answer: unknown): unknown {
  if (!isObject(answer)) return answer;
  const wrapped = WRAPPERS.map((key) => answer[key]).find(isObject);
  return wrapped ? { transactionId: answer.transactionId, ...wrapped } : answer;
}

/** Any Veltrax answer or webhook, unwrapped: its id (transaction_id, else id, else transactionId) and status are required. */
export const VELTRAX_ANSWER = z.preprocess(unwrapped, VELTRAX_OBJECT).transform((object, ctx) => {
  const id = object.transaction_id ?? object.id ?? object.transactionId;
  if (id === undefined) {
    ctx.addIssue({ code: 'custom', path: ['transaction_id'], message: 'no id' });
    return z.NEVER;
  }
  return { ...object, id };
});
export type VeltraxObject = z.output<typeof VELTRAX_ANSWER>;

// ---------------------------------------------------------------- request mappers

export function toDeposit(input: TransactionInput, terms: { amount: number; externalId: string; callbackUrl: string }): DepositRequest {
  const document = digitsOnly(input.customer?.document ?? '');
  return {
    amount: terms.amount,
    external_id: terms.externalId,
    clientCallbackUrl: terms.callbackUrl,
    ...(input.description ? { description: input.description } : {}),
    ...(input.customer?.name && document
      ? { payer: { name: input.customer.name, document, ...(input.customer.email ? { email: input.customer.email } : {}) } }
      : {}),
  };
}

/**
 * The platform's `external_id`: "unique, for idempotent control" (7hubpag's
 * deposit, VexusPay's withdrawal), so a request naming one already used is
 * answered with the earlier deposit or payout. Only the caller's idempotency
 * key means "the same request" (the gateway refuses it for another one), so it
 * is the key, else a new UUID; never the order id or the payout reference,
 * which two requests may share (a second charge for an order whose first PIX
 * expired would otherwise come back as the first one, paid or not).
 */
export function veltraxExternalId(idempotencyKey: string | undefined): string {
  return idempotencyKey?.trim() || randomUUID();
}

/** The key's type: the caller's where given, else Veltrax's inference (§5); the key loses its mask (CPF, CNPJ, phone digits). */
export function veltraxPixKey(pixKey: string, pixType: WithdrawInput['pixType']): { pix_key: string; key_type: WithdrawRequest['key_type'] } {
  const type = pixType ?? inferPixKeyType(pixKey);
  return { pix_key: normalizePixKey(pixKey, type), key_type: type };
}

// ---------------------------------------------------------------- status tables

/** §4, payments: PENDING and PROCESSING PENDING, COMPLETED APPROVED, RETIDO CHARGEBACK, unknown REJECTED. */
export const VELTRAX_STATUSES = statusTable<TransactionStatus>(
  { PENDING: 'PENDING', PROCESSING: 'PENDING', COMPLETED: 'APPROVED', RETIDO: 'CHARGEBACK' },
  'REJECTED',
);

/**
 * §4, withdrawals: the same, unknown REJECTED. A payout has no CHARGEBACK: a
 * withdrawal RETIDO (held) is PENDING, neither paid nor refused yet.
 */
export const VELTRAX_WITHDRAWAL_STATUSES = statusTable<WithdrawStatus>(
  { PENDING: 'PENDING', PROCESSING: 'PENDING', RETIDO: 'PENDING', COMPLETED: 'APPROVED' },
  'REJECTED',
);

// ---------------------------------------------------------------- notifications

/**
 * §4: accepted only when it carries amount, fee and net amount (`net_amount`,
 * or F5's `total`), or recipient bank details (`recipient`); a withdrawal by
 * its `type`, else a payment. Anything the schema refuses is ignored.
 */
export function readVeltraxNotification(body: Buffer): (ObjectNotification & { fee?: string | number }) | undefined {
  const parsed = VELTRAX_ANSWER.safeParse(parseJson(body));
  if (!parsed.success) return undefined;
  const event = parsed.data;
  const amounts = event.amount !== undefined && event.fee !== undefined && (event.net_amount !== undefined || event.total !== undefined);
  const bankDetails = event.recipient !== undefined && Object.keys(event.recipient).length > 0;
  if (!amounts && !bankDetails) return undefined;
  const kind = /withdraw/i.test(event.type ?? '') ? 'withdrawal' : 'transaction';
  return { kind, id: event.id, status: event.status, ...(event.fee === undefined ? {} : { fee: event.fee }) };
}

// ---------------------------------------------------------------- operations

export class VeltraxAdapter extends LoginTokenAdapter<VeltraxDeclaration> {
  constructor(declaration: VeltraxDeclaration = VELTRAX, runtime: AdapterRuntime = {}) {
    super(declaration, runtime, { family: 'bespoke', transactionStatuses: VELTRAX_STATUSES, withdrawalStatuses: VELTRAX_WITHDRAWAL_STATUSES });
  }

  /** 'Veltrax não suporta cartão de crédito. Apenas PIX.' for a card; 'Veltrax suporta apenas pagamentos PIX.' for anything else not PIX (§8). */
  override assertPaymentMethod(method: PaymentMethod): void {
    if (method === 'CREDIT_CARD') throw catalogueError('VELTRAX_NO_CREDIT_CARD', { field: 'transaction.payment_method' });
    super.assertPaymentMethod(method);
  }

  /** POST /api/auth/login {client_id, client_secret}; a refused login is 'Falha na autenticação' (§8). */
  protected readonly loginPath = VELTRAX_PATHS.login;

  protected override login(ctx: AdapterContext): LoginStyle {
    const { clientId, clientSecret } = this.credentials(ctx);
    return { path: this.loginPath, body: { client_id: clientId, client_secret: clientSecret }, refused: 'VELTRAX_AUTHENTICATION_FAILED' };
  }

  /** One call of `operation` with the session's token, its answer read by the schema (a mismatch is the kit's bad answer, under the operation's texts). */
  private async call(ctx: AdapterContext, operation: Operation, send: (http: ProviderHttp) => Promise<ProviderResponse<unknown>>): Promise<VeltraxObject> {
    const answer = await this.loginCall(ctx, operation, send);
    return this.mapped(operation, this.prefixFor(operation), () => parseAnswer(VELTRAX_ANSWER, answer));
  }

  private payment(object: VeltraxObject, requested?: number): TransactionResult {
    const pixCode = object.qr_code ?? object.pix_code;
    return {
      paymentMethod: 'PIX',
      transactionId: object.id,
      status: this.transactionStatus(object.status),
      amount: this.amountOr(object.amount, requested, 'valor do pagamento'),
      ...(pixCode ? { pixCode } : {}),
    };
  }

  private payout(object: VeltraxObject, requested?: number): WithdrawResult {
    return { withdrawId: object.id, status: this.withdrawalStatus(object.status), amount: this.amountOr(object.amount, requested, 'valor do saque') };
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toDeposit(input, {
      amount: this.toProviderAmount(input.amount),
      externalId: veltraxExternalId(input.idempotencyKey),
      callbackUrl: ctx.notificationUrl,
    });
    const deposit = await this.call(ctx, 'createTransaction', (http) => http.post<unknown>(VELTRAX_PATHS.deposit, body));
    const charge = this.mapped('createTransaction', this.prefixFor('createTransaction'), () => {
      const read = this.payment(deposit, input.amount);
      // A deposit without its BR Code is one nobody can pay.
      return read.pixCode ? read : unusableAnswer('código PIX do pagamento');
    });
    return pixCodeOnly({ ...charge, expiresAt });
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const path = fillPath(VELTRAX_PATHS.payment, { id: transactionId });
    const payment = await this.call(ctx, 'getTransaction', (http) => http.get<unknown>(path));
    const charge = this.mapped('getTransaction', this.prefixFor('getTransaction'), () => this.payment(payment));
    // The id asked for stays the id, whatever the answer echoes.
    return pixCodeOnly({ ...charge, transactionId });
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    // 'Veltrax suporta apenas saques via PIX' for another method; the key type inferred when none is given (§5, §8).
    const payout = this.pixPayout(input);
    const body: WithdrawRequest = {
      amount: this.toProviderAmount(input.amount),
      external_id: veltraxExternalId(input.idempotencyKey),
      ...veltraxPixKey(payout.pixKey, payout.pixType),
      description: this.payoutDescription(input),
      clientCallbackUrl: ctx.notificationUrl,
    };
    const withdrawal = await this.call(ctx, 'withdraw', (http) => http.post<unknown>(VELTRAX_PATHS.withdraw, body));
    return this.mapped('withdraw', this.prefixFor('withdraw'), () => this.payout(withdrawal, input.amount));
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const path = fillPath(VELTRAX_PATHS.withdrawal, { id: withdrawId });
    const withdrawal = await this.call(ctx, 'getWithdraw', (http) => http.get<unknown>(path));
    return { ...this.mapped('getWithdraw', this.prefixFor('getWithdraw'), () => this.payout(withdrawal)), withdrawId };
  }

  /** A payment's notification also states the fee Veltrax takes of it (§4's "fee"), in reais like its amount. */
  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const parsed = readVeltraxNotification(notification.body);
    const result = this.objectNotification(parsed);
    const fee = this.optionalProviderAmount(parsed?.fee);
    return result?.type === 'TRANSACTION' && fee !== undefined && fee >= 0 ? { ...result, providerFee: fee } : result;
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(readVeltraxNotification(notification.body), ctx, notification);
  }
}
