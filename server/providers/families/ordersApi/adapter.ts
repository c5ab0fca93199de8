import type {
  AccountBalance,
  CardInput,
  Operation,
  ReadCharge,
  ReceiverInput,
  ReceiverResult,
  RefundResult,
  TransactionInput,
  TransactionResult,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
} from '../../../domain/types.js';
import { GatewayError, invalidArgument } from '../../../lib/errors.js';
import { ProviderCallError, type ProviderHttp } from '../../../lib/http/index.js';
import { pixCodeOnly } from '../../../lib/pixQrCode.js';
import { providerFailure } from '../../../lib/providerMessages.js';
import type { AdapterContext, CardIdInput, IncomingNotification } from '../../adapter.js';
import { fillPath, type AdapterRuntime } from '../../kit/declaration.js';
import { DeclaredAdapter, type ExtraOperation } from '../../kit/declaredAdapter.js';
import {
  fromOrdersApiOrder,
  fromOrdersApiRecipient,
  fromOrdersApiRefund,
  fromOrdersApiWithdrawal,
  withFieldErrors,
  ordersApiChargeFee,
  ordersApiFailureReason,
  ordersApiRecipientAccount,
  ordersApiRefundKey,
  primaryCharge,
  toOrdersApiCancel,
  toOrdersApiCardToken,
  toOrdersApiCustomer,
  toOrdersApiOrder,
  toOrdersApiRecipient,
  type OrdersApiStatusReader,
} from './mappers.js';
import type { OrdersApiMember } from './member.js';
import { ordersApiEventId, readOrdersApiEvent } from './notifications.js';
import { ORDERS_API_NEVER_PAID, ORDERS_API_RECEIVER_STATUSES, ORDERS_API_STATUSES, ORDERS_API_WITHDRAWAL_STATUSES } from './statuses.js';
import {
  ORDERS_API_BALANCE,
  ORDERS_API_CHARGE,
  ORDERS_API_IDENTIFIED,
  ORDERS_API_ORDER,
  ORDERS_API_PAYABLES,
  ORDERS_API_RECIPIENT,
  ORDERS_API_WITHDRAWAL,
  type OrdersApiOrder,
} from './wire.js';
import { notificationKeyOf } from '../../notificationKeys.js';

/**
 * The "orders API" family (Pagar.me API v5 dialect; spec doc 1 §7 "Orders",
 * doc 2 §7 PAGARMEBAAS): an order with one payment, whose charge carries the
 * status and the PIX/boleto data; refunds cancel the charge; payouts are
 * withdrawals from a recipient; recipients are created and read with their
 * balance where the member offers receivers. Amounts are integer cents on both
 * sides. Each operation is one HTTP exchange, except where the dialect needs
 * two: saving a card (customer, then card; a token first when given raw card
 * data), refunding (the order is read for its charge, then cancelled) and
 * reading a recipient (the recipient, then its balance).
 */
export class OrdersApiAdapter extends DeclaredAdapter<OrdersApiMember> {
  private readonly reader: OrdersApiStatusReader;

  constructor(member: OrdersApiMember, runtime: AdapterRuntime = {}) {
    super(member, runtime, {
      family: 'orders API',
      transactionStatuses: ORDERS_API_STATUSES,
      withdrawalStatuses: ORDERS_API_WITHDRAWAL_STATUSES,
      receiverStatuses: ORDERS_API_RECEIVER_STATUSES,
    });
    this.reader = { status: (value) => this.transactionStatus(value), neverPaid: member.neverPaid ?? ORDERS_API_NEVER_PAID };
    // The dialect carries integer cents everywhere (Pagar.me v5): a member cannot declare otherwise.
    if (member.money !== 'cents') throw new Error(`${member.identity.id}: the orders API carries amounts in cents, not ${member.money}`);
  }

  /** Card tokenisation takes the public key as appId and must carry no Authorization header. */
  private publicHttp(ctx: AdapterContext): ProviderHttp {
    return this.http(ctx, { auth: { type: 'none' } });
  }

  /** The family's failures also carry the provider's field errors: 'prefix: message (field: error)'; a fixed text of the spec ('Receiver not found.') stays as it is. */
  protected override failure(operation: Operation | ExtraOperation, prefix: string, error: unknown): GatewayError {
    const failure = super.failure(operation, prefix, error);
    return failure.message.startsWith(`${prefix}: `) ? withFieldErrors(failure, error) : failure;
  }

  /** An answer without a usable charge is the provider's failure, under the operation's prefix. */
  private fromOrder(operation: Operation, prefix: string, order: OrdersApiOrder): TransactionResult {
    return this.mapped(operation, prefix, () => fromOrdersApiOrder(order, this.reader));
  }

  override async createCardToken(ctx: AdapterContext, card: CardInput): Promise<string> {
    const token = await this.exchange(
      'createCardToken',
      this.prefixFor('createCardToken'),
      () => this.publicHttp(ctx).post('/tokens', toOrdersApiCardToken(card), { params: { appId: ctx.publicKey } }),
      ORDERS_API_IDENTIFIED,
    );
    return token.id;
  }

