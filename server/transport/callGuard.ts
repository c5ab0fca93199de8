import { performance } from 'node:perf_hooks';
import type { AccessService } from '../gateway/accessControl.js';
import { mayTouchAccount, type Principal } from '../gateway/access.js';
import { withCallAudit, type CallAudit } from '../gateway/callAudit.js';
import { GatewayError, isGatewayError, permissionDenied, type ErrorCode } from '../lib/errors.js';
import { requestPermission, RPC_RULES, rulePermissions, type RpcRule } from './permissions.js';
import type { CallerRateLimit } from './callerRateLimit.js';
import type { InFlightLimit } from './inFlightLimit.js';
import type { LoopPressure } from './loopPressure.js';
import { inSpan, openSpan, type TraceHeaders } from '../lib/tracing.js';
import { rpcEnded, rpcSpanStart, type RpcTracing } from './rpcSpans.js';

/** Who is calling and from where; both transports build it before a handler runs. */
export interface CallContext {
  principal: Principal;
  /** The caller's network address, for the audit trail. */
  source: string;
  /** The browser page's origin (the Origin header) on Connect; gRPC callers have none. */
  origin?: string;
  /** The caller's W3C trace context (`traceparent`, `tracestate`), continued by the call's span when tracing is on. */
  traceHeaders?: TraceHeaders;
}

export const UNAUTHENTICATED_MESSAGE = 'missing or invalid authorization: send "authorization: Bearer <token>" with an API token or a service token';

const bearerOf = (header: string | undefined) => /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '')?.[1];

const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);

/** The provider account a record in an answer belongs to (GetTransaction, GetWithdraw). */
function accountInResponse(response: unknown): string | undefined {
  for (const value of Object.values((response ?? {}) as Record<string, unknown>)) {
    const id = text((value as { providerAccountId?: unknown } | undefined)?.providerAccountId);
    if (id) return id;
  }
  return undefined;
}

/** What the audit trail says a call was about: the id it named, else what it created, else its provider account. */
function resourceOf(request: Record<string, unknown>, response: unknown): string {
  const created = Object.values((response ?? {}) as Record<string, unknown>).map((value) => text((value as { id?: unknown } | undefined)?.id));
  return text(request.id) ?? text(request.receiverId) ?? text(request.disputeId) ?? created.find(Boolean) ?? text(request.providerAccountId) ?? '';
}

/** Who made a call, from where: its audit row's first half. */
const auditedBy = (path: string, context: CallContext): CallAudit['who'] => ({
  actorKind: context.principal.kind,
  actorId: context.principal.id,
  actorName: context.principal.name,
  action: path.slice(1),
  source: context.source,
});

/** A refused call's request, read only to say in the audit trail what it was about. */
function readForAudit(readRequest: () => unknown): Record<string, unknown> {
  try {
    return readRequest() as Record<string, unknown>;
  } catch {
    return {};
  }
}

const LIMITED = 'permission denied: this token is limited to other provider accounts';

/**
 * A publishable key is a web page's credential: only CreateCardToken (cards:tokenize), and only from a page of one of
 * its origins. A call without Origin is not a browser page's, so it is refused too. Checked before the request is
 * read, like a missing permission.
 */
function admitPublishable(rule: RpcRule, context: CallContext): void {
  const { principal, origin } = context;
  if (principal.kind !== 'publishable') return;
  if (rule.permission !== 'cards:tokenize')
    throw permissionDenied('cards:tokenize', 'permission denied: a publishable key can only create card tokens (CreateCardToken)');
  if (origin === undefined)
    throw permissionDenied(
      'allowed origin',
      'permission denied: a publishable key is used from a web page, and this call has no Origin header; servers use a service token',
    );
  if (!principal.allowedOrigins?.includes(origin))
    throw permissionDenied('allowed origin', `permission denied: origin ${origin} is not one of this publishable key's allowed origins`);
}

/** The gRPC code a failure is answered with (the transports answer anything but a GatewayError as INTERNAL). */
const codeOf = (error: unknown): ErrorCode => (isGatewayError(error) ? error.code : 'INTERNAL');

/** How a call ended: OK, the error's code, or CANCELLED for a stream the caller (or a shutdown) ended. */
export type RpcCode = 'OK' | 'CANCELLED' | ErrorCode;

/**
 * Told of every call: its method (`gateway.v1.PaymentGatewayService/CreateTransaction`),
 * the code it ended with and, for a unary call the guard ran, how long it
 * took. Cheap, never throws.
 */
export interface RpcObserver {
  rpcHandled(method: string, code: RpcCode, seconds?: number): void;
}

export interface CallGuardOptions {
  /** Shared by both transports of the process; undefined: no limit. */
  rateLimit?: CallerRateLimit;
  /** Unary calls answered at once, shared by both transports; undefined: no limit. */
  inFlight?: InFlightLimit;
  /** Refuses new unary calls while the event loop is behind; undefined: off. */
  pressure?: LoopPressure;
  observer?: RpcObserver;
  /** A span per call when it has a tracer. */
  tracing?: RpcTracing;
}

