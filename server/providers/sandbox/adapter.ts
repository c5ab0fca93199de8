import type {
  CardInput,
  InstallmentOption,
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
import { invalidArgument } from '../../lib/errors.js';
import { ProviderCallError } from '../../lib/http/index.js';
import { cardDigits, fourDigitYear } from '../../lib/card.js';
import { inferDocumentType } from '../../lib/documents.js';
import { verifyTimestampedSignature } from '../../lib/hmacSignature.js';
import { parseJsonObject } from '../../lib/json.js';
import { statedCents } from '../../lib/money.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { FAILURE_PREFIXES } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { textOf } from '../../lib/values.js';
import {
  SPEC_GROUPS,
  type AdapterContext,
  type CardIdInput,
  type IncomingNotification,
  type NotificationVerdict,
  type PaymentSimulator,
  type ReferenceLookup,
  type ProviderEvidence,
} from '../adapter.js';
import type { AdapterRuntime, ProviderDeclaration } from '../kit/declaration.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import {
  SIGNATURE_HEADER,
  type SandboxCharge,
  type SandboxChargeMethod,
  type SandboxChargeStatus,
  type SandboxRecipient,
  type SandboxSentNotification,
  type SandboxWithdrawal,
  type SandboxWithdrawalStatus,
} from '../../sandbox/api.js';

/**
 * SANDBOX: the gateway's own fake PSP (server/sandbox/psp.ts), reached over
 * HTTP like any provider. Also the model of a bespoke adapter: one declaration
 * (kit/declaration.ts), pure mappers, status tables as data, and operations
 * that glue them with one HTTP exchange each, every failure under the
 * catalogue's prefixes.
 */

// Identity, capabilities and auth: the API key as a bearer token.
const declaration = (defaultBaseUrl: string): ProviderDeclaration => ({
  identity: { id: 'SANDBOX', specGroup: SPEC_GROUPS.GATEWAY, defaultBaseUrl },
  capabilities: {
    paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'],
    withdrawMethods: ['PIX'],
    withdrawalLookup: true,
    refunds: true,
    receivers: true,
    cardTokens: true,
    savedCards: true,
    installments: true,
    webhooks: true,
  },
  auth: { type: 'bearer' },
  credentials: { required: ['secretKey'] },
  money: 'cents',
  sources: 'gateway (`server/sandbox/api.ts`)',
  timeoutMs: 10_000,
});

// Status tables: plain data, one per resource; anything else is REJECTED, with a warning.
const CHARGE_STATUS = statusTable<TransactionStatus>(
  { pending: 'PENDING', paid: 'APPROVED', declined: 'REJECTED', refunded: 'REFUNDED', canceled: 'CANCELED' } satisfies Record<
    SandboxChargeStatus,
    TransactionStatus
  >,
  'REJECTED',
);
const WITHDRAWAL_STATUS = statusTable<WithdrawStatus>(
  { processing: 'PENDING', paid: 'APPROVED', failed: 'REJECTED' } satisfies Record<SandboxWithdrawalStatus, WithdrawStatus>,
  'REJECTED',
);

const SANDBOX_METHODS = paymentMethodCodec<PaymentMethod, SandboxChargeMethod>({ PIX: 'pix', CREDIT_CARD: 'card', BILLET: 'boleto' });

// Request mappers: our input → their body.
export const toSandboxCharge = (input: TransactionInput, ctx: Pick<AdapterContext, 'notificationUrl' | 'webhookSecret'>) => ({
  amount: input.amount,
  method: SANDBOX_METHODS.toProvider(input.paymentMethod),
  description: input.description,
  installments: input.installments,
  cardId: input.cardId,
  customer: input.customer,
  externalReference: input.orderId,
  notificationUrl: ctx.notificationUrl,
  notificationSecret: ctx.webhookSecret,
});

export const toSandboxWithdrawal = (input: WithdrawInput, ctx: Pick<AdapterContext, 'notificationUrl' | 'webhookSecret'>) => ({
  amount: input.amount,
  pixKey: input.pixKey,
  pixKeyType: input.pixType,
  description: input.description,
  reference: input.withdrawReference,
  notificationUrl: ctx.notificationUrl,
  notificationSecret: ctx.webhookSecret,
});

