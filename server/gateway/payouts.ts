import { payoutApprovalSettings } from './gatewaySettings.js';
import { randomUUID } from 'node:crypto';
import { GatewayError, invalidArgument, notFound, outcomeOf, type ErrorCode, type ErrorDetails } from '../lib/errors.js';
import { catalogueError } from '../lib/providerMessages.js';
import type { Actor, PayoutRequest, WithdrawInput, Withdrawal, WithdrawMethod } from '../domain/types.js';
import type { Principal } from './access.js';
import { resolveAccount, type GatewayDeps } from './context.js';
import { requestHash, resendWindowMs, runIdempotent } from './idempotency.js';
import { recordWithdrawal, type PendingRecord } from './recording.js';
import { limitedText, requirePositiveCents, requireText } from './validation.js';
import type { RoutingRecord } from '../domain/routing.js';
import type { RoutesService } from './routes.js';
import { runRouted } from './routedCharges.js';

export type WithdrawCommand = {
  /** The account, or '' when `route` chooses it. */
  providerAccountId: string;
  /** A route's name or id (routes.ts), instead of an account: PIX payouts only. */
  route?: string;
  idempotencyKey?: string;
  withdraw: Omit<WithdrawInput, 'paymentMethod'> & { paymentMethod?: WithdrawMethod };
};

const REASON_MAX = 500;

/** What an idempotency key keeps of a payout its provider refused when asked: the error the caller was told. */
interface KeptRefusal {
  refused: { code: ErrorCode; message: string; details: ErrorDetails };
}

const refusalOf = (response: unknown): KeptRefusal['refused'] | undefined =>
  response && typeof response === 'object' && 'refused' in response ? (response as KeptRefusal).refused : undefined;

type Prepared = Awaited<ReturnType<PayoutsService['prepare']>>;

const actorOf = (principal: Principal): Actor => ({ id: principal.id, name: principal.name });

const notAwaiting = (withdrawal: Withdrawal): GatewayError =>
  new GatewayError('FAILED_PRECONDITION', `withdrawal ${withdrawal.id} is not awaiting approval (it is ${withdrawal.status})`, {
    reason: 'PAYOUT_NOT_AWAITING_APPROVAL',
  });

/**
 * Payouts (Withdraw) and their four-eyes review. A payout an operator asks for
 * above PAYOUT_APPROVAL_ABOVE_CENTS is stored AWAITING_APPROVAL and nothing is
 * sent; a second operator approves it (it is then sent once, under the
 * request's idempotency key, however often or concurrently it is approved) or
 * rejects it (CANCELED, with the reason). Service tokens and API_TOKENS are not
 * held: the threshold guards the back-office's people, and a service's own
 * limits are its scopes and accounts.
 */
export class PayoutsService {
  constructor(
    private readonly deps: GatewayDeps,
    private readonly routes?: RoutesService,
  ) {}

  /** Validates the request and resolves what sending it needs; the same for a payout sent now and one sent on approval. */
  private async prepare(command: WithdrawCommand) {
    const input = command.withdraw;
    const amount = requirePositiveCents('withdraw.amount', input.amount);
    if (!input.paymentMethod) throw catalogueError('INVALID_PAYMENT_METHOD', { field: 'withdraw.payment_method' });
    if (input.paymentMethod === 'PIX') requireText('withdraw.pix_key', input.pixKey);
    const resolved = await resolveAccount(this.deps, command.providerAccountId);
    const { adapter } = resolved;
    if (!adapter.supports('withdraw')) throw adapter.notOffered('withdraw');
    // The provider's own texts and rules (doc 3 §5, §8), not the gateway's generic ones.
    adapter.assertWithdrawMethod(input.paymentMethod);
    const pixType = input.paymentMethod === 'PIX' ? (input.pixType ?? adapter.pixKeyTypeWithout(input.pixKey!.trim())) : input.pixType;
    if (input.paymentMethod === 'PIX' && !pixType) throw invalidArgument('withdraw.pix_type', 'withdraw.pix_type is required for PIX withdrawals', 'REQUIRED');
    const request: PayoutRequest = {
      ...input,
      amount,
      paymentMethod: input.paymentMethod,
      description: input.description || adapter.defaultWithdrawDescription(amount),
    };
    // The key type the provider's rule gave is what is sent; the request kept for idempotency stays the caller's.
    const forProvider: WithdrawInput = { ...request, ...(pixType ? { pixType } : {}), idempotencyKey: command.idempotencyKey || undefined };
    return { ...resolved, request, forProvider };
  }

