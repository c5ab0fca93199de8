import { z } from 'zod';
import type {
  AccountBalance,
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
import { cardDigits, fourDigitYear } from '../../lib/card.js';
import { inferDocumentType } from '../../lib/documents.js';
import { verifyTimestampedSignature } from '../../lib/hmacSignature.js';
import { parseJsonObject } from '../../lib/json.js';
import { statedCents } from '../../lib/money.js';
import { paymentMethodCodec } from '../../lib/paymentMethods.js';
import { FAILURE_PREFIXES } from '../../lib/providerMessages.js';
import { statusTable } from '../../lib/statusTable.js';
import { dateOf } from '../../lib/values.js';
import { statedPixPayment } from '../../domain/pixPayments.js';
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
import { absentable, wireStatus, wireText } from '../kit/answers.js';
import { DeclaredAdapter } from '../kit/declaredAdapter.js';
import {
  SIGNATURE_HEADER,
  type SandboxChargeMethod,
  type SandboxChargeStatus,
  type SandboxEventType,
  type SandboxSentNotification,
  type SandboxWithdrawalStatus,
} from '../../sandbox/api.js';
import { notificationKeyOf } from '../notificationKeys.js';

/**
 * SANDBOX: the gateway's own fake PSP (server/sandbox/psp.ts), reached over
 * HTTP like any provider. Also the model of a bespoke adapter: one declaration
 * (kit/declaration.ts), pure mappers, status tables as data, and operations
 * that glue them with one HTTP exchange each, every failure under the
 * catalogue's prefixes.
 */

/** The registry's key of the gateway's own fake PSP. */
export const SANDBOX_ID = 'SANDBOX';

// Identity, capabilities and auth: the API key as a bearer token.
const declaration = (defaultBaseUrl: string): ProviderDeclaration => ({
  identity: { id: SANDBOX_ID, specGroup: SPEC_GROUPS.GATEWAY, defaultBaseUrl },
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
    balances: true,
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

// ---------------------------------------------------------------- wire: the sandbox's answers (server/sandbox/api.ts) as schemas

/** Integer cents, as the sandbox states every amount. */
const cents = z.number().int();

/**
 * A charge. A 2xx answer that is not one (an HTML page, `{"success":false}`,
 * `null`) is a bad answer, never a status: mapping it would turn a pending
 * charge REJECTED through the table's default.
 */
/** The PIX payment that paid a charge (SandboxPixPayment): read leniently, it is shown, never acted on. */
const sandboxPixPayment = z
  .object({
    endToEndId: absentable(wireText),
    payer: absentable(z.object({ name: absentable(wireText), document: absentable(wireText), bankIspb: absentable(wireText), bankName: absentable(wireText) })),
  })
  .optional()
  .catch(undefined);

export const sandboxCharge = z.object({
  id: wireText,
  status: wireStatus,
  amount: cents,
  method: absentable(wireText),
  pix: absentable(z.object({ copyPaste: wireText, qrCodeDataUrl: absentable(wireText), expiresAt: absentable(wireText), payment: sandboxPixPayment })),
  boleto: absentable(z.object({ digitableLine: absentable(wireText), url: absentable(wireText), dueDate: absentable(wireText) })),
  declineReason: absentable(wireText),
  declineMessage: absentable(wireText),
  card: absentable(z.object({ brand: absentable(wireText), last4: z.string().regex(/^\d{4}$/) })),
});
export type SandboxChargeAnswer = z.output<typeof sandboxCharge>;

export const sandboxWithdrawal = z.object({
  id: wireText,
  status: wireStatus,
  amount: cents,
  paidAt: absentable(wireText),
  failureReason: absentable(wireText),
});
export type SandboxWithdrawalAnswer = z.output<typeof sandboxWithdrawal>;

const sandboxRecipient = z.object({
  id: wireText,
  token: z.string(),
  name: z.string(),
  document: z.string(),
  email: z.string(),
  status: wireStatus,
  balance: cents,
  paymentMethod: absentable(wireText),
});

/** A list answer `{data: [...]}`; anything else is a bad answer (never "nothing found"). */
const sandboxList = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
const sandboxCardToken = z.object({ token: wireText });
const sandboxCard = z.object({ id: wireText });
const sandboxRefund = z.object({ id: wireText, status: wireStatus });
/** GET /v1/balance (server/sandbox/balance.ts): payouts asked beyond what was received leave `available` below zero. */
export const sandboxBalanceAnswer = z.object({ available: cents, pending: cents.nonnegative(), currency: z.literal('BRL') });
const sandboxInstallments = z.object({
  options: z.array(z.object({ installmentNumber: z.number().int().positive(), installmentValue: cents, finalValue: cents })),
});
const sandboxPayment = z.object({
  charge: sandboxCharge,
  notification: absentable(z.object({ url: z.string(), body: z.string(), headers: z.record(z.string(), z.string()), responseStatus: z.number() })),
});

/** Notifications: which events say what about which resource; every other event is ignored. */
const EVENTS = {
  'charge.paid': 'TRANSACTION',
  'charge.refunded': 'TRANSACTION',
  'charge.updated': 'TRANSACTION',
  'withdrawal.paid': 'WITHDRAW',
  'withdrawal.failed': 'WITHDRAW',
} as const satisfies Record<SandboxEventType, 'TRANSACTION' | 'WITHDRAW'>;

/** A notification (SandboxEvent) of an event the gateway reads; the amount is read by statedCents, so an unreadable one is a mismatch, not an ignored event. */
const sandboxEvent = z.object({
  type: z.enum(['charge.paid', 'charge.refunded', 'charge.updated', 'withdrawal.paid', 'withdrawal.failed'] satisfies Array<keyof typeof EVENTS>),
  data: z.object({
    id: wireText,
    status: wireStatus,
    amount: z.unknown().optional(),
    pix: absentable(z.object({ payment: sandboxPixPayment })).catch(undefined),
    failureReason: absentable(wireText).catch(undefined),
  }),
});
const sandboxEventId = z.object({ id: wireText });

type StatusOf<S> = (value: string) => S;

// Response mappers: their body → our result.
export const fromSandboxCharge = (charge: SandboxChargeAnswer, status: StatusOf<TransactionStatus>): TransactionResult => ({
  paymentMethod: SANDBOX_METHODS.fromProvider(charge.method) ?? 'PIX',
  transactionId: charge.id,
  status: status(charge.status),
  amount: charge.amount,
  pixCode: charge.pix?.copyPaste,
  pixQrCode: charge.pix?.qrCodeDataUrl,
  billetCode: charge.boleto?.digitableLine,
  billetUrl: charge.boleto?.url,
  expiresAt: dateOf(charge.pix ? charge.pix.expiresAt : charge.boleto?.dueDate),
  ...(charge.declineReason ? { declineReason: charge.declineReason, ...(charge.declineMessage ? { declineMessage: charge.declineMessage } : {}) } : {}),
  ...(charge.card ? { cardLast4: charge.card.last4, ...(charge.card.brand ? { cardBrand: charge.card.brand } : {}) } : {}),
  ...pixPaymentStated(charge.pix?.payment),
});

/** The sandbox's PIX payment as the gateway's facts. */
const pixPaymentStated = (payment: z.output<typeof sandboxPixPayment>) =>
  statedPixPayment({
    endToEndId: payment?.endToEndId,
    payerName: payment?.payer?.name,
    payerDocument: payment?.payer?.document,
    payerBankIspb: payment?.payer?.bankIspb,
    payerBankName: payment?.payer?.bankName,
  });

export const fromSandboxWithdrawal = (withdrawal: SandboxWithdrawalAnswer, status: StatusOf<WithdrawStatus>): WithdrawResult => ({
  withdrawId: withdrawal.id,
  amount: withdrawal.amount,
  status: status(withdrawal.status),
  approvedAt: dateOf(withdrawal.paidAt),
  refusalReason: withdrawal.failureReason,
});

const fromSandboxRecipient = (recipient: z.output<typeof sandboxRecipient>): ReceiverResult => ({
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

// The operations: one exchange each.
export class SandboxAdapter extends DeclaredAdapter implements PaymentSimulator, ReferenceLookup {
  constructor(defaultBaseUrl: string, runtime: AdapterRuntime = {}) {
    super(declaration(defaultBaseUrl), runtime, { transactionStatuses: CHARGE_STATUS, withdrawalStatuses: WITHDRAWAL_STATUS });
  }

  /** The gateway's own fake PSP (server/sandbox/): its wire format is the gateway's, documented in the README. */
  override get evidence(): ProviderEvidence {
    return { level: 'built-in', addresses: [] };
  }

  private charge = (charge: SandboxChargeAnswer): TransactionResult => fromSandboxCharge(charge, (value) => this.transactionStatus(value));
  private withdrawal = (withdrawal: SandboxWithdrawalAnswer): WithdrawResult => fromSandboxWithdrawal(withdrawal, (value) => this.withdrawalStatus(value));

  override async createCardToken(ctx: AdapterContext, card: CardInput): Promise<string> {
    const data = await this.exchange(
      'createCardToken',
      this.prefixFor('createCardToken'),
      () => this.http(ctx).post('/v1/card-tokens', toSandboxCardToken(card)),
      sandboxCardToken,
    );
    return data.token;
  }

  override async createCardId(ctx: AdapterContext, input: CardIdInput): Promise<string> {
    const token = input.cardToken || (input.card ? await this.createCardToken(ctx, input.card) : undefined);
    if (!token) throw invalidArgument('card_token', 'card_token or card is required', 'REQUIRED');
    const prefix = this.prefixFor('createCardId');
    const data = await this.exchange('createCardId', prefix, () => this.http(ctx).post('/v1/cards', { token, customer: input.customer }), sandboxCard);
    return data.id;
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const charge = await this.exchange(
      'createTransaction',
      prefix,
      () => this.http(ctx).post('/v1/charges', toSandboxCharge(input, ctx), { headers: idempotencyHeader(input.idempotencyKey) }),
      sandboxCharge,
    );
    return this.charge(charge);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const charge = await this.exchange('getTransaction', prefix, () => this.http(ctx).get(`/v1/charges/${encodeURIComponent(transactionId)}`), sandboxCharge);
    return this.charge(charge);
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const refund = await this.exchange(
      'refoundTransaction',
      prefix,
      () => this.http(ctx).post(`/v1/charges/${encodeURIComponent(transactionId)}/refunds`, { amount }),
      sandboxRefund,
    );
    return { refundId: refund.id, status: refund.status === 'succeeded' };
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const prefix = this.prefixFor('withdraw');
    const withdrawal = await this.exchange(
      'withdraw',
      prefix,
      () => this.http(ctx).post('/v1/withdrawals', toSandboxWithdrawal(input, ctx), { headers: idempotencyHeader(input.idempotencyKey) }),
      sandboxWithdrawal,
    );
    return this.withdrawal(withdrawal);
  }

  override async getAccountBalance(ctx: AdapterContext): Promise<AccountBalance> {
    const prefix = this.prefixFor('getAccountBalance');
    return this.exchange('getAccountBalance', prefix, () => this.http(ctx).get('/v1/balance'), sandboxBalanceAnswer);
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const withdrawal = await this.exchange(
      'getWithdraw',
      prefix,
      () => this.http(ctx).get(`/v1/withdrawals/${encodeURIComponent(withdrawId)}`),
      sandboxWithdrawal,
    );
    return this.withdrawal(withdrawal);
  }

  async findTransactionByReference(ctx: AdapterContext, reference: string): Promise<TransactionResult | undefined> {
    const found = await this.findByReference(ctx, reference, { path: '/v1/charges', prefix: this.prefixFor('getTransaction'), item: sandboxCharge });
    return found && this.charge(found);
  }

  async findWithdrawalByReference(ctx: AdapterContext, reference: string): Promise<WithdrawResult | undefined> {
    const found = await this.findByReference(ctx, reference, { path: '/v1/withdrawals', prefix: this.prefixFor('getWithdraw'), item: sandboxWithdrawal });
    return found && this.withdrawal(found);
  }

  /** The sandbox lists a resource by the reference it was created with (the gateway's idempotency key): the first, or none. */
  private async findByReference<T>(ctx: AdapterContext, reference: string, how: { path: string; prefix: string; item: z.ZodType<T> }): Promise<T | undefined> {
    const list = await this.exchange('findByReference', how.prefix, () => this.http(ctx).get(how.path, { params: { reference } }), sandboxList(how.item));
    return list.data[0];
  }

  override async createReceiver(ctx: AdapterContext, input: ReceiverInput): Promise<ReceiverResult> {
    const prefix = this.prefixFor('createReceiver');
    const recipient = await this.exchange(
      'createReceiver',
      prefix,
      () =>
        this.http(ctx).post('/v1/recipients', {
          name: input.name,
          document: input.document,
          email: input.email,
          bankAccount: input.bankAccount,
          ...(input.paymentMethod ? { paymentMethod: input.paymentMethod === 'PIX' ? 'pix' : 'bank_transfer' } : {}),
        }),
      sandboxRecipient,
    );
    return fromSandboxRecipient(recipient);
  }

  override async getReceiver(ctx: AdapterContext, receiverId: string): Promise<ReceiverResult> {
    const prefix = this.prefixFor('getReceiver');
    const recipient = await this.exchange(
      'getReceiver',
      prefix,
      () => this.http(ctx).get(`/v1/recipients/${encodeURIComponent(receiverId)}`),
      sandboxRecipient,
    );
    return fromSandboxRecipient(recipient);
  }

  override async calculateInstallments(ctx: AdapterContext, amount: number): Promise<InstallmentOption[]> {
    const prefix = this.prefixFor('calculateInstallments');
    const data = await this.exchange(
      'calculateInstallments',
      prefix,
      () => this.http(ctx).get('/v1/installments', { params: { amount } }),
      sandboxInstallments,
    );
    return data.options;
  }

  /** Sandbox only: pay a pending PIX or boleto charge; the sandbox then notifies the sidecar. */
  async simulatePayment(ctx: AdapterContext, transactionId: string): Promise<{ transaction: TransactionResult; notification?: SandboxSentNotification }> {
    const prefix = FAILURE_PREFIXES.SIMULATE_PAYMENT;
    const data = await this.exchange(
      'simulatePayment',
      prefix,
      () => this.http(ctx).post(`/v1/charges/${encodeURIComponent(transactionId)}/pay`, {}),
      sandboxPayment,
    );
    return { transaction: this.charge(data.charge), ...(data.notification ? { notification: data.notification } : {}) };
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
    const event = sandboxEventId.safeParse(parseJsonObject(notification.body));
    return event.success ? notificationKeyOf({ eventId: event.data.id }, notification.body) : super.notificationKey(ctx, notification);
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const event = sandboxEvent.safeParse(parseJsonObject(notification.body));
    if (!event.success) return undefined;
    const { id, status } = event.data.data;
    // The sandbox states every notification's amount in integer cents: anything else (missing included) is unreadable, a mismatch.
    const amount = statedCents(event.data.data.amount);
    return EVENTS[event.data.type] === 'TRANSACTION'
      ? { type: 'TRANSACTION', transactionId: id, status: this.transactionStatus(status), amount, ...pixPaymentStated(event.data.data.pix?.payment) }
      : { type: 'WITHDRAW', transactionId: id, status: this.withdrawalStatus(status), amount, refusalReason: event.data.data.failureReason };
  }
}