/**
 * What every RPC goes through on both transports, after authentication: the
 * caller's rate limit, the permission its rule names, the caller's
 * provider-account limit, the handler, and the audit trail for calls that
 * change something.
 */
export class CallGuard {
  private readonly rateLimit?: CallerRateLimit;
  private readonly inFlight?: InFlightLimit;
  private readonly pressure?: LoopPressure;
  private readonly observer?: RpcObserver;
  private readonly tracing?: RpcTracing;

  constructor(
    private readonly access: AccessService,
    options: CallGuardOptions = {},
  ) {
    this.rateLimit = options.rateLimit;
    this.inFlight = options.inFlight;
    this.pressure = options.pressure;
    this.observer = options.observer;
    this.tracing = options.tracing;
  }

  /** Whether calls get spans (the transports read the trace headers only then). */
  get traced(): boolean {
    return this.tracing?.tracer !== undefined;
  }

  /** The caller behind an `authorization` header, or undefined. */
  async authenticate(authorization: string | undefined): Promise<Principal | undefined> {
    const bearer = bearerOf(authorization);
    return bearer ? this.access.authenticate(bearer) : undefined;
  }

  /**
   * The refusal a new unary call of the contract gets at once while the gateway is overloaded (the load shedder's
   * limit, or MAX_IN_FLIGHT, reached), or undefined. The gRPC transport asks before it authenticates the caller or
   * decodes the request: under overload most calls are refused, and what each refusal costs is taken from the calls
   * answered. `unary` asks again when it takes the call, which is what holds a place.
   */
  shedding(path: string): GatewayError | undefined {
    if (!RPC_RULES[path]) return undefined;
    return this.pressure?.refusal() ?? this.inFlight?.refusal();
  }

  rule(path: string): RpcRule {
    const rule = RPC_RULES[path];
    // A new RPC without a rule is refused, never open: the permissions test names it.
    if (!rule) throw new GatewayError('INTERNAL', `no permission is declared for ${path}`);
    return rule;
  }

  /**
   * Refuses the call when the caller lacks the permission (before the request
   * is even checked: a caller without any the call may need learns nothing;
   * then the one the request needs) or the account; may narrow a filter to the
   * caller's accounts.
   */
  private admit(rule: RpcRule, principal: Principal, readRequest: () => Record<string, unknown>): Record<string, unknown> {
    if (principal.totpEnrollmentRequired && !rule.beforeTotp)
      throw new GatewayError('FAILED_PRECONDITION', 'turn on two-step verification first: it is required for admins', {
        reason: 'TOTP_ENROLLMENT_REQUIRED',
      });
    const holds = (permission: RpcRule['permission']) => permission === 'authenticated' || principal.permissions.has(permission);
    if (!rulePermissions(rule).some(holds)) throw permissionDenied(rule.permission);
    const request = readRequest();
    // A rule whose permission depends on the request (an upload's purpose) is checked again once the request is read.
    const needed = requestPermission(rule, request);
    if (!holds(needed)) throw permissionDenied(needed);
    const allowed = principal.providerAccountIds;
    if (!allowed) return request;
    switch (rule.accounts) {
      case 'refused':
        throw permissionDenied('all provider accounts', 'permission denied: this call is not open to a token limited to some provider accounts');
      case 'request': {
        const id = text(request.providerAccountId) ?? text(request.id);
        if (!id || !mayTouchAccount(principal, id)) throw permissionDenied('provider account', LIMITED);
        return request;
      }
      case 'filter': {
        if (Array.isArray(request.providerAccountIds)) {
          const asked = request.providerAccountIds as string[];
          if (asked.some((id) => !mayTouchAccount(principal, id))) throw permissionDenied('provider account', LIMITED);
          return asked.length ? request : { ...request, providerAccountIds: [...allowed] };
        }
        const id = text(request.providerAccountId);
        if (!id)
          throw permissionDenied(
            'provider account',
            'permission denied: this token is limited to some provider accounts; set provider_account_id to one of them',
          );
        if (!mayTouchAccount(principal, id)) throw permissionDenied('provider account', LIMITED);
        return request;
      }
      // The answer is checked instead (filterResponse), or there is no account to check. Named one by one rather than
      // by a default, so that a new kind of rule cannot pass here unchecked.
      case 'list':
      case 'response':
      case 'none':
        return request;
    }
  }

  /** Keeps what a limited caller may see of an answer. */
  private filterResponse(rule: RpcRule, principal: Principal, response: unknown): unknown {
    if (!principal.providerAccountIds) return response;
    if (rule.accounts === 'response') {
      const id = accountInResponse(response);
      if (!id || !mayTouchAccount(principal, id)) throw permissionDenied('provider account', LIMITED);
    }
    if (rule.accounts === 'list') {
      return Object.fromEntries(
        Object.entries(response as Record<string, unknown>).map(([key, value]) => [
          key,
          Array.isArray(value) ? value.filter((item: { id?: string }) => item.id && mayTouchAccount(principal, item.id)) : value,
        ]),
      );
    }
    return response;
  }