  /**
   * The four-eyes limit this caller's payout of `amount` is held by (the back-office's setting, else
   * PAYOUT_APPROVAL_ABOVE_CENTS), or undefined when it does not wait for a second operator.
   */
  private async heldAbove(requester: Principal | undefined, amount: number): Promise<number | undefined> {
    if (requester?.kind !== 'operator') return undefined;
    const { aboveCents } = this.deps.settings
      ? await payoutApprovalSettings({ ...this.deps, settings: this.deps.settings })
      : { aboveCents: this.deps.payoutApprovalAboveCents };
    return aboveCents !== undefined && amount > aboveCents ? aboveCents : undefined;
  }

  async withdraw(command: WithdrawCommand, requester?: Principal): Promise<Withdrawal> {
    if (command.route && command.providerAccountId)
      throw invalidArgument('route', 'set either provider_account_id or route, not both: a route chooses the account', 'NOT_ALLOWED');
    if (!command.route && !command.providerAccountId) throw invalidArgument('provider_account_id', 'provider_account_id or route is required', 'REQUIRED');
    if (command.route) return this.withdrawRouted({ ...command, route: command.route }, requester);
    const prepared = await this.prepare(command);
    const { account, request } = prepared;
    const requestedBy = requester && actorOf(requester);
    if ((await this.heldAbove(requester, request.amount)) !== undefined)
      return this.hold(account.id, account.provider, command.idempotencyKey, request, requestedBy!);
    return this.sendAt(prepared, command.idempotencyKey, requestedBy);
  }

  /** Sends a payout now at its resolved account (`routing`: what its route decided). */
  private sendAt(prepared: Prepared, idempotencyKey: string | undefined, requestedBy: Actor | undefined, routing?: RoutingRecord): Promise<Withdrawal> {
    const { account, request } = prepared;
    return this.send(prepared, idempotencyKey, {
      kind: 'withdrawal',
      provider: account.provider,
      paymentMethod: request.paymentMethod,
      amount: request.amount,
      request,
      requestedBy,
      ...(routing ? { routing } : {}),
    });
  }

  /**
   * A PIX payout that names a route: the route's rules matched as a PIX payment of the payout's amount, the targets
   * whose provider pays out no PIX skipped, then its targets in order as for a charge (routedCharges.ts). One that
   * would wait for a second operator is refused: the route would be decided before the approval, at accounts that may
   * have changed by then (docs/decisions.md).
   */
  private async withdrawRouted(command: WithdrawCommand & { route: string }, requester?: Principal): Promise<Withdrawal> {
    const routes = this.routes;
    if (!routes) throw new GatewayError('FAILED_PRECONDITION', 'routes are not served by this gateway', { field: 'route', reason: 'ROUTES_NOT_SERVED' });
    const input = command.withdraw;
    const amount = requirePositiveCents('withdraw.amount', input.amount);
    if (input.paymentMethod !== 'PIX')
      throw invalidArgument('withdraw.payment_method', 'a payout that names a route is a PIX payout: withdraw.payment_method must be PIX', 'INVALID_VALUE');
    requireText('withdraw.pix_key', input.pixKey);
    const above = await this.heldAbove(requester, amount);
    if (above !== undefined)
      throw new GatewayError(
        'FAILED_PRECONDITION',
        `a payout above ${above} cents waits for a second operator and cannot take a route; name its provider_account_id`,
        { field: 'route', reason: 'ROUTED_PAYOUT_NEEDS_APPROVAL' },
      );
    const route = await routes.forCharge(command.route);
    const key = command.idempotencyKey;
    const em = () => this.deps.db.em();
    const decision = await routes.decisionFor(route, { paymentMethod: 'PIX', amount, currency: 'BRL', installments: 1 }, key, `PIX payout (${amount} cents)`, {
      why: 'pays out by PIX',
      test: async (id) => {
        const account = await this.deps.accounts.getWithSecrets(em(), id);
        const adapter = account && this.deps.registry.find(account.provider);
        return Boolean(adapter?.supports('withdraw') && adapter.capabilities.withdrawMethods.includes('PIX'));
      },
    });
    const requestedBy = requester && actorOf(requester);
    return runRouted(this.deps, {
      operation: 'withdraw',
      route,
      decision,
      callerKey: key,
      request: { route: route.id, withdraw: input },
      charge: async (target, attemptKey, routing) =>
        this.sendAt(
          await this.prepare({ providerAccountId: target.providerAccountId, idempotencyKey: attemptKey, withdraw: input }),
          attemptKey,
          requestedBy,
          routing,
        ),
      providerOf: async (id) => (await this.deps.accounts.getWithSecrets(em(), id, { includeDeleted: true }))?.provider,
      replay: async (id) => (await this.deps.withdrawals.findWithdrawal(em(), id, 'primary'))!,
    });
  }