  /** A saved card belongs to a customer: the customer is created (or matched by the provider), then the card from a token. */
  override async createCardId(ctx: AdapterContext, input: CardIdInput): Promise<string> {
    const customer = input.customer ?? (input.card ? { name: input.card.holderName, document: input.card.holderDocument, email: '', phone: '' } : undefined);
    if (!customer) throw invalidArgument('customer', 'customer is required to save a card with a card token', 'REQUIRED');
    const token = input.cardToken || (input.card ? await this.createCardToken(ctx, input.card) : undefined);
    if (!token) throw invalidArgument('card_token', 'card_token or card is required', 'REQUIRED');
    // 'Erro salvando cartão' (spec doc 1 §8) is the prefix of a failure to save a card.
    const saving = this.prefixFor('createCardId');
    const created = await this.exchange('createCardId', saving, () => this.http(ctx).post('/customers', toOrdersApiCustomer(customer)), ORDERS_API_IDENTIFIED);
    const card = await this.exchange(
      'createCardId',
      saving,
      () => this.http(ctx).post(fillPath('/customers/{id}/cards', { id: created.id }), { token }),
      ORDERS_API_IDENTIFIED,
    );
    return card.id;
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const now = this.now();
    const body = toOrdersApiOrder(input, { pixExpiresInSeconds: this.pixExpirySeconds, boletoSeconds: this.boletoExpirySeconds, now });
    const prefix = this.prefixFor('createTransaction');
    // Pagar.me keeps an Idempotency-Key for 24 h (docs.pagar.me, "Idempotência"): a retried order is not created twice there.
    const order = await this.exchange(
      'createTransaction',
      prefix,
      () => this.http(ctx).post('/orders', body, { headers: input.idempotencyKey ? { 'idempotency-key': input.idempotencyKey } : {} }),
      ORDERS_API_ORDER,
    );
    const result = this.fromOrder('createTransaction', prefix, order);
    // A declined card is an outcome (REJECTED); a PIX or boleto that failed to be issued has nothing to pay, so its reason is the error.
    if (result.status === 'REJECTED' && input.paymentMethod !== 'CREDIT_CARD')
      throw providerFailure(prefix, ordersApiFailureReason(order), 'FAILED_PRECONDITION');
    return pixCodeOnly(this.withCardReceivable(result, now));
  }

  /**
   * A card charge's receivable term, where the member declares one (PAGARME:
   * doc 1 §9's one year), as the transaction's expiresAt from its creation.
   * Nothing is sent (Pagar.me v5 has no such field); a declined card has no receivable.
   */
  private withCardReceivable(result: TransactionResult, createdAt: Date): TransactionResult {
    const seconds = this.cardReceivableSeconds;
    if (result.paymentMethod !== 'CREDIT_CARD' || seconds === undefined || result.status === 'REJECTED') return result;
    return { ...result, expiresAt: this.expiresAt(seconds, createdAt) };
  }