  /**
   * Runs a unary call under its rule; `readRequest` decodes and checks the
   * request, once the permission is there. A call over the caller's rate limit
   * is refused first, before it costs a permission check, a decode or an audit
   * row: a flood of refused calls must not become a flood of audit rows.
   */
  unary<T>(path: string, context: CallContext, readRequest: () => unknown, handler: (request: Record<string, unknown>) => Promise<T>): Promise<T> {
    const started = performance.now();
    const seconds = () => (performance.now() - started) / 1000;
    // The provider calls the handler makes are children of this span.
    return inSpan(
      this.tracing?.tracer,
      path.slice(1),
      () => this.rpcSpanStart(path, context.traceHeaders),
      async (span) => {
        let release: (() => void) | undefined;
        let releasePressure: (() => void) | undefined;
        try {
          // Overload is refused first, before the call costs anything else.
          releasePressure = this.pressure?.admit();
          release = this.inFlight?.enter();
          const response = await this.run(path, context, readRequest, handler);
          this.observer?.rpcHandled(path.slice(1), 'OK', seconds());
          rpcEnded(span, 'OK');
          return response;
        } catch (error) {
          const code = codeOf(error);
          this.observer?.rpcHandled(path.slice(1), code, seconds());
          rpcEnded(span, code);
          throw error;
        } finally {
          release?.();
          releasePressure?.();
        }
      },
    );
  }

  private async run<T>(path: string, context: CallContext, readRequest: () => unknown, handler: (request: Record<string, unknown>) => Promise<T>): Promise<T> {
    const rule = this.rule(path);
    await this.rateLimit?.take(context.principal, context.source);
    let request: Record<string, unknown> | undefined;
    let response: unknown;
    // The row a write completing the call may commit with itself (a charge: callAudit.ts); else written here, after.
    const audit: CallAudit | undefined = rule.audited ? { who: auditedBy(path, context), written: false, closed: false } : undefined;
    try {
      admitPublishable(rule, context);
      const admitted = this.admit(rule, context.principal, () => (request = readRequest() as Record<string, unknown>));
      request = admitted;
      response = this.filterResponse(rule, context.principal, await (audit ? withCallAudit(audit, () => handler(admitted)) : handler(admitted)));
    } catch (error) {
      if (rule.audited) await this.audit(path, context, request ?? readForAudit(readRequest), undefined, error);
      throw error;
    }
    if (rule.audited && !audit?.written) await this.audit(path, context, request, response);
    return response as T;
  }

  /**
   * Admits a streaming call (one call of the rate limit, however long it
   * streams) and streams what `open` yields for the request it was admitted
   * with (which filters it). `signal` ends the stream (the caller went away, or
   * the server is stopping): it then counts as CANCELLED.
   */
  async *stream<T>(
    path: string,
    context: CallContext,
    readRequest: () => unknown,
    open: (request: Record<string, unknown>) => AsyncIterable<T>,
    signal: AbortSignal,
  ): AsyncGenerator<T> {
    // Still CANCELLED in `finally` when the transport stops reading before the end.
    let code: RpcCode = 'CANCELLED';
    const span = this.openRpcSpan(path, context.traceHeaders);
    try {
      const rule = this.rule(path);
      await this.rateLimit?.take(context.principal, context.source);
      admitPublishable(rule, context);
      yield* open(this.admit(rule, context.principal, readRequest as () => Record<string, unknown>));
      code = signal.aborted ? 'CANCELLED' : 'OK';
    } catch (error) {
      code = codeOf(error);
      throw error;
    } finally {
      this.observer?.rpcHandled(path.slice(1), code);
      rpcEnded(span, code);
      span.end();
    }
  }

  /** A call the transport refused before the guard ran it (its credential missing, wrong or not checkable): counted like the others, without a duration. */
  refused(path: string, code: ErrorCode, traceHeaders?: TraceHeaders): void {
    // Only the contract's RPCs: a made-up path must not become a label.
    if (!RPC_RULES[path]) return;
    this.observer?.rpcHandled(path.slice(1), code);
    const span = this.openRpcSpan(path, traceHeaders);
    rpcEnded(span, code);
    span.end();
  }

  /** A stream's or a refused call's span (one the guard ends itself). */
  private openRpcSpan(path: string, traceHeaders: TraceHeaders | undefined) {
    return openSpan(this.tracing?.tracer, path.slice(1), () => this.rpcSpanStart(path, traceHeaders));
  }

  private rpcSpanStart(path: string, traceHeaders: TraceHeaders | undefined) {
    return rpcSpanStart(this.tracing?.system ?? 'grpc', path, traceHeaders);
  }

  private audit(path: string, context: CallContext, request: Record<string, unknown>, response: unknown, error?: unknown): Promise<void> {
    const failed = error !== undefined;
    return this.access.record({
      ...auditedBy(path, context),
      resource: resourceOf(request, response),
      outcome: failed ? (isGatewayError(error) ? error.code : 'INTERNAL') : 'OK',
      // Our own error texts only: an unexpected error's text may quote a query or a provider's answer.
      detail: failed && isGatewayError(error) ? error.message.slice(0, 1000) : '',
    });
  }
}
