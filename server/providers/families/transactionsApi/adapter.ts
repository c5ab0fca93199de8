import type {
  CardInput,
  Operation,
  RefundResult,
  TransactionInput,
  TransactionResult,
  WebhookResult,
  WithdrawInput,
  WithdrawResult,
} from '../../../domain/types.js';
import { GatewayError, invalidArgument } from '../../../lib/errors.js';
import { providerMessage } from '../../../lib/http/index.js';
import { isRecord } from '../../../lib/json.js';
import { withPixQrImage } from '../../../lib/pixQrCode.js';
import { lookupStatus, statusTable } from '../../../lib/statusTable.js';
import { catalogueError, providerFailure } from '../../../lib/providerMessages.js';
import type { AdapterContext, CardIdInput, IncomingNotification } from '../../adapter.js';
import type { AdapterRuntime } from '../../kit/declaration.js';
import { fillPath } from '../../kit/declaration.js';
import { DeclaredAdapter } from '../../kit/declaredAdapter.js';
import {
  fromApiCardToken,
  fromApiSavedCard,
  fromApiRefund,
  fromApiTransaction,
  fromApiWithdrawal,
  toApiCardSave,
  toApiCardToken,
  toApiRefund,
  toApiTransaction,
  toApiWithdrawal,
  toApiCashout,
  type ResponseTerms,
} from './mappers.js';
import { TRANSACTIONS_API_PATHS, type TransactionsApiMember, type TransactionsApiPaths } from './member.js';
import { parseNotification, type ParsedNotification } from './notifications.js';
import { TRANSACTIONS_API_STATUSES, TRANSACTIONS_API_WITHDRAWAL_STATUSES } from './statuses.js';

/**
 * The "transactions API" family (spec doc 2 §7: PAGUESAFE, PIXIUM, HORIZONBANK,
 * TRANSAC, UNICOPAY, FAIRPAY, GATYWAY, NEWLEVEL, ROYALTY, VENIT, VENITIP, and
 * the white-label gateways of doc 3 that speak the same dialect). One class
 * for every member; a member is `new TransactionsApiAdapter(ITS_DECLARATION, runtime)`.
 * Each operation is one HTTP exchange gluing the pure mappers.
 */
export class TransactionsApiAdapter extends DeclaredAdapter<TransactionsApiMember> {
  protected readonly paths: TransactionsApiPaths;

  constructor(member: TransactionsApiMember, runtime: AdapterRuntime = {}) {
    super(member, runtime, {
      family: 'transactions API',
      transactionStatuses: TRANSACTIONS_API_STATUSES,
      withdrawalStatuses: TRANSACTIONS_API_WITHDRAWAL_STATUSES,
    });
    this.paths = { ...TRANSACTIONS_API_PATHS, ...member.paths };
  }

  // ------------------------------------------------------------ hooks (a member that needs code overrides one of these)

  /** Hook: the POST body of a charge (ROYALTY formats the CPF). */
  protected transactionBody(input: TransactionInput, ctx: AdapterContext): object {
    return toApiTransaction(input, {
      amount: (cents) => this.toProviderAmount(cents),
      pixSeconds: this.pixExpirySeconds,
      boletoSeconds: this.boletoExpirySeconds,
      notificationUrl: ctx.notificationUrl,
    });
  }

  /** Hook: the POST body of a payout. */
  protected withdrawalBody(input: WithdrawInput, ctx: AdapterContext): object {
    if (this.declaration.payoutBody === 'cashout') return toApiCashout(input, ctx.notificationUrl);
    return toApiWithdrawal(input, { amount: (cents) => this.toProviderAmount(cents), notificationUrl: ctx.notificationUrl });
  }

  /** Hook: the refund body (BRPIX Digital adds a reason; LordsPay names the transaction and the postback URL). */
  protected refundBody(amount: number, _transactionId: string, _ctx: AdapterContext): object {
    return toApiRefund(amount, (cents) => this.toProviderAmount(cents));
  }

  /** Hook: headers a payout needs beyond auth (PodPay2's withdraw key); by default the idempotency key. */
  protected withdrawalHeaders(_ctx: AdapterContext, input: WithdrawInput): Record<string, string> {
    return input.idempotencyKey ? { 'idempotency-key': input.idempotencyKey } : {};
  }

  /** Hook: the POST body of a card token (LYNXPAY validates and encrypts the card). */
  protected cardTokenBody(card: CardInput): object {
    return toApiCardToken(card);
  }

  /** Hook: query parameters of the card-token call (LYNXPAY's publicKey). */
  protected cardTokenQuery(_ctx: AdapterContext): Record<string, string> {
    return {};
  }

  // ------------------------------------------------------------ glue

  private terms(now: Date, requested?: ResponseTerms['requested']): ResponseTerms {
    return {
      amount: (value) => this.fromProviderAmount(value),
      status: (value) => this.transactionStatus(value),
      pixSeconds: this.pixExpirySeconds,
      boletoSeconds: this.boletoExpirySeconds,
      now,
      requested,
    };
  }