  /** Runs the provider call under the idempotency key and records its answer (as a new payout, or on the held one). */
  private send(
    { account, adapter, ctx, request, forProvider }: Prepared,
    idempotencyKey: string | undefined,
    pending: Extract<PendingRecord, { kind: 'withdrawal' }>,
  ): Promise<Withdrawal> {
    return runIdempotent(this.deps, {
      providerAccountId: account.id,
      operation: 'withdraw',
      key: idempotencyKey,
      request,
      pending,
      resendWithinMs: resendWindowMs(adapter),
      // Timed here, at the provider call, for the operations console's provider health (routed and direct alike).
      callProvider: () => {
        const call = () => adapter.withdraw(ctx, forProvider);
        return this.routes ? this.routes.health.timed(account.id, 'payout', call) : call();
      },
      store: async (result) => {
        const withdrawal = await recordWithdrawal(this.deps, account.id, pending, result, idempotencyKey || undefined);
        return { subjectId: withdrawal.id, value: withdrawal };
      },
      storeRefusal: (error) => this.keepRefusal(account.id, pending, idempotencyKey, error),
      replay: async (id, response) => {
        const refused = refusalOf(response);
        if (refused) throw new GatewayError(refused.code, refused.message, refused.details);
        return (await this.deps.withdrawals.findWithdrawal(this.deps.db.em(), id, 'primary'))!;
      },
    });
  }

  /**
   * A payout its provider certainly refused when asked (nothing was paid): recorded REJECTED with the provider's text
   * as its reason (a held one moves there; any other is a new record), and the caller told the same refusal, with the
   * payout's id added to the error's values. The key keeps that answer, so a repeat replays it without a call; but a
   * routed attempt's key stays free, as before: the route's retry looks for a completed attempt as the one that paid
   * (routedCharges.ts), and tries its targets again otherwise.
   */
  private async keepRefusal(
    providerAccountId: string,
    pending: Extract<PendingRecord, { kind: 'withdrawal' }>,
    idempotencyKey: string | undefined,
    error: unknown,
  ): Promise<{ error: GatewayError; kept?: { subjectId: string; response: KeptRefusal } }> {
    const refusal = error as GatewayError;
    const em = this.deps.db.em();
    let withdrawalId: string;
    if (pending.heldId) {
      withdrawalId = pending.heldId;
      const refused = await this.deps.withdrawals.refuseSent(em, pending.heldId, refusal.message);
      if (refused?.event) this.deps.events.published(refused.event);
    } else {
      const { withdrawal, event } = await this.deps.withdrawals.insertRefused(em, {
        provider: pending.provider,
        providerAccountId,
        paymentMethod: pending.paymentMethod,
        amount: pending.amount ?? pending.request?.amount ?? 0,
        reason: refusal.message,
        idempotencyKey,
        request: pending.request,
        requestedBy: pending.requestedBy,
        routing: pending.routing,
      });
      if (event) this.deps.events.published(event);
      withdrawalId = withdrawal.id;
    }
    const details = { ...refusal.details, values: { ...refusal.details.values, withdrawal_id: withdrawalId } };
    const response: KeptRefusal = { refused: { code: refusal.code, message: refusal.message, details } };
    return { error: new GatewayError(refusal.code, refusal.message, details), ...(pending.routing ? {} : { kept: { subjectId: withdrawalId, response } }) };
  }

