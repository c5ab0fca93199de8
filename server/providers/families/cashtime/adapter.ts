import type { Operation, TransactionInput, TransactionResult, WebhookResult, WithdrawInput, WithdrawResult } from '../../../domain/types.js';
import { ProviderCallError } from '../../../lib/http/index.js';
import { pixCodeOnly } from '../../../lib/pixQrCode.js';
import { providerFailure } from '../../../lib/providerMessages.js';
import type { AdapterContext, IncomingNotification } from '../../adapter.js';
import { fillPath, type AdapterRuntime } from '../../kit/declaration.js';
import { DeclaredAdapter } from '../../kit/declaredAdapter.js';
import { fromCashtimeOrder, fromCashtimeWithdrawal, toCashtimeTransaction, toCashtimeWithdrawal, type CashtimeRequestTerms } from './mappers.js';
import { CASHTIME_PATHS, type CashtimeMember, type CashtimePaths } from './member.js';
import { parseCashtimeNotification } from './notifications.js';
import { CASHTIME_STATUSES, CASHTIME_WITHDRAWAL_STATUSES } from './statuses.js';
import { cashtimeCreatedOrder, cashtimeCreatedWithdrawal, cashtimeOrder, cashtimeWithdrawal, orRefusal } from './wire.js';

/**
 * The Cashtime platform family (spec doc 2 §7: "CASHTIME and REFLOWPAY: POST
 * /request/withdraw; GET /request/withdraw/{id} (REFLOWPAY); POST
 * /transactions; GET /details/orders/{id}"). One class for both members; a
 * member is `new CashtimeAdapter(ITS_DECLARATION, runtime)`. Each operation is
 * one HTTP exchange gluing the pure mappers.
 */
export class CashtimeAdapter extends DeclaredAdapter<CashtimeMember> {
  protected readonly paths: CashtimePaths;

  constructor(member: CashtimeMember, runtime: AdapterRuntime = {}) {
    super(member, runtime, { family: 'Cashtime (G-A)', transactionStatuses: CASHTIME_STATUSES, withdrawalStatuses: CASHTIME_WITHDRAWAL_STATUSES });
    if (member.money !== 'cents') throw new Error(`${member.identity.id}: the Cashtime platform carries amounts in cents, not ${member.money}`);
    this.paths = { ...CASHTIME_PATHS, ...member.paths };
  }

  // ------------------------------------------------------------ glue

  private requestTerms(ctx: AdapterContext): CashtimeRequestTerms {
    return { amount: (cents) => this.toProviderAmount(cents), notificationUrl: ctx.notificationUrl };
  }

  /** An amount that is not one makes the whole answer unusable (an error under the operation's prefix), never a guess. */
  private amountOf = (value: number | string): number => {
    try {
      return this.fromProviderAmount(value);
    } catch {
      throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `valor ilegível na resposta do provedor: ${JSON.stringify(value)}`);
    }
  };

  /** A 2xx answer that is the platform's refusal fails the operation with its message (it refused: nothing was created); else the resource. */
  private accepted<T>(operation: Operation, prefix: string, answer: { refused: string } | { resource: T }): T {
    if ('resource' in answer) return answer.resource;
    throw this.failure(operation, prefix, providerFailure(prefix, answer.refused, 'INVALID_ARGUMENT'));
  }

  // ------------------------------------------------------------ operations

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const at = this.now();
    const body = toCashtimeTransaction(input, this.requestTerms(ctx));
    // An order without its copy-and-paste code could never be paid: the schema refuses it (not a charge to record).
    const answer = await this.exchange('createTransaction', prefix, () => this.http(ctx).post(this.paths.create, body), orRefusal(cashtimeCreatedOrder));
    const order = this.accepted('createTransaction', prefix, answer);
    const created = { amount: input.amount, at, pixSeconds: this.pixExpirySeconds };
    return pixCodeOnly(
      this.mapped('createTransaction', prefix, () =>
        fromCashtimeOrder(order, { amount: this.amountOf, status: (value) => this.transactionStatus(value), created }),
      ),
    );
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const answer = await this.exchange(
      'getTransaction',
      prefix,
      () => this.http(ctx).get(fillPath(this.paths.get, { id: transactionId })),
      orRefusal(cashtimeOrder),
    );
    const order = this.accepted('getTransaction', prefix, answer);
    const result = this.mapped('getTransaction', prefix, () =>
      fromCashtimeOrder(order, { amount: this.amountOf, status: (value) => this.transactionStatus(value) }),
    );
    // The id asked for stays the id, whatever the answer echoes.
    return pixCodeOnly({ ...result, transactionId });
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    const payout = this.pixPayout(input);
    const prefix = this.prefixFor('withdraw');
    const body = toCashtimeWithdrawal(payout, this.requestTerms(ctx));
    const answer = await this.exchange('withdraw', prefix, () => this.http(ctx).post(this.paths.withdraw, body), orRefusal(cashtimeCreatedWithdrawal));
    const withdrawal = this.accepted('withdraw', prefix, answer);
    return this.mapped('withdraw', prefix, () =>
      fromCashtimeWithdrawal(withdrawal, { amount: this.amountOf, status: (value) => this.withdrawalStatus(value), requestedAmount: input.amount }),
    );
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const answer = await this.exchange(
      'getWithdraw',
      prefix,
      () => this.http(ctx).get(fillPath(this.paths.getWithdraw, { id: withdrawId })),
      orRefusal(cashtimeWithdrawal),
    );
    const withdrawal = this.accepted('getWithdraw', prefix, answer);
    const result = this.mapped('getWithdraw', prefix, () =>
      fromCashtimeWithdrawal(withdrawal, { amount: this.amountOf, status: (value) => this.withdrawalStatus(value) }),
    );
    return { ...result, withdrawId };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    return this.objectNotification(parseCashtimeNotification(notification.body));
  }

  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    return this.objectNotificationKey(parseCashtimeNotification(notification.body), ctx, notification);
  }
}
