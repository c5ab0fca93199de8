/**
 * Steady load through the fleet's HAProxy, as a careful caller sends it: charges over gRPC and over Connect, reads,
 * signed notifications and payouts, each money-moving call under an idempotency key, and every call the gateway
 * answers UNAVAILABLE (or that HAProxy could not deliver) sent again with the same key until it is answered.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { ConnectError, Code } from '@connectrpc/connect';
import { CreateTransactionRequest, GetTransactionRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { signSandboxPayload } from '../../server/sandbox/api.js';
import { connectDriver, grpcDriver, type Driver } from '../../tests/support/clients.js';
import type { FailedAttempt } from './windows.js';

/** How long a caller keeps retrying one request before it gives up (and the report counts it as given up). */
const GIVE_UP_MS = 180_000;
const RETRY_PAUSE_MS = 200;

export interface AnsweredCharge {
  key: string;
  id: string;
  providerId: string;
  amount: number;
}

export interface LoadRecord {
  attemptedCharges: Set<string>;
  answeredCharges: Map<string, AnsweredCharge>;
  attemptedPayouts: Set<string>;
  answeredPayouts: Map<string, string>;
  /** Event ids the intake answered 2xx, with the charge they are about. */
  acknowledged: Map<string, string>;
  reads: number;
  failures: FailedAttempt[];
  /** Requests abandoned: not answered within GIVE_UP_MS, or refused in a way that may not be retried. */
  givenUp: { operation: string; key: string; code: string; message: string }[];
}

/**
 * A failure's name: the gRPC status for both transports, HTTP_<status> for the intake, else the socket error's code.
 * A call whose HTTP/2 stream or connection the load balancer cut (its gateway process died during the call) is
 * STREAM_RESET, not the INTERNAL grpc-js reports it as: the gateway never answered, so, as for UNAVAILABLE, the
 * outcome is unknown and the same request under the same idempotency key is safe to send again.
 */
export function failureCode(error: unknown): string {
  const message = (error as Error).message ?? '';
  if (error instanceof ConnectError) {
    // Over fetch the cut connection is a TypeError('fetch failed') whose cause says what happened: Connect wraps it as UNKNOWN.
    const said = `${error.rawMessage} ${causesOf(error)}`;
    if ((error.code === Code.Internal || error.code === Code.Unknown) && CUT_CONNECTION.test(said)) return 'STREAM_RESET';
    return Code[error.code].replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c).toUpperCase();
  }
  const code = (error as { code?: unknown }).code;
  if (code === grpc.status.INTERNAL && CUT_CONNECTION.test(message)) return 'STREAM_RESET';
  if (typeof code === 'number' && grpc.status[code]) return grpc.status[code];
  return typeof code === 'string' ? code : message.slice(0, 60);
}

/** What grpc-js, Node's HTTP client and fetch say when the peer reset the stream or dropped the connection mid-call. */
const CUT_CONNECTION =
  /RST_STREAM|ECONNRESET|ECONNREFUSED|socket hang up|premature close|other side closed|fetch failed|terminated|UND_ERR_SOCKET|stream (was )?(destroyed|closed)/i;

/** The messages and codes of an error's causes, one after the other. */
function causesOf(error: unknown): string {
  const said: string[] = [];
  for (let cause = (error as { cause?: unknown }).cause; cause && said.length < 5; cause = (cause as { cause?: unknown }).cause)
    said.push(`${(cause as Error).message ?? ''} ${(cause as { code?: unknown }).code ?? ''}`);
  return said.join(' ');
}

class HttpStatus extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

export interface LoadOptions {
  grpcAddress: string;
  connectUrl: string;
  token: string;
  accountId: string;
  notificationUrl: string;
  webhookSecret: string;
  /** Distinguishes this run's keys from any other's. */
  runId: string;
  /** Concurrent loops per kind. */
  chargeLoops: number;
}

export class Load {
  readonly record: LoadRecord = {
    attemptedCharges: new Set(),
    answeredCharges: new Map(),
    attemptedPayouts: new Set(),
    answeredPayouts: new Map(),
    acknowledged: new Map(),
    reads: 0,
    failures: [],
    givenUp: [],
  };
  private running = true;
  private sequence = 0;
  private readonly grpc: Driver;
  private readonly connect: Driver;
  private readonly toNotify: AnsweredCharge[] = [];
  private loops: Promise<void>[] = [];

  constructor(private readonly options: LoadOptions) {
    this.grpc = grpcDriver(options.grpcAddress, options.token);
    this.connect = connectDriver(options.connectUrl, options.token);
  }

  start(): void {
    const loop = async (work: () => Promise<void>, pauseMs: number) => {
      while (this.running) {
        await work();
        await sleep(pauseMs);
      }
    };
    for (let i = 0; i < this.options.chargeLoops; i++) {
      this.loops.push(loop(() => this.charge(this.grpc, 'charge-grpc'), 20));
      this.loops.push(loop(() => this.charge(this.connect, 'charge-connect'), 20));
    }
    this.loops.push(loop(() => this.read(), 20));
    this.loops.push(loop(() => this.notify(), 10));
    this.loops.push(loop(() => this.payout(), 200));
  }

