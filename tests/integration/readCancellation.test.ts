import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import * as grpc from '@grpc/grpc-js';
import { createClient, ConnectError, Code } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  ListTransactionsRequest,
  PaymentGatewayServiceClient,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { cancelReadsWithTheirCaller } from '../../server/db/statementCancellation.js';
import { cancellableRead, withCallSignal } from '../../server/lib/callScope.js';
import { GatewayError } from '../../server/lib/errors.js';
import { startCuttingProxy } from '../support/cuttingProxy.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, TEST_TOKEN, type TestStack } from '../support/gateway.js';
import { createTestDatabase } from '../support/postgres.js';

/**
 * Issue "Fast and observable", overload: the deadline and cancellation of a
 * read-only call reach its database work. A statement asked for after the
 * caller has gone is not sent; one running when the caller goes is cancelled
 * on the server; writes are never touched.
 */

async function connected(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

describe('over the RPCs, on PostgreSQL', () => {
  let stack: TestStack;
  let blocker: pg.Client | undefined;
  beforeAll(async () => {
    stack = await startTestStack();
  });
  afterEach(async () => {
    await blocker?.end();
    blocker = undefined;
  });
  afterAll(async () => {
    await stack?.close();
  });

  /** Holds a lock on `transactions` that every read of it waits for, as a slow statement would run. */
  async function lockTransactions(): Promise<pg.Client> {
    const client = await connected(stack.database.url);
    await client.query('begin');
    await client.query('lock table transactions in access exclusive mode');
    return client;
  }

  /** Statements of the gateway waiting for the blocker's lock. */
  async function waiting(): Promise<number> {
    const observer = await connected(stack.database.url);
    try {
      const { rows } = await observer.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity where datname = current_database() and pid <> $1 and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
        [(blocker as unknown as { processID: number }).processID],
      );
      return Number(rows[0]!.n);
    } finally {
      await observer.end();
    }
  }

  it('a gRPC deadline cancels the list statement running at the database', async () => {
    blocker = await lockTransactions();
    const client = new PaymentGatewayServiceClient(stack.gateway.grpcAddress!, grpc.credentials.createInsecure());
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${TEST_TOKEN}`);
    try {
      const listed = new Promise<grpc.ServiceError>((resolve, reject) =>
        client.listTransactions(ListTransactionsRequest.fromPartial({ pageSize: 10 }), metadata, { deadline: Date.now() + 1_000 }, (error) =>
          error ? resolve(error) : reject(new Error('the call succeeded')),
        ),
      );
      // The statement is sent and waits for the lock, as a slow one runs.
      await eventually(async () => (await waiting()) === 1, 3_000);
      expect((await listed).code).toBe(grpc.status.DEADLINE_EXCEEDED);
      // Cancelled on the server long before the lock is released (without it, the statement waits for the blocker).
      await eventually(async () => (await waiting()) === 0, 3_000);
    } finally {
      client.close();
    }
    await blocker.query('rollback');
    const { transactions } = await stack.client.call('gateway', 'listTransactions', ListTransactionsRequest.fromPartial({ pageSize: 10 }));
    expect(transactions).toEqual([]);
  });

  it('a Connect caller that gives up cancels the stats statement', async () => {
    blocker = await lockTransactions();
    const transport = createConnectTransport({
      baseUrl: stack.gateway.httpUrl!,
      httpVersion: '1.1',
      interceptors: [(next) => (request) => (request.header.set('authorization', `Bearer ${TEST_TOKEN}`), next(request))],
    });
    const abort = new AbortController();
    const now = Date.now();
    const call = createClient(PaymentGatewayService, transport).getTransactionStats(
      { createdFrom: { seconds: BigInt(Math.floor((now - 86_400_000) / 1000)) }, createdTo: { seconds: BigInt(Math.ceil(now / 1000)) } },
      { signal: abort.signal },
    );
    await eventually(async () => (await waiting()) === 1, 3_000);
    abort.abort();
    const failure = await call.then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ConnectError);
    expect((failure as ConnectError).code).toBe(Code.Canceled);
    await eventually(async () => (await waiting()) === 0, 3_000);
  });

  it("a gRPC deadline cancels GetTransaction's read of the charge's refunds as it does the charge's own", async () => {
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: 'refund reads',
      publicKey: 'pk',
      secretKey: 'sk-refund-reads',
    });
    const { transaction } = await stack.client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: providerAccount.id,
        transaction: { amount: 1000, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
      }),
    );
    blocker = await connected(stack.database.url);
    await blocker.query('begin');
    await blocker.query('lock table refunds in access exclusive mode');
    const client = new PaymentGatewayServiceClient(stack.gateway.grpcAddress!, grpc.credentials.createInsecure());
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${TEST_TOKEN}`);
    try {
      const read = new Promise<grpc.ServiceError>((resolve, reject) =>
        client.getTransaction(GetTransactionRequest.fromPartial({ id: transaction.id }), metadata, { deadline: Date.now() + 1_000 }, (error) =>
          error ? resolve(error) : reject(new Error('the call succeeded')),
        ),
      );
      await eventually(async () => (await waiting()) === 1, 3_000);
      expect((await read).code).toBe(grpc.status.DEADLINE_EXCEEDED);
      await eventually(async () => (await waiting()) === 0, 3_000);
    } finally {
      client.close();
    }
  });
});