export const toSandboxCardToken = (card: CardInput) => ({
  number: cardDigits(card.cardNumber),
  holderName: card.holderName,
  holderDocument: card.holderDocument,
  expMonth: card.expMonth,
  expYear: fourDigitYear(card.expYear),
  cvv: card.cvv,
});

/** The sandbox takes the gateway's idempotency key as its own, so a retry the gateway sends can never charge twice there. */
const idempotencyHeader = (key: string | undefined): Record<string, string> => (key ? { 'idempotency-key': key } : {});

/** A list answer: `{data: [...]}`; anything else is a provider failure (never "nothing found"). */
function sandboxList<T>(data: unknown, what: string): T[] {
  const list = (data as { data?: unknown } | null)?.data;
  if (!Array.isArray(list)) throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `the sandbox answered without a ${what}`);
  return list as T[];
}

/**
 * A 2xx answer that is not the resource (an HTML page, `{"success":false}`,
 * `null`) is a provider failure, never a status: mapping it would turn a
 * pending charge REJECTED through the table's default.
 */
function sandboxResource<T>(data: unknown, what: string): T {
  const resource = data as { id?: unknown; status?: unknown } | null;
  if (!resource || typeof resource !== 'object' || typeof resource.id !== 'string' || typeof resource.status !== 'string') {
    throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `the sandbox answered without a ${what}`);
  }
  return data as T;
}

type StatusOf<S> = (value: unknown) => S;

// Response mappers: their body → our result.
export const fromSandboxCharge = (data: unknown, status: StatusOf<TransactionStatus>): TransactionResult => {
  const charge = sandboxResource<SandboxCharge>(data, 'charge');
  return {
    paymentMethod: SANDBOX_METHODS.fromProvider(charge.method) ?? 'PIX',
    transactionId: charge.id,
    status: status(charge.status),
    amount: charge.amount,
    pixCode: charge.pix?.copyPaste,
    pixQrCode: charge.pix?.qrCodeDataUrl,
    billetCode: charge.boleto?.digitableLine,
    billetUrl: charge.boleto?.url,
    expiresAt: charge.pix ? new Date(charge.pix.expiresAt) : charge.boleto ? new Date(charge.boleto.dueDate) : undefined,
  };
};

export const fromSandboxWithdrawal = (data: unknown, status: StatusOf<WithdrawStatus>): WithdrawResult => {
  const withdrawal = sandboxResource<SandboxWithdrawal>(data, 'withdrawal');
  return {
    withdrawId: withdrawal.id,
    amount: withdrawal.amount,
    status: status(withdrawal.status),
    approvedAt: withdrawal.paidAt ? new Date(withdrawal.paidAt) : undefined,
  };
};

const fromSandboxRecipient = (recipient: SandboxRecipient): ReceiverResult => ({
  receiverId: recipient.id,
  receiverProvider: 'SANDBOX',
  receiverToken: recipient.token,
  name: recipient.name,
  document: recipient.document,
  documentType: inferDocumentType(recipient.document),
  email: recipient.email,
  status: recipient.status === 'active' ? 'ACTIVE' : recipient.status === 'rejected' ? 'REJECTED' : 'PENDING',
  balance: recipient.balance,
  // Recipients stored before the sandbox kept a method were paid by bank transfer, its default.
  paymentMethod: recipient.paymentMethod === 'pix' ? 'PIX' : 'BANK_ACCOUNT',
});

/** Notifications: which events say what about which resource; every other event is ignored. */
const EVENTS: Readonly<Record<string, 'TRANSACTION' | 'WITHDRAW'>> = {
  'charge.paid': 'TRANSACTION',
  'charge.refunded': 'TRANSACTION',
  'charge.updated': 'TRANSACTION',
  'withdrawal.paid': 'WITHDRAW',
  'withdrawal.failed': 'WITHDRAW',
};

// The operations: one exchange each.
export class SandboxAdapter extends DeclaredAdapter implements PaymentSimulator, ReferenceLookup {
  constructor(defaultBaseUrl: string, runtime: AdapterRuntime = {}) {
    super(declaration(defaultBaseUrl), runtime, { transactionStatuses: CHARGE_STATUS, withdrawalStatuses: WITHDRAWAL_STATUS });
  }