  /** Stops sending new requests and waits for those under way (their retries included) to end. */
  async stop(): Promise<void> {
    this.running = false;
    await Promise.all(this.loops);
    // Charges answered last still get their notification.
    while (this.toNotify.length > 0) await this.notify();
    this.grpc.close();
    this.connect.close();
  }

  /** `call` until it is answered; retried (same request) while the failure says UNAVAILABLE. */
  private async retrying<T>(operation: string, key: string, call: () => Promise<T>, retryable: (code: string) => boolean): Promise<T | undefined> {
    const deadline = Date.now() + GIVE_UP_MS;
    for (;;) {
      try {
        return await call();
      } catch (error) {
        const code = failureCode(error);
        const retry = retryable(code) && Date.now() < deadline;
        const held = /still being (confirmed|processed)/.test((error as Error).message ?? '');
        this.record.failures.push({ at: Date.now(), operation, code, retried: retry, held });
        if (!retry) {
          this.record.givenUp.push({ operation, key, code, message: ((error as Error).message ?? '').slice(0, 120) });
          return undefined;
        }
        await sleep(RETRY_PAUSE_MS);
      }
    }
  }

  private async charge(driver: Driver, operation: string): Promise<void> {
    const n = ++this.sequence;
    const key = `chaos-${this.options.runId}-${operation}-${n}`;
    const amount = 1000 + (n % 997);
    this.record.attemptedCharges.add(key);
    const request = CreateTransactionRequest.fromPartial({
      providerAccountId: this.options.accountId,
      idempotencyKey: key,
      transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    });
    const answer = await this.retrying(operation, key, () => driver.call('gateway', 'createTransaction', request), isRetryable);
    if (!answer) return;
    const charge = { key, id: answer.transaction.id as string, providerId: answer.transaction.transactionId as string, amount };
    this.record.answeredCharges.set(key, charge);
    this.toNotify.push(charge);
  }

  private async read(): Promise<void> {
    const charges = [...this.record.answeredCharges.values()];
    const charge = charges[Math.floor(Math.random() * charges.length)];
    if (!charge) return;
    const driver = charges.length % 2 ? this.grpc : this.connect;
    const answer = await this.retrying(
      'read',
      charge.key,
      () => driver.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: charge.id })),
      isRetryable,
    );
    if (answer) this.record.reads += 1;
  }

  /** The provider's "paid" for the oldest answered charge not yet notified, signed as the sandbox signs, until acknowledged. */
  private async notify(): Promise<void> {
    const charge = this.toNotify.shift();
    if (!charge) return;
    const eventId = `evt-${charge.key}`;
    const body = JSON.stringify({
      id: eventId,
      type: 'charge.paid',
      createdAt: new Date().toISOString(),
      data: { id: charge.providerId, status: 'paid', amount: charge.amount },
    });
    const post = async () => {
      const response = await fetch(this.options.notificationUrl, {
        method: 'POST',
        body,
        signal: AbortSignal.timeout(30_000),
        headers: {
          'content-type': 'application/json',
          'x-sandbox-event-id': eventId,
          'x-sandbox-signature': signSandboxPayload(this.options.webhookSecret, Math.floor(Date.now() / 1000), body),
        },
      });
      await response.arrayBuffer();
      if (response.status >= 300) throw new HttpStatus(`HTTP_${response.status}`);
      return true;
    };
    // A provider sends a notification again until it is acknowledged: any failure but a refusal of the notification itself.
    const acknowledged = await this.retrying('notification', eventId, post, (code) => !/^HTTP_4(0[0-4]|13)$/.test(code));
    if (acknowledged) this.record.acknowledged.set(eventId, charge.id);
  }

  private async payout(): Promise<void> {
    const key = `chaos-${this.options.runId}-payout-${++this.sequence}`;
    this.record.attemptedPayouts.add(key);
    const request = WithdrawRequest.fromPartial({
      providerAccountId: this.options.accountId,
      idempotencyKey: key,
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 500, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
    });
    const answer = await this.retrying('payout', key, () => this.grpc.call('gateway', 'withdraw', request), isRetryable);
    if (answer) this.record.answeredPayouts.set(key, answer.withdrawal.id as string);
  }
}

/**
 * UNAVAILABLE (nothing known to be done, or the key is being confirmed), RESOURCE_EXHAUSTED (shed: nothing done) and
 * STREAM_RESET (the process died during the call: outcome unknown, settled under the same key).
 */
export const isRetryable = (code: string) => code === 'UNAVAILABLE' || code === 'RESOURCE_EXHAUSTED' || code === 'STREAM_RESET';