describe('the pool', () => {
  let database: { url: string; drop(): Promise<void> };
  /** Errors a pool reported of an idle connection: a broken connection the test did not expect. */
  const idleErrors: Error[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterEach(() => {
    expect(idleErrors).toEqual([]);
  });
  afterAll(async () => {
    await database?.drop();
  });
  function pool(cancelRunning: boolean, url = database.url): pg.Pool {
    const created = new pg.Pool({ connectionString: url, max: 1 });
    created.on('error', (error) => idleErrors.push(error));
    cancelReadsWithTheirCaller(created, { cancelRunning });
    return created;
  }
  /**
   * Ends `pool` and waits until its connections are closed. pg-pool's end() resolves once it has asked them to
   * close, not once they have: the database's drop (with force) would otherwise end a backend still closing, and its
   * connection would report that as an error with nobody left to hear it.
   */
  async function ended(pool: pg.Pool): Promise<void> {
    let open = pool.totalCount;
    const closed = new Promise<void>((resolve) => {
      if (open === 0) resolve();
      pool.on('remove', () => {
        open -= 1;
        if (open === 0) resolve();
      });
    });
    await pool.end();
    await closed;
  }
  /** What the backend of `client` last ran, as PostgreSQL reports it. */
  async function lastStatement(client: pg.PoolClient): Promise<string> {
    const observer = await connected(database.url);
    try {
      const pid = (client as unknown as { processID: number }).processID;
      return (await observer.query<{ query: string }>('select query from pg_stat_activity where pid = $1', [pid])).rows[0]!.query;
    } finally {
      await observer.end();
    }
  }
  /** Runs `use` with a connection of a pool made for the test, and gives it back. */
  async function withClient(cancelRunning: boolean, use: (client: pg.PoolClient) => Promise<void>): Promise<void> {
    const borrowed = pool(cancelRunning);
    const client = await borrowed.connect();
    try {
      await use(client);
    } finally {
      client.release();
      await ended(borrowed);
    }
  }
  const gone = () => {
    const abort = new AbortController();
    abort.abort();
    return abort.signal;
  };

  it('does not send a read asked for after its caller has gone (it waited for a connection meanwhile)', async () => {
    await withClient(true, async (client) => {
      await client.query("select 'before'");
      const failure = await withCallSignal(gone(), () => cancellableRead(async () => client.query("select 'after the caller went'"))).catch(
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(GatewayError);
      expect(failure).toMatchObject({ code: 'CANCELLED', message: 'the caller cancelled, or its deadline passed: its reads were stopped' });
      expect(await lastStatement(client)).toBe("select 'before'");
    });
  });

  it("stops a prepared statement (a Get's lookup, preparedSql.ts) as it stops a text one", async () => {
    await withClient(true, async (client) => {
      await client.query("select 'before'");
      const read = { name: 'after_the_caller_went', text: 'select $1::text as said', values: ['after the caller went'] };
      const failure = await withCallSignal(gone(), () => cancellableRead(async () => client.query(read))).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'CANCELLED' });
      expect(await lastStatement(client)).toBe("select 'before'");
      const abort = new AbortController();
      const since = performance.now();
      const cancelled = withCallSignal(abort.signal, () =>
        cancellableRead(async () => client.query({ name: 'sleeps', text: 'select pg_sleep($1)', values: [20] })),
      );
      setTimeout(() => abort.abort(), 200);
      await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(performance.now() - since).toBeLessThan(5_000);
    });
  });

  it('stops a statement sent in the callback form (preparedSql.ts sends its statements so) as it stops the promise form', async () => {
    /** `client.query(config, callback)` in a promise, as preparedSql.ts sends its statements. */
    const sent = (client: pg.PoolClient, config: pg.QueryConfig) =>
      new Promise<pg.QueryResult>((resolve, reject) => {
        client.query(config, (error: Error | undefined, result: pg.QueryResult) => (error ? reject(error) : resolve(result)));
      });
    await withClient(true, async (client) => {
      await client.query("select 'before'");
      const late = { name: 'late_by_callback', text: 'select $1::text as said', values: ['after the caller went'] };
      // The caller goes after the read began and before its statement is asked for (it waited for the connection).
      const going = new AbortController();
      const failure = await withCallSignal(going.signal, () =>
        cancellableRead(() => {
          going.abort();
          return sent(client, late);
        }),
      ).catch((error: unknown) => error);
      expect(failure).toMatchObject({ code: 'CANCELLED' });
      expect(await lastStatement(client)).toBe("select 'before'");
      const abort = new AbortController();
      const since = performance.now();
      const cancelled = withCallSignal(abort.signal, () =>
        cancellableRead(() => sent(client, { name: 'sleeps_by_callback', text: 'select pg_sleep($1)', values: [20] })),
      );
      setTimeout(() => abort.abort(), 200);
      await expect(cancelled).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(performance.now() - since).toBeLessThan(5_000);
      // A read that answers before its caller goes keeps its answer, and the connection serves the next one.
      const answered = await withCallSignal(new AbortController().signal, () =>
        cancellableRead(() => sent(client, { name: 'answers_by_callback', text: 'select $1::text as said', values: ['in time'] })),
      );
      expect(answered.rows).toEqual([{ said: 'in time' }]);
    });
  });

  it('cancels a running read when its caller goes, and the connection serves the next statement', async () => {
    await withClient(true, async (client) => {
      const abort = new AbortController();
      const since = performance.now();
      const read = withCallSignal(abort.signal, () => cancellableRead(async () => client.query('select pg_sleep(20)')));
      setTimeout(() => abort.abort(), 200);
      await expect(read).rejects.toMatchObject({ code: 'CANCELLED' });
      expect(performance.now() - since).toBeLessThan(5_000);
      expect((await client.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    });
  });

  it('cancels a read whose caller went as it was sent, before the backend had read it (the request is sent again)', async () => {
    const direct = new URL(database.url);
    const proxy = await startCuttingProxy({ host: direct.hostname, port: Number(direct.port) });
    const viaProxy = new URL(database.url);
    viaProxy.port = String(proxy.port);
    const borrowed = pool(true, viaProxy.toString());
    try {
      const client = await borrowed.connect();
      try {
        // The statement reaches the backend 300 ms late; the cancel request, on a connection of its own, does not.
        proxy.delayRequest('pg_sleep', 300);
        const abort = new AbortController();
        const since = performance.now();
        const read = withCallSignal(abort.signal, () => cancellableRead(async () => client.query('select pg_sleep(20)')));
        abort.abort();
        await expect(read).rejects.toMatchObject({ code: 'CANCELLED' });
        expect(performance.now() - since).toBeLessThan(5_000);
        expect((await client.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
      } finally {
        client.release();
      }
    } finally {
      await ended(borrowed);
      await proxy.close();
    }
  });

  it('never touches a statement outside a read-only call, such as a write after a provider call', async () => {
    await withClient(true, async (client) => {
      const abort = new AbortController();
      const write = withCallSignal(abort.signal, async () => client.query("select pg_sleep(0.5), 'written' as outcome"));
      setTimeout(() => abort.abort(), 100);
      expect((await write).rows[0]).toMatchObject({ outcome: 'written' });
    });
  });

  it('without cancelRunning (the embedded database), lets a running read finish', async () => {
    await withClient(false, async (client) => {
      const abort = new AbortController();
      const read = withCallSignal(abort.signal, () => cancellableRead(async () => client.query("select pg_sleep(0.5), 'read' as outcome")));
      setTimeout(() => abort.abort(), 100);
      expect((await read).rows[0]).toMatchObject({ outcome: 'read' });
    });
  });
});