  /**
   * A 2xx body without the resource: the message of a JSON answer where it gives one (it refused), else an unusable
   * answer (an outage): a bare text such as a proxy's HTML page is not the provider speaking.
   */
  protected unusable(operation: Operation, prefix: string, body: unknown, what: string): GatewayError {
    const message = isRecord(body) ? providerMessage(body) : undefined;
    const error = message ? providerFailure(prefix, message, 'INVALID_ARGUMENT') : providerFailure(prefix, `resposta do provedor sem ${what}`, 'UNAVAILABLE');
    return this.failure(operation, prefix, error);
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    if (input.paymentMethod === 'CREDIT_CARD' && !input.cardId)
      throw catalogueError(this.declaration.failures?.missingCard ?? 'CARD_ID_REQUIRED', { field: 'transaction.card_id' });
    const prefix = this.prefixFor('createTransaction');
    const now = this.now();
    const data = await this.exchange('createTransaction', prefix, () => this.http(ctx).post<unknown>(this.paths.create, this.transactionBody(input, ctx)));
    const startsPending = this.declaration.pendingAtCreation?.includes(input.paymentMethod);
    const terms = this.terms(now, { paymentMethod: input.paymentMethod, amount: input.amount });
    const result = fromApiTransaction(data, startsPending ? { ...terms, createdStatus: 'PENDING' } : terms);
    if (!result) throw this.unusable('createTransaction', prefix, data, 'id ou status da transação');
    return withPixQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const now = this.now();
    const data = await this.exchange('getTransaction', prefix, () => this.http(ctx).get<unknown>(fillPath(this.paths.get, { id: transactionId })));
    const result = fromApiTransaction(data, this.terms(now));
    if (!result) throw this.unusable('getTransaction', prefix, data, 'id ou status da transação');
    return withPixQrImage(result);
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const { method, path } = this.paths.refund;
    const url = fillPath(path, { id: transactionId });
    const body = this.refundBody(amount, transactionId, ctx);
    const data = await this.exchange('refoundTransaction', prefix, () =>
      method === 'DELETE' ? this.http(ctx).delete<unknown>(url, { body }) : this.http(ctx).post<unknown>(url, body),
    );
    const result = fromApiRefund(data, transactionId);
    if (!result) throw this.failure('refoundTransaction', prefix, providerFailure(prefix, 'resposta do provedor sem dados do estorno', 'UNAVAILABLE'));
    return result;
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    if (!this.capabilities.withdrawMethods.includes(input.paymentMethod))
      throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    if (input.paymentMethod === 'PIX' && !input.pixKey?.trim()) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals');
    if (input.paymentMethod === 'RECEIVER' && !input.receiverId?.trim())
      throw invalidArgument('withdraw.receiver_id', `withdraw.receiver_id is required: ${this.identity.id} pays out to a recipient`);
    const prefix = this.prefixFor('withdraw');
    const headers = this.withdrawalHeaders(ctx, input);
    const data = await this.exchange('withdraw', prefix, () => this.http(ctx).post<unknown>(this.paths.withdraw, this.withdrawalBody(input, ctx), { headers }));
    const result = fromApiWithdrawal(data, {
      amount: (value) => this.fromProviderAmount(value),
      status: (value) => this.withdrawalStatus(value),
      requestedAmount: input.amount,
    });
    if (!result) throw this.unusable('withdraw', prefix, data, 'id ou status do saque');
    if (result.status === 'REJECTED' && this.declaration.withdrawalRefusalIsError) {
      throw this.failure('withdraw', prefix, providerFailure(prefix, providerMessage(data) ?? 'saque recusado', 'FAILED_PRECONDITION'));
    }
    return result;
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const data = await this.exchange('getWithdraw', prefix, () => this.http(ctx).get<unknown>(fillPath(this.paths.getWithdraw, { id: withdrawId })));
    const result = fromApiWithdrawal(data, { amount: (value) => this.fromProviderAmount(value), status: (value) => this.withdrawalStatus(value) });
    if (!result) throw this.unusable('getWithdraw', prefix, data, 'id ou status do saque');
    return { ...result, withdrawId };
  }

  override async createCardToken(ctx: AdapterContext, card: CardInput): Promise<string> {
    const prefix = this.prefixFor('createCardToken');
    const data = await this.exchange('createCardToken', prefix, () =>
      this.http(ctx).post<unknown>(this.paths.cardToken, this.cardTokenBody(card), { params: this.cardTokenQuery(ctx) }),
    );
    const token = fromApiCardToken(data);
    if (!token) throw this.unusable('createCardToken', prefix, data, 'token do cartão');
    return token;
  }

  /** Doc 3 §7's two calls: the card tokenised (unless the caller brings the token), then saved from its token; the saved card's id is the card id. */
  override async createCardId(ctx: AdapterContext, input: CardIdInput): Promise<string> {
    const token = input.cardToken || (input.card ? await this.createCardToken(ctx, input.card) : undefined);
    if (!token) throw invalidArgument('card_token', 'card_token or card is required');
    const prefix = this.prefixFor('createCardId');
    const data = await this.exchange('createCardId', prefix, () => this.http(ctx).post<unknown>(this.paths.cardSave, toApiCardSave(token)));
    const cardId = fromApiSavedCard(data);
    if (!cardId) throw this.unusable('createCardId', prefix, data, 'id do cartão');
    return cardId;
  }

  /** The postback read as the provider's object (the family's shapes, notifications.ts); a member with its own postback (SaqPay's IPN) overrides this one hook. */
  protected parsedNotification(body: Buffer): ParsedNotification | undefined {
    return parseNotification(body, { statusFromEvent: Boolean(this.declaration.eventStatuses) });
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const events = this.declaration.eventStatuses;
    const parsed = this.parsedNotification(notification.body);
    if (!parsed || !events || parsed.kind !== 'transaction' || !parsed.event) return this.objectNotification(parsed);
    // The event names the status: its own table, unknown events logged with the provider's id.
    const status = lookupStatus(statusTable(events.table, events.unknown), parsed.event, (event, mappedTo) =>
      this.log.warn({ provider: this.identity.id, providerEvent: event, mappedTo }, 'unknown provider event'),
    );
    return { type: 'TRANSACTION', transactionId: parsed.id, status };
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(this.parsedNotification(notification.body), ctx, notification);
  }
}
