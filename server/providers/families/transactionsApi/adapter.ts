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
import type { ProviderResponse } from '../../../lib/http/index.js';
import { pixCodeOnly } from '../../../lib/pixQrCode.js';
import { lookupStatus, statusTable } from '../../../lib/statusTable.js';
import { catalogueError, providerFailure } from '../../../lib/providerMessages.js';
import type { AdapterContext, CardIdInput, IncomingNotification } from '../../adapter.js';
import type { AdapterRuntime } from '../../kit/declaration.js';
import { fillPath } from '../../kit/declaration.js';
import type { AnswerSchema } from '../../kit/answers.js';
import { parseCredentials, type CredentialLayout } from '../../kit/credentials.js';
import { DeclaredAdapter, type ExtraOperation } from '../../kit/declaredAdapter.js';
import {
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
import { transactionsApiAnswers, type Answered, type TransactionsApiAnswers } from './wire.js';

/** Where a member that declares `withdrawKeyHeader` keeps the withdraw key: after the secret, in the secret key. */
const WITHDRAW_KEY_LAYOUT = { secretKey: ['secret', 'withdrawKey?'] } as const satisfies CredentialLayout;

/**
 * The "transactions API" family (spec doc 2 §7: PAGUESAFE, PIXIUM, HORIZONBANK,
 * TRANSAC, UNICOPAY, FAIRPAY, GATYWAY, NEWLEVEL, ROYALTY, VENIT, VENITIP, and
 * the white-label gateways of doc 3 that speak the same dialect). One class
 * for every member; a member is `new TransactionsApiAdapter(ITS_DECLARATION, runtime)`.
 * Each operation is one HTTP exchange gluing the pure mappers.
 */
export class TransactionsApiAdapter extends DeclaredAdapter<TransactionsApiMember> {
  protected readonly paths: TransactionsApiPaths;
  /** The family's answers with this member's money unit (wire.ts). */
  protected readonly answers: TransactionsApiAnswers;

  constructor(member: TransactionsApiMember, runtime: AdapterRuntime = {}) {
    super(member, runtime, {
      family: 'transactions API',
      transactionStatuses: TRANSACTIONS_API_STATUSES,
      withdrawalStatuses: TRANSACTIONS_API_WITHDRAWAL_STATUSES,
    });
    this.paths = { ...TRANSACTIONS_API_PATHS, ...member.paths };
    this.answers = transactionsApiAnswers((value) => this.fromProviderAmount(value));
    if (member.withdrawKeyHeader && member.credentials?.secretKey?.join('|') !== WITHDRAW_KEY_LAYOUT.secretKey.join('|'))
      throw new Error(`${member.identity.id}: withdrawKeyHeader needs credentials.secretKey ['secret', 'withdrawKey?']`);
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

  /** Hook: headers a payout needs beyond auth: the idempotency key, and the withdraw key where the member declares its header. */
  protected withdrawalHeaders(ctx: AdapterContext, input: WithdrawInput): Record<string, string> {
    const header = this.declaration.withdrawKeyHeader;
    return {
      ...(input.idempotencyKey ? { 'idempotency-key': input.idempotencyKey } : {}),
      ...(header ? { [header]: this.withdrawKey(ctx, header) } : {}),
    };
  }

  /** A payout read carries the withdraw key too where the account has one (a public client of the F1 platform sends it there). */
  private withdrawalReadHeaders(ctx: AdapterContext): Record<string, string> {
    const header = this.declaration.withdrawKeyHeader;
    const { withdrawKey } = parseCredentials(WITHDRAW_KEY_LAYOUT, ctx);
    return header && withdrawKey ? { [header]: withdrawKey } : {};
  }

  /** The account's withdraw key (the secret key's `withdrawKey` part), or a clear refusal: the account cannot pay out without it. */
  private withdrawKey(ctx: AdapterContext, header: string): string {
    const { withdrawKey } = parseCredentials(WITHDRAW_KEY_LAYOUT, ctx);
    if (withdrawKey) return withdrawKey;
    throw new GatewayError(
      'FAILED_PRECONDITION',
      `${this.identity.id} payouts need the account's withdraw key (sent as ${header}): set the secret key as '<secret key>|<withdraw key>'`,
      { reason: 'CREDENTIALS_MISSING', field: 'secret_key' },
    );
  }

  /** Hook: the POST body of a card token (LYNXPAY validates and encrypts the card). */
  protected cardTokenBody(card: CardInput): object {
    return toApiCardToken(card);
  }

  /** Hook: query parameters of the card-token call (LYNXPAY's publicKey). */
  protected cardTokenQuery(_ctx: AdapterContext): Record<string, string> {
    return {};
  }

  /**
   * Hook: whether the member's read says how much of a charge was refunded (`refundedAmount` in the transaction
   * object: the F1 and F2 platforms document it). Off for the rest: a field nobody documented for them is not read.
   */
  protected readsRefundedAmount(): boolean {
    return false;
  }

  /** The family's charge carries the card's own fields (`card: {number, holderName, …}`) where the input has them. */
  override takesCardData(_ctx: AdapterContext): boolean {
    return true;
  }

  /** The family's card body leaves an empty CVV out (mappers.ts, toApiCardToken). */
  override takesSavedCards(ctx: AdapterContext): boolean {
    return this.takesCardData(ctx);
  }

  // ------------------------------------------------------------ glue

  private terms(now: Date, requested?: ResponseTerms['requested']): ResponseTerms {
    return {
      status: (value) => this.transactionStatus(value),
      pixSeconds: this.pixExpirySeconds,
      boletoSeconds: this.boletoExpirySeconds,
      now,
      requested,
    };
  }

  /**
   * One exchange whose answer is the resource or the dialect's refusal
   * (wire.ts `orRefusal`): the resource, or the operation's failure with the
   * provider's message (a refusal: INVALID_ARGUMENT, its outcome known). Anything
   * else is the kit's bad answer, its outcome unknown.
   */
  protected async answered<T>(
    operation: Operation | ExtraOperation,
    prefix: string,
    send: () => Promise<ProviderResponse<unknown>>,
    schema: AnswerSchema<Answered<T>>,
  ): Promise<T> {
    const answer = await this.exchange(operation, prefix, send, schema);
    if (answer.refused) throw this.failure(operation, prefix, providerFailure(prefix, answer.message, 'INVALID_ARGUMENT'));
    return answer.value;
  }

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    this.assertCardReference(input, ctx);
    const prefix = this.prefixFor('createTransaction');
    const now = this.now();
    const startsPending = this.declaration.pendingAtCreation?.includes(input.paymentMethod);
    const transaction = await this.answered(
      'createTransaction',
      prefix,
      () => this.http(ctx).post<unknown>(this.paths.create, this.transactionBody(input, ctx)),
      startsPending ? this.answers.createdTransaction : this.answers.transaction,
    );
    const terms = this.terms(now, { paymentMethod: input.paymentMethod, amount: input.amount });
    return pixCodeOnly(fromApiTransaction(transaction, startsPending ? { ...terms, createdStatus: 'PENDING' } : terms));
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const now = this.now();
    const transaction = await this.answered(
      'getTransaction',
      prefix,
      () => this.http(ctx).get<unknown>(fillPath(this.paths.get, { id: transactionId })),
      this.answers.transaction,
    );
    return pixCodeOnly(fromApiTransaction(transaction, { ...this.terms(now), refundedAmount: this.readsRefundedAmount() }));
  }

  override async refoundTransaction(ctx: AdapterContext, transactionId: string, amount: number): Promise<RefundResult> {
    const prefix = this.prefixFor('refoundTransaction');
    const { method, path } = this.paths.refund;
    const url = fillPath(path, { id: transactionId });
    const body = this.refundBody(amount, transactionId, ctx);
    const answer = await this.exchange(
      'refoundTransaction',
      prefix,
      () => (method === 'DELETE' ? this.http(ctx).delete<unknown>(url, { body }) : this.http(ctx).post<unknown>(url, body)),
      this.answers.refund,
    );
    return fromApiRefund(answer, transactionId);
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    if (!this.capabilities.withdrawMethods.includes(input.paymentMethod))
      throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    if (input.paymentMethod === 'PIX' && !input.pixKey?.trim())
      throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals', 'REQUIRED');
    if (input.paymentMethod === 'RECEIVER' && !input.receiverId?.trim())
      throw invalidArgument('withdraw.receiver_id', `withdraw.receiver_id is required: ${this.identity.id} pays out to a recipient`, 'REQUIRED');
    const prefix = this.prefixFor('withdraw');
    const body = this.withdrawalBody(input, ctx);
    const headers = this.withdrawalHeaders(ctx, input);
    const withdrawal = await this.answered(
      'withdraw',
      prefix,
      () => this.http(ctx).post<unknown>(this.paths.withdraw, body, { headers }),
      this.answers.withdrawal,
    );
    const result = fromApiWithdrawal(withdrawal, { status: (value) => this.withdrawalStatus(value), requestedAmount: input.amount });
    if (result.status === 'REJECTED' && this.declaration.withdrawalRefusalIsError) {
      throw this.failure('withdraw', prefix, providerFailure(prefix, `saque recusado (${withdrawal.status})`, 'FAILED_PRECONDITION'));
    }
    return result;
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const withdrawal = await this.answered(
      'getWithdraw',
      prefix,
      () => this.http(ctx).get<unknown>(fillPath(this.paths.getWithdraw, { id: withdrawId }), { headers: this.withdrawalReadHeaders(ctx) }),
      this.answers.withdrawal,
    );
    return { ...fromApiWithdrawal(withdrawal, { status: (value) => this.withdrawalStatus(value) }), withdrawId };
  }

  override async createCardToken(ctx: AdapterContext, card: CardInput): Promise<string> {
    const prefix = this.prefixFor('createCardToken');
    const body = this.cardTokenBody(card);
    return this.answered(
      'createCardToken',
      prefix,
      () => this.http(ctx).post<unknown>(this.paths.cardToken, body, { params: this.cardTokenQuery(ctx) }),
      this.answers.cardToken,
    );
  }

  /** Doc 3 §7's two calls: the card tokenised (unless the caller brings the token), then saved from its token; the saved card's id is the card id. */
  override async createCardId(ctx: AdapterContext, input: CardIdInput): Promise<string> {
    const token = input.cardToken || (input.card ? await this.createCardToken(ctx, input.card) : undefined);
    if (!token) throw invalidArgument('card_token', 'card_token or card is required', 'REQUIRED');
    const prefix = this.prefixFor('createCardId');
    return this.answered('createCardId', prefix, () => this.http(ctx).post<unknown>(this.paths.cardSave, toApiCardSave(token)), this.answers.savedCard);
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
