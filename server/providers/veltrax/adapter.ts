import { randomUUID } from 'node:crypto';
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
import { isRecord, parseJsonObject } from '../../lib/json.js';
import { inferPixKeyType, normalizePixKey } from '../../lib/pixKey.js';
import { withPixQrImage } from '../../lib/pixQrCode.js';
import { catalogueError } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { idText, textOf } from '../../lib/values.js';
import { SPEC_GROUPS, type AdapterContext, type IncomingNotification } from '../adapter.js';
import { fillPath, type AdapterRuntime, type ProviderDeclaration } from '../kit/declaration.js';
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
 * From the provider research (groups 3–4, F5: the 7hubpag / Vexus / PulsePag
 * API with the same paths): amounts in reais, the token `{token}` sent as
 * Bearer, the deposit's `clientCallbackUrl`, the withdrawal answer
 * `{transactionId, withdrawal{transaction_id, external_id, status, amount, fee,
 * total}}` and the webhook `{transaction_id, external_id, status, amount, fee,
 * total, type}`. Where F5 shows nothing (the deposit's answer), the shapes are
 * the gateway's decision (docs/decisions.md).
 *
 * Read top to bottom: declaration → wire shapes → request mappers → status
 * tables → response mappers → notifications → the operations.
 */

// ---------------------------------------------------------------- declaration

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
  sources:
    "paths, login body, withdraw body, statuses, webhook rule, key type inference, PIX-only texts, 'Falha na autenticação', no refunds: spec (doc 3 §4/§5/§7/§8); `{token}` as Bearer, reais, `clientCallbackUrl`, withdrawal answer `{transactionId, withdrawal{…}}`, webhook `{transaction_id, status, amount, fee, total, type}`: research (F5, 7hubpag/Vexus/PulsePag docs); deposit answer, `net_amount`/`recipient` names: gateway's decision; host: placeholder",
};

export const VELTRAX_PATHS = {
  login: '/api/auth/login',
  deposit: '/api/payments/deposit',
  payment: '/api/payments/{id}',
  withdraw: '/api/withdrawals/withdraw',
  withdrawal: '/api/withdrawals/{id}',
} as const;

// ---------------------------------------------------------------- wire shapes

/** Body of POST /api/payments/deposit (F5). */
export interface DepositRequest {
  amount: number;
  external_id: string;
  clientCallbackUrl: string;
  description?: string;
  payer?: { name: string; document: string; email?: string };
}

/** Body of POST /api/withdrawals/withdraw (§7, F5). */
export interface WithdrawRequest {
  amount: number;
  external_id: string;
  pix_key: string;
  key_type: 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'RANDOM';
  description: string;
  clientCallbackUrl: string;
}

/** A payment or a withdrawal as the API answers it, bare or under `deposit` / `payment` / `withdrawal` / `data`. */
export interface VeltraxObject {
  transaction_id?: string | number;
  id?: string | number;
  external_id?: string;
  status?: string;
  amount?: number | string;
  fee?: number | string;
  total?: number | string;
  net_amount?: number | string;
  /** The deposit's copy-and-paste code (gateway's decision; `qr_code` and `pix_code` read alike). */
  qr_code?: string;
  pix_code?: string;
  type?: string;
  recipient?: Record<string, unknown>;
}

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

// ---------------------------------------------------------------- response mappers

/** The object an answer carries, bare or wrapped; undefined without an id or a status. */
export function veltraxObject(answer: unknown): (VeltraxObject & { id: string; status: string }) | undefined {
  if (!isRecord(answer)) return undefined;
  const wrapped = [answer.deposit, answer.payment, answer.withdrawal, answer.data].find(isRecord);
  const object = (wrapped ?? answer) as VeltraxObject;
  const id = idText(object.transaction_id) ?? idText(object.id) ?? idText(answer.transactionId);
  const status = textOf(object.status);
  return id && status ? { ...object, id, status } : undefined;
}

// ---------------------------------------------------------------- notifications

const present = (value: unknown): boolean => (typeof value === 'number' && Number.isFinite(value)) || !!textOf(value);

