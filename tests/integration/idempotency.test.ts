import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import {
  CreateTransactionRequest,
  ListUnconfirmedRequestsRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, TransactionStatus, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { connectDriver, errorDetailsOf, failureOf, type Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';

/** A fake of the sandbox PSP's API that counts what reaches it and answers slowly, so concurrent requests overlap. */
class CountingPsp {
  server!: Server;
  requests: { method: string; path: string }[] = [];
  failNext = 0;
  failStatus = 503;
  /** How long each answer waits. */
  holdMs = 150;
  private seq = 0;

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        this.requests.push({ method: req.method!, path: req.url! });
        const send = (status: number, payload: unknown) =>
          setTimeout(() => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload)), this.holdMs);
        if (this.failNext > 0) {
          this.failNext -= 1;
          return send(this.failStatus, { error: { message: this.failStatus >= 500 ? 'temporarily unavailable' : 'amount refused' } });
        }
        const input = body ? JSON.parse(body) : {};
        const now = new Date().toISOString();
        if (req.url === '/v1/charges') {
          const status = input.method === 'card' ? 'paid' : 'pending';
          return send(201, {
            id: `ch_${++this.seq}`,
            amount: input.amount,
            method: input.method,
            status,
            installments: 1,
            createdAt: now,
            refundedAmount: 0,
            pix: input.method === 'pix' ? { copyPaste: '000201', qrCodeDataUrl: 'data:image/png;base64,', expiresAt: now } : undefined,
          });
        }
        if (/^\/v1\/charges\/[^/]+\/refunds$/.test(req.url!)) return send(201, { id: `re_${++this.seq}`, amount: input.amount, status: 'succeeded' });
        if (req.url === '/v1/withdrawals') return send(201, { id: `wd_${++this.seq}`, amount: input.amount, status: 'processing', createdAt: now });
        send(404, { error: { message: 'no route' } });
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  count(method: string, pattern: RegExp): number {
    return this.requests.filter((r) => r.method === method && pattern.test(r.path)).length;
  }
}

const psp = new CountingPsp();
let stack: TestStack;
let gateway: TestStack['gateway'];
let grpc: Driver;
let connect: Driver;
let accountId: string;
let otherAccountId: string;

beforeAll(async () => {
  const baseUrl = await psp.start();
  stack = await startTestStack();
  gateway = stack.gateway;
  grpc = stack.client;
  connect = connectDriver(gateway.httpUrl!, TEST_TOKEN);
  ({
    providerAccount: { id: accountId },
  } = await grpc.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'counted', publicKey: 'pk', secretKey: 'sk', baseUrl }));
  ({
    providerAccount: { id: otherAccountId },
  } = await grpc.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'other', publicKey: 'pk', secretKey: 'sk', baseUrl }));
});

afterAll(async () => {
  connect?.close();
  await stack?.close();
  psp.server?.close();
});

beforeEach(() => {
  psp.requests = [];
  psp.failNext = 0;
  psp.failStatus = 503;
  psp.holdMs = 150;
});

const charge = (key: string, amount = 1000, account = accountId) =>
  CreateTransactionRequest.fromPartial({
    providerAccountId: account,
    idempotencyKey: key,
    transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
  });