  /**
   * Stores the payout AWAITING_APPROVAL, nothing sent. A repeat with the same key answers the payout it made (held,
   * or sent since); the same key with another request is refused, as for any idempotent call. Without a key the
   * gateway gives it one, so that the approval sends it under a key too.
   */
  private async hold(providerAccountId: string, provider: string, key: string | undefined, request: PayoutRequest, requestedBy: Actor): Promise<Withdrawal> {
    const idempotencyKey = key || `gateway-${randomUUID()}`;
    const { withdrawal, existing, event } = await this.deps.withdrawals.insertHeld(this.deps.db.em(), {
      providerAccountId,
      provider,
      request,
      requestedBy,
      idempotencyKey,
    });
    if (event) this.deps.events.published(event);
    if (existing && (!withdrawal.request || requestHash(withdrawal.request) !== requestHash(request)))
      throw new GatewayError(
        'ALREADY_EXISTS',
        `idempotency_key ${idempotencyKey} was already used with a different withdraw request on this provider account`,
        {
          reason: 'IDEMPOTENCY_KEY_REUSED',
          field: 'idempotency_key',
        },
      );
    return withdrawal;
  }

  private async findHeld(id: string): Promise<Withdrawal> {
    const withdrawal = await this.deps.withdrawals.findWithdrawal(this.deps.db.em(), id, 'primary');
    if (!withdrawal) throw notFound(`withdrawal ${id} not found`);
    return withdrawal;
  }

  /** Only an operator reviews, and never a payout of their own. */
  private checkReviewer(withdrawal: Withdrawal, reviewer: Principal, outcome: 'APPROVED' | 'REJECTED'): void {
    if (reviewer.kind !== 'operator')
      throw new GatewayError('PERMISSION_DENIED', 'permission denied: a held payout is reviewed by an operator signed in to the back-office', {
        reason: 'PAYOUT_REVIEW_BY_OPERATOR',
      });
    if (outcome === 'APPROVED' && withdrawal.requestedBy?.id === reviewer.id)
      throw new GatewayError('PERMISSION_DENIED', 'permission denied: a payout is approved by another operator than the one who asked for it', {
        reason: 'PAYOUT_SELF_APPROVAL',
      });
  }

  /**
   * Approves a held payout and sends it. The move out of AWAITING_APPROVAL happens once (a conditional update under
   * the row's lock): the approval that makes it sends; a concurrent or repeated approval answers the payout as it
   * stands and sends nothing. A provider that certainly refuses leaves it REJECTED with the provider's text.
   */
  async approve(id: string, reviewer: Principal): Promise<Withdrawal> {
    const held = await this.findHeld(id);
    this.checkReviewer(held, reviewer, 'APPROVED');
    if (held.status !== 'AWAITING_APPROVAL') {
      if (held.review?.outcome === 'APPROVED') return held;
      throw notAwaiting(held);
    }
    const move = await this.deps.withdrawals.review(this.deps.db.em(), id, { outcome: 'APPROVED', by: actorOf(reviewer) });
    if (!move) {
      const now = await this.findHeld(id);
      if (now.review?.outcome === 'APPROVED') return now;
      throw notAwaiting(now);
    }
    if (move.event) this.deps.events.published(move.event);
    const row = await this.findHeld(id);
    const key = (await this.deps.withdrawals.idempotencyKeyOf(this.deps.db.em(), id)) ?? undefined;
    try {
      const prepared = await this.prepare({ providerAccountId: row.providerAccountId, idempotencyKey: key, withdraw: row.request! });
      return await this.send(prepared, key, {
        kind: 'withdrawal',
        provider: row.provider,
        paymentMethod: row.paymentMethod,
        amount: row.amount,
        request: row.request,
        requestedBy: row.requestedBy,
        heldId: id,
      });
    } catch (error) {
      // Certainly not paid: the payout says why. Unknown: it stays PENDING until the outcome is confirmed.
      if (outcomeOf(error) === 'failed') {
        const refused = await this.deps.withdrawals.refuseSent(this.deps.db.em(), id, error instanceof Error ? error.message : String(error));
        if (refused?.event) this.deps.events.published(refused.event);
      }
      throw error;
    }
  }

  /** Rejects a held payout: CANCELED with the reason, never sent. The operator who asked may withdraw their own request. */
  async reject(id: string, reviewer: Principal, reason: string): Promise<Withdrawal> {
    const text = limitedText('reason', reason, REASON_MAX);
    const held = await this.findHeld(id);
    this.checkReviewer(held, reviewer, 'REJECTED');
    const move = await this.deps.withdrawals.review(this.deps.db.em(), id, { outcome: 'REJECTED', by: actorOf(reviewer), reason: text || undefined });
    if (!move) throw notAwaiting(await this.findHeld(id));
    if (move.event) this.deps.events.published(move.event);
    return this.findHeld(id);
  }
}