/**
 * §4: accepted only when it carries amount, fee and net amount (`net_amount`,
 * or F5's `total`), or recipient bank details (`recipient`); a withdrawal by
 * its `type`, else a payment.
 */
export function readVeltraxNotification(body: Buffer): ObjectNotification | undefined {
  const event = parseJsonObject(body) as VeltraxObject | undefined;
  const object = veltraxObject(event);
  if (!event || !object) return undefined;
  const amounts = present(event.amount) && present(event.fee) && (present(event.net_amount) || present(event.total));
  const bankDetails = isRecord(event.recipient) && Object.keys(event.recipient).length > 0;
  if (!amounts && !bankDetails) return undefined;
  const kind = /withdraw/i.test(event.type ?? '') ? 'withdrawal' : 'transaction';
  return { kind, id: object.id, status: object.status };
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

  private read<T>(operation: Operation, answer: unknown, map: (object: VeltraxObject & { id: string; status: string }) => T, what: string): T {
    return this.mapped(operation, this.prefixFor(operation), () => {
      const object = veltraxObject(answer) ?? unusableAnswer(what);
      return map(object);
    });
  }

  private payment(object: VeltraxObject & { id: string; status: string }, requested?: number): TransactionResult {
    const pixCode = textOf(object.qr_code) ?? textOf(object.pix_code);
    return {
      paymentMethod: 'PIX',
      transactionId: object.id,
      status: this.transactionStatus(object.status),
      amount: this.amountOr(object.amount, requested, 'valor do pagamento'),
      ...(pixCode ? { pixCode } : {}),
    };
  }

  private payout(object: VeltraxObject & { id: string; status: string }, requested?: number): WithdrawResult {
    return { withdrawId: object.id, status: this.withdrawalStatus(object.status), amount: this.amountOr(object.amount, requested, 'valor do saque') };
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const expiresAt = this.expiresAt(this.pixExpirySeconds);
    const body = toDeposit(input, {
      amount: this.toProviderAmount(input.amount),
      externalId: input.orderId ?? randomUUID(),
      callbackUrl: ctx.notificationUrl,
    });
    const answer = await this.loginCall(ctx, 'createTransaction', (http) => http.post<unknown>(VELTRAX_PATHS.deposit, body));
    const charge = this.read('createTransaction', answer, (object) => this.payment(object, input.amount), 'id ou status do pagamento');
    // A deposit without its BR Code is one nobody can pay.
    if (!charge.pixCode) this.mapped('createTransaction', this.prefixFor('createTransaction'), () => unusableAnswer('código PIX do pagamento'));
    return withPixQrImage({ ...charge, expiresAt });
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const path = fillPath(VELTRAX_PATHS.payment, { id: transactionId });
    const answer = await this.loginCall(ctx, 'getTransaction', (http) => http.get<unknown>(path));
    const charge = this.read('getTransaction', answer, (object) => this.payment(object), 'id ou status do pagamento');
    // The id asked for stays the id, whatever the answer echoes.
    return withPixQrImage({ ...charge, transactionId });
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    // 'Veltrax suporta apenas saques via PIX' for another method; the key type inferred when none is given (§5, §8).
    const payout = this.pixPayout(input);
    const body: WithdrawRequest = {
      amount: this.toProviderAmount(input.amount),
      external_id: input.withdrawReference?.trim() || input.idempotencyKey || randomUUID(),
      ...veltraxPixKey(payout.pixKey, payout.pixType),
      description: this.payoutDescription(input),
      clientCallbackUrl: ctx.notificationUrl,
    };
    const answer = await this.loginCall(ctx, 'withdraw', (http) => http.post<unknown>(VELTRAX_PATHS.withdraw, body));
    return this.read('withdraw', answer, (object) => this.payout(object, input.amount), 'id ou status do saque');
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const path = fillPath(VELTRAX_PATHS.withdrawal, { id: withdrawId });
    const answer = await this.loginCall(ctx, 'getWithdraw', (http) => http.get<unknown>(path));
    return { ...this.read('getWithdraw', answer, (object) => this.payout(object), 'id ou status do saque'), withdrawId };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(readVeltraxNotification(notification.body));
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(readVeltraxNotification(notification.body), ctx, notification);
  }
}