describe('idempotency keys', () => {
  it('20 simultaneous identical CreateTransaction calls reach the provider once and all get the first charge', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? grpc : connect).call('gateway', 'createTransaction', charge('simultaneous-1'))),
    );
    expect(psp.count('POST', /^\/v1\/charges$/)).toBe(1);
    expect(new Set(results.map((r) => r.transaction.id)).size).toBe(1);
  });

  it('the same key with another request is refused, naming the reason', async () => {
    await grpc.call('gateway', 'createTransaction', charge('changed-1', 1000));
    const failure = await failureOf(grpc.call('gateway', 'createTransaction', charge('changed-1', 2000)));
    expect(failure.code).toBe('ALREADY_EXISTS');
    expect(failure.message).toContain('idempotency_key changed-1 was already used with a different createTransaction request');
    expect(psp.count('POST', /^\/v1\/charges$/)).toBe(1);
  });

  it('scopes keys to the provider account', async () => {
    const first = await grpc.call('gateway', 'createTransaction', charge('scoped-1'));
    const second = await grpc.call('gateway', 'createTransaction', charge('scoped-1', 1000, otherAccountId));
    expect(second.transaction.id).not.toBe(first.transaction.id);
    expect(psp.count('POST', /^\/v1\/charges$/)).toBe(2);
  });

  it('lets a key whose first attempt the provider refused (4xx) be retried', async () => {
    psp.failNext = 1;
    psp.failStatus = 422;
    expect(await failureOf(grpc.call('gateway', 'createTransaction', charge('retry-after-failure')))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: amount refused',
    });
    const retried = await grpc.call('gateway', 'createTransaction', charge('retry-after-failure'));
    expect(retried.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
    const again = await grpc.call('gateway', 'createTransaction', charge('retry-after-failure'));
    expect(again.transaction.id).toBe(retried.transaction.id);
    expect(psp.count('POST', /^\/v1\/charges$/)).toBe(2);
  });

  it('holds a key whose first attempt got a 5xx (the provider may have charged): the retry is told it is still being confirmed and nothing is sent again', async () => {
    psp.failNext = 1;
    expect(await failureOf(grpc.call('gateway', 'createTransaction', charge('retry-after-5xx')))).toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: temporarily unavailable',
    });
    const retry = await failureOf(connect.call('gateway', 'createTransaction', charge('retry-after-5xx')));
    expect(retry.code).toBe('UNAVAILABLE');
    expect(retry.message).toContain('still being confirmed');
    expect(psp.count('POST', /^\/v1\/charges$/)).toBe(1);
  });

  it('a key whose process stopped marking itself alive is held as unknown: a retry is answered at once with RetryInfo, it is listed, and even expired it is never taken over', async () => {
    psp.holdMs = 3_000;
    const first = grpc.call('gateway', 'createTransaction', charge('orphan-1'));
    await eventually(async () => psp.count('POST', /^\/v1\/charges$/) === 1, 5_000, 'the charge to reach the provider');
    // As if the process sending it had died an hour ago, and the key were a day past its expiry.
    const sql = gateway.db!.em().getConnection('write');
    await sql.execute(
      `insert into gateway_processes (id, host, pid, started_at, heartbeat_at) values ('00000000-0000-4000-8000-00000000dead', 'elsewhere', 1, now() - interval '2 hours', now() - interval '1 hour')`,
    );
    await sql.execute(
      `update idempotency_keys set owner_id = '00000000-0000-4000-8000-00000000dead', created_at = now() - interval '2 days', expires_at = now() - interval '1 day' where key = 'orphan-1'`,
    );

    const started = Date.now();
    const details = await errorDetailsOf(connect.call('gateway', 'createTransaction', charge('orphan-1')));
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(details).toMatchObject({ reason: 'IDEMPOTENCY_OUTCOME_UNKNOWN', retryDelayMs: expect.any(Number) });
    expect(await failureOf(grpc.call('gateway', 'createTransaction', charge('orphan-1')))).toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('still being confirmed'),
    });
    const listed = await grpc.call('gateway', 'listUnconfirmedRequests', ListUnconfirmedRequestsRequest.fromPartial({ providerAccountId: accountId }));
    const requests = listed.requests.filter((request: { idempotencyKey: string }) => request.idempotencyKey === 'orphan-1');
    expect(requests).toEqual([
      expect.objectContaining({
        operation: 'createTransaction',
        idempotencyKey: 'orphan-1',
        failure: expect.stringContaining('stopped while its provider call was in flight'),
        ageSeconds: expect.any(Number),
      }),
    ]);
    expect(requests[0].ageSeconds).toBeGreaterThanOrEqual(2 * 86_400);
    expect(psp.count('POST', /^\/v1\/charges$/)).toBe(1);

    // The holder was only slow: its answer is recorded, and the retry gets it.
    const { transaction } = await first;
    expect((await connect.call('gateway', 'createTransaction', charge('orphan-1'))).transaction.id).toBe(transaction.id);
    expect(psp.count('POST', /^\/v1\/charges$/)).toBe(1);
  });

  it('20 simultaneous identical withdrawals pay out once', async () => {
    const request = WithdrawRequest.fromPartial({
      providerAccountId: accountId,
      idempotencyKey: 'payout-1',
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 5000, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
    });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? grpc : connect).call('gateway', 'withdraw', request)));
    expect(psp.count('POST', /^\/v1\/withdrawals$/)).toBe(1);
    expect(new Set(results.map((r) => r.withdrawal.id)).size).toBe(1);
  });

  it('20 simultaneous identical refunds refund once and all get the first refund', async () => {
    const card = await grpc.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: accountId,
        transaction: { amount: 3000, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId: 'card_x' },
      }),
    );
    expect(card.transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
    const request = RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, idempotencyKey: 'refund-1', id: card.transaction.id });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? grpc : connect).call('gateway', 'refoundTransaction', request)));
    expect(psp.count('POST', /\/refunds$/)).toBe(1);
    expect(new Set(results.map((r) => r.refund.refundId)).size).toBe(1);
    expect(results.every((r) => r.transaction.status === TransactionStatus.TRANSACTION_STATUS_REFUNDED)).toBe(true);
  });

  it('keeps keys for at least 24 hours', async () => {
    const [row] = await gateway
      .db!.em()
      .getConnection('write')
      .execute<{ hours: number }[]>(`select extract(epoch from (expires_at - created_at)) / 3600 as hours from idempotency_keys where key = 'simultaneous-1'`);
    expect(Number(row!.hours)).toBeGreaterThanOrEqual(24);
  });
});