  /**
   * GET /orders/{id}; for a paid charge whose fee the gateway does not know yet (`charge`: its record), also its
   * payables for the fee. Once the fee is stored, reads (reconciliation, a notification's confirmation) ask no more.
   */
  override async getTransaction(ctx: AdapterContext, transactionId: string, charge?: ReadCharge): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const order = await this.exchange('getTransaction', prefix, () => this.http(ctx).get(fillPath('/orders/{id}', { id: transactionId })), ORDERS_API_ORDER);
    const result = await pixCodeOnly(this.fromOrder('getTransaction', prefix, order));
    const chargeId = primaryCharge(order)?.id;
    if (!this.declaration.payableFees || result.status !== 'APPROVED' || !chargeId || charge?.providerFee !== undefined) return result;
    const fee = await this.chargeFee(ctx, prefix, chargeId);
    return fee === undefined ? result : { ...result, providerFee: fee };
  }

  /**
   * The fee of a paid charge, from its payables (the order and charge answers state none). A fact for the statement
   * only: when the payables cannot be read, the read still answers its status, without a fee (logged).
   */
  private async chargeFee(ctx: AdapterContext, prefix: string, chargeId: string): Promise<number | undefined> {
    try {
      const payables = await this.exchange(
        'getTransaction',
        prefix,
        () => this.http(ctx).get('/payables', { params: { charge_id: chargeId, size: 100 } }),
        ORDERS_API_PAYABLES,
      );
      return ordersApiChargeFee(payables, ctx.platformId?.trim() || undefined);
    } catch (error) {
      this.log.warn({ provider: this.identity.id, chargeId, err: error instanceof Error ? error.message : String(error) }, 'payables unreadable: no fee');
      return undefined;
    }
  }

  /**
   * The gateway knows the order; the provider refunds a charge: the order is
   * read for its charge id, then the charge is cancelled for `amount`. With
   * the caller's idempotency key, the cancellation carries an Idempotency-Key
   * derived from it (and the charge), so that a retried refund is answered
   * by Pagar.me with the first refund instead of being made again.
   */
  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number, idempotencyKey?: string): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const order = await this.exchange(
      'refoundTransaction',
      prefix,
      () => this.http(ctx).get(fillPath('/orders/{id}', { id: transactionId })),
      ORDERS_API_ORDER,
    );
    const charge = primaryCharge(order);
    if (!charge)
      throw this.failure(
        'refoundTransaction',
        prefix,
        new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `order ${transactionId} came back without a charge`),
      );
    const key = idempotencyKey ? ordersApiRefundKey(idempotencyKey, charge.id) : undefined;
    const canceled = await this.exchange(
      'refoundTransaction',
      prefix,
      () =>
        this.http(ctx).delete(fillPath('/charges/{id}', { id: charge.id }), {
          body: toOrdersApiCancel(amount, key),
          headers: key ? { 'idempotency-key': key } : {},
        }),
      ORDERS_API_CHARGE,
    );
    return fromOrdersApiRefund(canceled);
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const recipient = this.declaration.withdrawalRecipient?.(ctx, input);
    if (!recipient) {
      throw invalidArgument(
        'withdraw.receiver_id',
        `withdraw.receiver_id is required: ${this.identity.id} withdraws from a recipient (or set the account's platform_id to the platform's default recipient)`,
        'REQUIRED',
      );
    }
    const withdrawal = await this.exchange(
      'withdraw',
      this.prefixFor('withdraw'),
      () =>
        this.http(ctx).post(
          fillPath('/recipients/{id}/withdrawals', { id: recipient }),
          { amount: input.amount },
          // Pagar.me v5 takes an Idempotency-Key header: a payout retried by the gateway is recognised there too.
          { headers: input.idempotencyKey ? { 'idempotency-key': input.idempotencyKey } : {} },
        ),
      ORDERS_API_WITHDRAWAL,
    );
    return fromOrdersApiWithdrawal(withdrawal, (value) => this.withdrawalStatus(value));
  }

  /**
   * POST /recipients with the receiver's bank account, checked first (the
   * member's bank list, checking or savings) and doc 1 §9's transfer settings.
   * A recipient just created has received nothing: its balance is 0.
   */
  override async createReceiver(ctx: AdapterContext, input: ReceiverInput): Promise<ReceiverResult> {
    const account = ordersApiRecipientAccount(input, this.identity.id, this.declaration.receiverBanks);
    const recipient = await this.exchange(
      'createReceiver',
      this.prefixFor('createReceiver'),
      () => this.http(ctx).post('/recipients', toOrdersApiRecipient(input, account)),
      ORDERS_API_RECIPIENT,
    );
    return fromOrdersApiRecipient(recipient, { provider: this.identity.id, status: (value) => this.receiverStatus(value), balance: 0 }, input);
  }

  /**
   * GET /recipients/{id}, then its balance (GET /recipients/{id}/balance):
   * the receiver's balance is what is available to withdraw. A balance answer
   * without `available_amount` is the provider failing (UNAVAILABLE), never 0.
   */
  override async getReceiver(ctx: AdapterContext, receiverId: string): Promise<ReceiverResult> {
    const prefix = this.prefixFor('getReceiver');
    const recipient = await this.exchange(
      'getReceiver',
      prefix,
      () => this.http(ctx).get(fillPath('/recipients/{id}', { id: receiverId })),
      ORDERS_API_RECIPIENT,
    );
    const balance = await this.exchange(
      'getReceiver',
      prefix,
      () => this.http(ctx).get(fillPath('/recipients/{id}/balance', { id: receiverId })),
      ORDERS_API_BALANCE,
    );
    return fromOrdersApiRecipient(recipient, {
      provider: this.identity.id,
      status: (value) => this.receiverStatus(value),
      balance: balance.available_amount,
    });
  }

  /**
   * The account's own balance is its default recipient's (GET /recipients/{id}/balance), the recipient named by the
   * account's platform_id as for payouts: `available_amount` available, `waiting_funds_amount` pending where stated.
   * Without a platform_id the account names no recipient: nothing is sent.
   */
  override async getAccountBalance(ctx: AdapterContext): Promise<AccountBalance> {
    const recipient = ctx.platformId?.trim();
    if (!recipient)
      throw new GatewayError(
        'FAILED_PRECONDITION',
        `platform_id is required: ${this.identity.id} reads the balance of the account's default recipient, which the platform_id names`,
        { reason: 'CREDENTIALS_MISSING', field: 'platform_id' },
      );
    const balance = await this.exchange(
      'getAccountBalance',
      this.prefixFor('getAccountBalance'),
      () => this.http(ctx).get(fillPath('/recipients/{id}/balance', { id: recipient })),
      ORDERS_API_BALANCE,
    );
    const pending = balance.waiting_funds_amount;
    return { available: balance.available_amount, ...(pending === undefined ? {} : { pending }), currency: 'BRL' };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return readOrdersApiEvent(notification.body, this.reader);
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const eventId = ordersApiEventId(notification.body);
    return eventId ? notificationKeyOf({ eventId }, notification.body) : super.notificationKey(ctx, notification);
  }
}
