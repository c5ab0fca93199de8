import { createProviderHttp, ProviderCallError, providerError, type ProviderHttp, type ProviderHttpDeclaration } from '../../lib/http/index.js';
import { invalidArgument } from '../../lib/errors.js';
import { cardDigits, fourDigitYear } from '../../lib/card.js';
import { inferDocumentType } from '../../lib/documents.js';
import { logger } from '../../lib/logger.js';
import { lookupStatus, statusTable } from '../../lib/statusTable.js';
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
import {
  ProviderAdapter,
  type AdapterContext,
  type PaymentSimulator,
  type ReferenceLookup,
  type CardIdInput,
  type IncomingNotification,
  type NotificationVerdict,
  type ProviderIdentity,
} from '../adapter.js';
import { verifyTimestampedSignature } from '../../lib/hmacSignature.js';
import {
  SIGNATURE_HEADER,
  type SandboxCharge,
  type SandboxChargeMethod,
  type SandboxChargeStatus,
  type SandboxEvent,
  type SandboxRecipient,
  type SandboxSentNotification,
  type SandboxWithdrawal,
  type SandboxWithdrawalStatus,
} from '../../sandbox/api.js';

// Auth and transport: the API key as a bearer token.
const HTTP: ProviderHttpDeclaration = { provider: 'SANDBOX', timeoutMs: 10_000, auth: { type: 'bearer' } };

// Status tables: plain data, one per resource; anything else is REJECTED, with a warning.
const CHARGE_STATUS: Record<SandboxChargeStatus, TransactionStatus> = {
  pending: 'PENDING',
  paid: 'APPROVED',
  declined: 'REJECTED',
  refunded: 'REFUNDED',
  canceled: 'CANCELED',
};
const WITHDRAWAL_STATUS: Record<SandboxWithdrawalStatus, WithdrawStatus> = {
  processing: 'PENDING',
  paid: 'APPROVED',
  failed: 'REJECTED',
};
const CHARGE_TABLE = statusTable<TransactionStatus>(CHARGE_STATUS, 'REJECTED');
const WITHDRAWAL_TABLE = statusTable<WithdrawStatus>(WITHDRAWAL_STATUS, 'REJECTED');
const warnUnknown = (what: string) => (status: unknown, mappedTo: string) =>
  logger.warn({ provider: 'SANDBOX', status, mappedTo }, `unknown sandbox ${what} status`);
const chargeStatus = (status: unknown) => lookupStatus(CHARGE_TABLE, status, warnUnknown('charge'));
const withdrawalStatus = (status: unknown) => lookupStatus(WITHDRAWAL_TABLE, status, warnUnknown('withdrawal'));

const METHOD_TO_SANDBOX: Record<PaymentMethod, SandboxChargeMethod> = { PIX: 'pix', CREDIT_CARD: 'card', BILLET: 'boleto' };
const METHOD_FROM_SANDBOX: Record<SandboxChargeMethod, PaymentMethod> = { pix: 'PIX', card: 'CREDIT_CARD', boleto: 'BILLET' };

