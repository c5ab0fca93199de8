import type { Operation, TransactionInput, TransactionResult, WebhookResult, WithdrawInput, WithdrawResult } from '../../../domain/types.js';
import { invalidArgument, type GatewayError } from '../../../lib/errors.js';
import { ProviderCallError, providerMessage } from '../../../lib/http/index.js';
import { isRecord } from '../../../lib/json.js';
import { withPixQrImage } from '../../../lib/pixQrCode.js';
import { catalogueError, providerFailure } from '../../../lib/providerMessages.js';
import type { AdapterContext, IncomingNotification } from '../../adapter.js';
import { fillPath, type AdapterRuntime } from '../../kit/declaration.js';
import { DeclaredAdapter } from '../../kit/declaredAdapter.js';
import { fromCashtimeOrder, fromCashtimeWithdrawal, toCashtimeTransaction, toCashtimeWithdrawal, type CashtimeRequestTerms } from './mappers.js';
import { CASHTIME_PATHS, type CashtimeMember, type CashtimePaths } from './member.js';
import { parseCashtimeNotification } from './notifications.js';
import { CASHTIME_STATUSES, CASHTIME_WITHDRAWAL_STATUSES } from './statuses.js';

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
    super(member, runtime, { transactionStatuses: CASHTIME_STATUSES, withdrawalStatuses: CASHTIME_WITHDRAWAL_STATUSES });
    if (member.money !== 'cents') throw new Error(`${member.identity.id}: the Cashtime platform carries amounts in cents, not ${member.money}`);
    this.paths = { ...CASHTIME_PATHS, ...member.paths };
  }

  // ------------------------------------------------------------ glue

  private requestTerms(ctx: AdapterContext): CashtimeRequestTerms {
    return { amount: (cents) => this.toProviderAmount(cents), notificationUrl: ctx.notificationUrl };
  }

  /** An amount that is not one makes the whole answer unusable (an error under the operation's prefix), never a guess. */
  private amountOf = (value: unknown): number => {
    try {
      return this.fromProviderAmount(value);
    } catch {
      throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `valor ilegível na resposta do provedor: ${JSON.stringify(value)}`);
    }
  };

  /**
   * A 2xx body without the resource: the provider's message where its JSON gives
   * one (it refused), else an unusable answer (an outage; an HTML page is one).
   */
  private unusable(operation: Operation, prefix: string, body: unknown, what: string): GatewayError {
    const message = isRecord(body) ? providerMessage(body) : undefined;
    const error = message ? providerFailure(prefix, message, 'INVALID_ARGUMENT') : providerFailure(prefix, `resposta do provedor sem ${what}`, 'UNAVAILABLE');
    return this.failure(operation, prefix, error);
  }

  // ------------------------------------------------------------ operations

  override async createTransaction(ctx: AdapterContext, input: TransactionInput): Promise<TransactionResult> {
    this.assertPaymentMethod(input.paymentMethod);
    const prefix = this.prefixFor('createTransaction');
    const at = this.now();
    const body = toCashtimeTransaction(input, this.requestTerms(ctx));
    const data = await this.exchange('createTransaction', prefix, () => this.http(ctx).post<unknown>(this.paths.create, body));
    const created = { amount: input.amount, at, pixSeconds: this.pixExpirySeconds };
    const result = this.mapped('createTransaction', prefix, () =>
      fromCashtimeOrder(data, { amount: this.amountOf, status: (value) => this.transactionStatus(value), created }),
    );
    // An order without its copy-and-paste code could never be paid: not a charge to record.
    if (!result?.pixCode) throw this.unusable('createTransaction', prefix, data, 'id ou código PIX do pedido');
    return withPixQrImage(result);
  }

  override async getTransaction(ctx: AdapterContext, transactionId: string): Promise<TransactionResult> {
    const prefix = this.prefixFor('getTransaction');
    const data = await this.exchange('getTransaction', prefix, () => this.http(ctx).get<unknown>(fillPath(this.paths.get, { id: transactionId })));
    const result = this.mapped('getTransaction', prefix, () =>
      fromCashtimeOrder(data, { amount: this.amountOf, status: (value) => this.transactionStatus(value) }),
    );
    if (!result) throw this.unusable('getTransaction', prefix, data, 'id ou status do pedido');
    // The id asked for stays the id, whatever the answer echoes.
    return withPixQrImage({ ...result, transactionId });
  }

  override async withdraw(ctx: AdapterContext, input: WithdrawInput): Promise<WithdrawResult> {
    if (input.paymentMethod !== 'PIX') throw catalogueError('WITHDRAW_METHOD_NAO_IMPLEMENTADO', { field: 'withdraw.payment_method' });
    const pixKey = input.pixKey?.trim();
    if (!pixKey) throw invalidArgument('withdraw.pix_key', 'withdraw.pix_key is required for PIX withdrawals');
    // Never guessed from the key: an 11-digit key read as a CPF when it is a phone could pay someone else.
    if (!input.pixType) throw invalidArgument('withdraw.pix_type', 'withdraw.pix_type is required for PIX withdrawals');
    const prefix = this.prefixFor('withdraw');
    const body = toCashtimeWithdrawal({ ...input, pixKey, pixType: input.pixType }, this.requestTerms(ctx));
    const data = await this.exchange('withdraw', prefix, () => this.http(ctx).post<unknown>(this.paths.withdraw, body));
    const result = this.mapped('withdraw', prefix, () =>
      fromCashtimeWithdrawal(data, { amount: this.amountOf, status: (value) => this.withdrawalStatus(value), requestedAmount: input.amount }),
    );
    if (!result) throw this.unusable('withdraw', prefix, data, 'id do saque');
    return result;
  }

  override async getWithdraw(ctx: AdapterContext, withdrawId: string): Promise<WithdrawResult> {
    const prefix = this.prefixFor('getWithdraw');
    const data = await this.exchange('getWithdraw', prefix, () => this.http(ctx).get<unknown>(fillPath(this.paths.getWithdraw, { id: withdrawId })));
    const result = this.mapped('getWithdraw', prefix, () =>
      fromCashtimeWithdrawal(data, { amount: this.amountOf, status: (value) => this.withdrawalStatus(value) }),
    );
    if (!result) throw this.unusable('getWithdraw', prefix, data, 'id ou status do saque');
    return { ...result, withdrawId };
  }

  override async processWebhook(_ctx: AdapterContext, notification: IncomingNotification): Promise<WebhookResult | undefined> {
    const parsed = parseCashtimeNotification(notification.body);
    if (!parsed) return undefined;
    if (parsed.kind === 'withdrawal') {
      // A member without payouts has none to hear about.
      return this.capabilities.withdrawMethods.length
        ? { type: 'WITHDRAW', transactionId: parsed.id, status: this.withdrawalStatus(parsed.status) }
        : undefined;
    }
    return { type: 'TRANSACTION', transactionId: parsed.id, status: this.transactionStatus(parsed.status) };
  }

  /** Unsigned postbacks carry no event id: the object's kind, id and status identify one across re-deliveries. */
  override notificationKey(ctx: AdapterContext, notification: IncomingNotification): string {
    const parsed = parseCashtimeNotification(notification.body);
    return parsed ? `${parsed.kind}:${parsed.id}:${parsed.status.toLowerCase()}` : super.notificationKey(ctx, notification);
  }
}