  /** The gateway's own fake PSP (server/sandbox/): its wire format is the gateway's, documented in the README. */
  override get evidence(): ProviderEvidence {
    return { level: 'built-in', addresses: [] };
  }

  private charge = (data: unknown): TransactionResult => fromSandboxCharge(data, (value) => this.transactionStatus(value));
  private withdrawal = (data: unknown): WithdrawResult => fromSandboxWithdrawal(data, (value) => this.withdrawalStatus(value));

  override async createCardToken(ctx: AdapterContext, card: CardInput): Promise<string> {
    const data = await this.exchange('createCardToken', this.prefixFor('createCardToken'), () =>
      this.http(ctx).post<{ token?: string }>('/v1/card-tokens', toSandboxCardToken(card)),
    );
    const token = textOf(data?.token);
    if (!token)
      throw this.failure(
        'createCardToken',
        this.prefixFor('createCardToken'),
        new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', 'the sandbox answered without a token'),
      );
    return token;
  }

  override async createCardId(ctx: AdapterContext, input: CardIdInput): Promise<string> {
    const token = input.cardToken || (input.card ? await this.createCardToken(ctx, input.card) : undefined);
    if (!token) throw invalidArgument('card_token', 'card_token or card is required');
    const prefix = this.prefixFor('createCardId');
    const data = await this.exchange('createCardId', prefix, () => this.http(ctx).post<{ id?: string }>('/v1/cards', { token, customer: input.customer }));
    const id = textOf(data?.id);
    if (!id)
      throw this.failure('createCardId', prefix, new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', 'the sandbox answered without a card id'));
    return id;
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const data = await this.exchange('createTransaction', prefix, () =>
      this.http(ctx).post<unknown>('/v1/charges', toSandboxCharge(input, ctx), { headers: idempotencyHeader(input.idempotencyKey) }),
    );
    return this.mapped('createTransaction', prefix, () => this.charge(data));
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const data = await this.exchange('getTransaction', prefix, () => this.http(ctx).get<unknown>(`/v1/charges/${encodeURIComponent(transactionId)}`));
    return this.mapped('getTransaction', prefix, () => this.charge(data));
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const data = await this.exchange('refoundTransaction', prefix, () =>
      this.http(ctx).post<{ id?: string; status?: string }>(`/v1/charges/${encodeURIComponent(transactionId)}/refunds`, { amount }),
    );
    const refundId = textOf(data?.id);
    if (!refundId || !textOf(data?.status))
      throw this.failure('refoundTransaction', prefix, new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', 'the sandbox answered without a refund'));
    return { refundId, status: data.status === 'succeeded' };
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const prefix = this.prefixFor('withdraw');
    const data = await this.exchange('withdraw', prefix, () =>
      this.http(ctx).post<unknown>('/v1/withdrawals', toSandboxWithdrawal(input, ctx), { headers: idempotencyHeader(input.idempotencyKey) }),
    );
    return this.mapped('withdraw', prefix, () => this.withdrawal(data));
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const data = await this.exchange('getWithdraw', prefix, () => this.http(ctx).get<unknown>(`/v1/withdrawals/${encodeURIComponent(withdrawId)}`));
    return this.mapped('getWithdraw', prefix, () => this.withdrawal(data));
  }

  findTransactionByReference(ctx: AdapterContext, reference: string): Promise<TransactionResult | undefined> {
    return this.findByReference(ctx, reference, { path: '/v1/charges', prefix: this.prefixFor('getTransaction'), what: 'list of charges', map: this.charge });
  }

  findWithdrawalByReference(ctx: AdapterContext, reference: string): Promise<WithdrawResult | undefined> {
    return this.findByReference(ctx, reference, {
      path: '/v1/withdrawals',
      prefix: this.prefixFor('getWithdraw'),
      what: 'list of withdrawals',
      map: this.withdrawal,
    });
  }

  /** The sandbox lists a resource by the reference it was created with (the gateway's idempotency key): the first, or none. */
  private async findByReference<T>(ctx: AdapterContext, reference: string, how: { path: string; prefix: string; what: string; map: (data: unknown) => T }) {
    const data = await this.exchange('findByReference', how.prefix, () => this.http(ctx).get<unknown>(how.path, { params: { reference } }));
    return this.mapped('findByReference', how.prefix, () => {
      const found = sandboxList<unknown>(data, how.what)[0];
      return found === undefined ? undefined : how.map(found);
    });
  }

  override async createReceiver(ctx: AdapterContext, input: ReceiverInput): Promise<ReceiverResult> {
    const prefix = this.prefixFor('createReceiver');
    const data = await this.exchange('createReceiver', prefix, () =>
      this.http(ctx).post<SandboxRecipient>('/v1/recipients', {
        name: input.name,
        document: input.document,
        email: input.email,
        bankAccount: input.bankAccount,
        ...(input.paymentMethod ? { paymentMethod: input.paymentMethod === 'PIX' ? 'pix' : 'bank_transfer' } : {}),
      }),
    );
    return this.mapped('createReceiver', prefix, () => fromSandboxRecipient(sandboxResource<SandboxRecipient>(data, 'recipient')));
  }

  override async getReceiver(ctx: AdapterContext, receiverId: string): Promise<ReceiverResult> {
    const prefix = this.prefixFor('getReceiver');
    const data = await this.exchange('getReceiver', prefix, () => this.http(ctx).get<SandboxRecipient>(`/v1/recipients/${encodeURIComponent(receiverId)}`));
    return this.mapped('getReceiver', prefix, () => fromSandboxRecipient(sandboxResource<SandboxRecipient>(data, 'recipient')));
  }

  override async calculateInstallments(ctx: AdapterContext, amount: number): Promise<InstallmentOption[]> {
    const prefix = this.prefixFor('calculateInstallments');
    const data = await this.exchange('calculateInstallments', prefix, () =>
      this.http(ctx).get<{ options?: InstallmentOption[] }>('/v1/installments', { params: { amount } }),
    );
    if (!Array.isArray(data?.options))
      throw this.failure(
        'calculateInstallments',
        prefix,
        new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', 'the sandbox answered without options'),
      );
    return data.options;
  }

  /** Sandbox only: pay a pending PIX or boleto charge; the sandbox then notifies the sidecar. */
  async simulatePayment(ctx: AdapterContext, transactionId: string): Promise<{ transaction: TransactionResult; notification?: SandboxSentNotification }> {
    const prefix = FAILURE_PREFIXES.SIMULATE_PAYMENT;
    const data = await this.exchange('simulatePayment', prefix, () =>
      this.http(ctx).post<{ charge?: unknown; notification?: SandboxSentNotification }>(`/v1/charges/${encodeURIComponent(transactionId)}/pay`, {}),
    );
    return { transaction: this.mapped('getTransaction', prefix, () => this.charge(data?.charge)), notification: data?.notification };
  }

  /**
   * The sandbox signs a resource's notifications with the secret given when it
   * was created: the account's webhook secret. A signature more than five
   * minutes from the arrival time, either way, is refused as a replay.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    if (!ctx.webhookSecret) return 'unsigned';
    const receivedAt = notification.receivedAt?.getTime() ?? this.now().getTime();
    return verifyTimestampedSignature(ctx.webhookSecret, notification.headers[SIGNATURE_HEADER], notification.body, { receivedAt }).valid ? 'valid' : 'invalid';
  }

  /** Re-deliveries carry the same event id, taken from the signed body (a header could be changed by whoever replays it). */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const eventId = textOf(parseJsonObject(notification.body)?.id);
    return eventId ? `event:${eventId}` : super.notificationKey(ctx, notification);
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const event = parseJsonObject(notification.body);
    const data = event?.data as { id?: unknown; status?: unknown; amount?: unknown } | undefined;
    const type = typeof event?.type === 'string' && Object.hasOwn(EVENTS, event.type) ? EVENTS[event.type] : undefined;
    const id = textOf(data?.id);
    if (!type || !id) return undefined;
    // The sandbox states every notification's amount in integer cents: anything else (missing included) is unreadable, a mismatch.
    const amount = statedCents(data?.amount);
    return type === 'TRANSACTION'
      ? { type, transactionId: id, status: this.transactionStatus(data?.status), amount }
      : { type, transactionId: id, status: this.withdrawalStatus(data?.status), amount };
  }
}