// Request mappers: our input → their body.
export const toSandboxCharge = (input: TransactionInput, ctx: Pick<AdapterContext, 'notificationUrl' | 'webhookSecret'>) => ({
  amount: input.amount,
  method: METHOD_TO_SANDBOX[input.paymentMethod],
  description: input.description,
  installments: input.installments,
  cardId: input.cardId,
  customer: input.customer,
  externalReference: input.orderId,
  notificationUrl: ctx.notificationUrl,
  notificationSecret: ctx.webhookSecret,
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

// Response mappers: their body → our result.
export const fromSandboxCharge = (data: unknown): TransactionResult => {
  const charge = sandboxResource<SandboxCharge>(data, 'charge');
  return {
    paymentMethod: METHOD_FROM_SANDBOX[charge.method],
    transactionId: charge.id,
    status: chargeStatus(charge.status),
    amount: charge.amount,
    pixCode: charge.pix?.copyPaste,
    pixQrCode: charge.pix?.qrCodeDataUrl,
    billetCode: charge.boleto?.digitableLine,
    billetUrl: charge.boleto?.url,
    expiresAt: charge.pix ? new Date(charge.pix.expiresAt) : charge.boleto ? new Date(charge.boleto.dueDate) : undefined,
  };
};

export const fromSandboxWithdrawal = (data: unknown): WithdrawResult => {
  const withdrawal = sandboxResource<SandboxWithdrawal>(data, 'withdrawal');
  return {
    withdrawId: withdrawal.id,
    amount: withdrawal.amount,
    status: withdrawalStatus(withdrawal.status),
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
});

function parseEvent(body: Buffer): Partial<SandboxEvent> | undefined {
  try {
    const event: unknown = JSON.parse(body.toString('utf8'));
    return event && typeof event === 'object' ? (event as Partial<SandboxEvent>) : undefined;
  } catch {
    return undefined;
  }
}

/** The gateway's own fake PSP (server/sandbox/psp.ts), reached over HTTP like any provider. */
export class SandboxAdapter extends ProviderAdapter implements PaymentSimulator, ReferenceLookup {
  readonly identity: ProviderIdentity;

  /** The clock signatures are checked against (tests move it). */
  private readonly now: () => number;
  private readonly timeoutMs: number;

  constructor(defaultBaseUrl: string, options: { now?: () => number; timeoutMs?: number } = {}) {
    super();
    this.now = options.now ?? Date.now;
    this.timeoutMs = options.timeoutMs ?? HTTP.timeoutMs!;
    this.identity = {
      id: 'SANDBOX',
      aliases: [],
      specGroup: 'gateway sandbox (not in the specification)',
      paymentMethods: ['PIX', 'CREDIT_CARD', 'BILLET'],
      withdrawMethods: ['PIX'],
      defaultBaseUrl,
    };
  }

  private http(ctx: AdapterContext): ProviderHttp {
    return createProviderHttp({ ...HTTP, timeoutMs: this.timeoutMs, ctx });
  }

  override async createCardToken(ctx: AdapterContext, card: CardInput): Promise<string> {
    try {
      const { data } = await this.http(ctx).post<{ token: string }>('/v1/card-tokens', {
        number: cardDigits(card.cardNumber),
        holderName: card.holderName,
        holderDocument: card.holderDocument,
        expMonth: card.expMonth,
        expYear: fourDigitYear(card.expYear),
        cvv: card.cvv,
      });
      return data.token;
    } catch (error) {
      throw providerError('Erro ao criar token do cartão', error);
    }
  }

  override async createCardId(ctx: AdapterContext, input: CardIdInput): Promise<string> {
    const token = input.cardToken || (input.card ? await this.createCardToken(ctx, input.card) : undefined);
    if (!token) throw invalidArgument('card_token', 'card_token or card is required');
    try {
      const { data } = await this.http(ctx).post<{ id: string }>('/v1/cards', { token, customer: input.customer });
      return data.id;
    } catch (error) {
      throw providerError('Erro salvando cartão', error);
    }
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    try {
      const { data } = await this.http(ctx).post<SandboxCharge>('/v1/charges', toSandboxCharge(input, ctx), {
        headers: idempotencyHeader(input.idempotencyKey),
      });
      return fromSandboxCharge(data);
    } catch (error) {
      throw providerError('Erro ao criar transação', error);
    }
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    try {
      const { data } = await this.http(ctx).get<SandboxCharge>(`/v1/charges/${encodeURIComponent(transactionId)}`);
      return fromSandboxCharge(data);
    } catch (error) {
      throw providerError('Erro ao buscar transação', error);
    }
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    try {
      const { data } = await this.http(ctx).post<{ id: string; status: string }>(`/v1/charges/${encodeURIComponent(transactionId)}/refunds`, { amount });
      return { refundId: data.id, status: data.status === 'succeeded' };
    } catch (error) {
      throw providerError('Erro ao estornar transação', error);
    }
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    try {
      const { data } = await this.http(ctx).post<SandboxWithdrawal>(
        '/v1/withdrawals',
        {
          amount: input.amount,
          pixKey: input.pixKey,
          pixKeyType: input.pixType,
          description: input.description,
          reference: input.withdrawReference,
          notificationUrl: ctx.notificationUrl,
          notificationSecret: ctx.webhookSecret,
        },
        { headers: idempotencyHeader(input.idempotencyKey) },
      );
      return fromSandboxWithdrawal(data);
    } catch (error) {
      throw providerError('Erro ao realizar saque', error);
    }
  }

  async findTransactionByReference(ctx: AdapterContext, reference: string): Promise<TransactionResult | undefined> {
    try {
      const { data } = await this.http(ctx).get<{ data?: SandboxCharge[] }>('/v1/charges', { params: { reference } });
      const found = sandboxList<SandboxCharge>(data, 'list of charges')[0];
      return found && fromSandboxCharge(found);
    } catch (error) {
      throw providerError('Erro ao buscar transação', error);
    }
  }

  async findWithdrawalByReference(ctx: AdapterContext, reference: string): Promise<WithdrawResult | undefined> {
    try {
      const { data } = await this.http(ctx).get<{ data?: SandboxWithdrawal[] }>('/v1/withdrawals', { params: { reference } });
      const found = sandboxList<SandboxWithdrawal>(data, 'list of withdrawals')[0];
      return found && fromSandboxWithdrawal(found);
    } catch (error) {
      throw providerError('Erro ao buscar saque', error);
    }
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    try {
      const { data } = await this.http(ctx).get<SandboxWithdrawal>(`/v1/withdrawals/${encodeURIComponent(withdrawId)}`);
      return fromSandboxWithdrawal(data);
    } catch (error) {
      throw providerError('Erro ao buscar saque', error);
    }
  }

  override async createReceiver(ctx: AdapterContext, input: ReceiverInput): Promise<ReceiverResult> {
    try {
      const { data } = await this.http(ctx).post<SandboxRecipient>('/v1/recipients', {
        name: input.name,
        document: input.document,
        email: input.email,
        bankAccount: input.bankAccount,
      });
      return fromSandboxRecipient(data);
    } catch (error) {
      throw providerError('Erro ao criar recebedor', error);
    }
  }

  override async getReceiver(ctx: AdapterContext, receiverId: string): Promise<ReceiverResult> {
    try {
      const { data } = await this.http(ctx).get<SandboxRecipient>(`/v1/recipients/${encodeURIComponent(receiverId)}`);
      return fromSandboxRecipient(data);
    } catch (error) {
      throw providerError('Erro ao buscar recebedor', error);
    }
  }

  /**
   * The sandbox signs a resource's notifications with the secret given when it
   * was created: the account's webhook secret. A signature more than five
   * minutes from the arrival time, either way, is refused as a replay.
   */
  override verifyNotification(ctx: AdapterContext, notification: IncomingNotification): NotificationVerdict {
    if (!ctx.webhookSecret) return 'unsigned';
    const receivedAt = notification.receivedAt?.getTime() ?? this.now();
    return verifyTimestampedSignature(ctx.webhookSecret, notification.headers[SIGNATURE_HEADER], notification.body, { receivedAt }).valid ? 'valid' : 'invalid';
  }

  /** Re-deliveries carry the same event id, taken from the signed body (a header could be changed by whoever replays it). */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const eventId = parseEvent(notification.body)?.id;
    return typeof eventId === 'string' && eventId ? `event:${eventId}` : super.notificationKey(ctx, notification);
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const event = parseEvent(notification.body);
    if (typeof event?.data?.id !== 'string') return undefined;
    switch (event.type) {
      case 'charge.paid':
      case 'charge.refunded':
      case 'charge.updated':
        return { type: 'TRANSACTION', transactionId: event.data.id, status: chargeStatus(event.data.status) };
      case 'withdrawal.paid':
      case 'withdrawal.failed':
        return { type: 'WITHDRAW', transactionId: event.data.id, status: withdrawalStatus(event.data.status) };
      default:
        return undefined;
    }
  }

  override async calculateInstallments(ctx: AdapterContext, amount: number): Promise<InstallmentOption[]> {
    try {
      const { data } = await this.http(ctx).get<{ options: InstallmentOption[] }>('/v1/installments', { params: { amount } });
      return data.options;
    } catch (error) {
      throw providerError('Erro ao calcular parcelas', error);
    }
  }

  /** Sandbox only: pay a pending PIX or boleto charge; the sandbox then notifies the sidecar. */
  async simulatePayment(ctx: AdapterContext, transactionId: string): Promise<{ transaction: TransactionResult; notification?: SandboxSentNotification }> {
    try {
      const { data } = await this.http(ctx).post<{ charge: SandboxCharge; notification?: SandboxSentNotification }>(
        `/v1/charges/${encodeURIComponent(transactionId)}/pay`,
        {},
      );
      return { transaction: fromSandboxCharge(data.charge), notification: data.notification };
    } catch (error) {
      throw providerError('Erro ao simular pagamento', error);
    }
  }
}
