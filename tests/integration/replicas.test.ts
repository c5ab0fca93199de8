import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver, type Driver } from '../support/clients.js';
import { removeDir, startTestGateway, TEST_TOKEN } from '../support/gateway.js';
import { samplesOf, scrape } from '../support/metrics.js';
import { startPgCluster, type PgCluster, type PgServer } from '../support/pgCluster.js';

/**
 * Routing proven on real streaming replication: a throwaway primary and two hot
 * standbys, counting statements on each server with pg_stat_statements. The
 * second replica applies WAL 400 ms late, so reads right after writes really
 * do meet a replica that has not seen them yet.
 */
let cluster: PgCluster;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let client: Driver;
let accountId: string;

const TABLES = `(query ~* '\\m"?(transactions|status_events)"?\\M')`;
/** A write is an insert, or a statement whose common table expressions insert (a charge with its event, in one). */
const KINDS = { insert: `(query ilike 'insert%' or query ilike 'with%insert%')`, select: `query ilike 'select%'` };
const resetStatements = (servers: PgServer[]) => Promise.all(servers.map((s) => s.query('select pg_stat_statements_reset()')));
async function count(server: PgServer, kind: 'select' | 'insert'): Promise<number> {
  const [{ calls }] = await server.query<{ calls: string | null }>(
    `select sum(calls)::text as calls from pg_stat_statements where ${TABLES} and ${KINDS[kind]} and query not ilike '%pg_stat_statements%'`,
  );
  return Number(calls ?? 0);
}

const pix = (amount: number) =>
  CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } });

beforeAll(async () => {
  cluster = await startPgCluster({ replicas: 2, replicaApplyDelayMs: [0, 400] });
  await cluster.primary.query('create database gateway');
  await cluster.waitForReplay();
  gateway = await startTestGateway({ databaseUrl: cluster.primary.url('gateway'), replicaUrls: cluster.replicas.map((r) => r.url('gateway')) });
  client = grpcDriver(gateway.grpcAddress!, TEST_TOKEN);
  ({
    providerAccount: { id: accountId },
  } = await client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'replicas', publicKey: 'pk', secretKey: 'sk' }));
}, 180_000);

afterAll(async () => {
  client?.close();
  await gateway?.close();
  if (gateway) removeDir(gateway.dataDir);
  cluster?.destroy();
});

describe('reads over replicas, writes on the primary', () => {
  it('sends every write to the primary', async () => {
    const all = [cluster.primary, ...cluster.replicas];
    await resetStatements(all);
    for (let i = 0; i < 10; i += 1) await client.call('gateway', 'createTransaction', pix(100 + i));
    await cluster.waitForReplay();
    expect(await count(cluster.primary, 'insert')).toBe(10); // each charge: one statement writes its row and its first status event
    for (const replica of cluster.replicas) expect(await count(replica, 'insert')).toBe(0);
  });

  it('splits plain reads evenly over the replicas, round-robin', async () => {
    const { transaction } = await client.call('gateway', 'createTransaction', pix(500));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await cluster.waitForReplay();
    const all = [cluster.primary, ...cluster.replicas];
    await resetStatements(all);
    const reads = 200;
    for (let i = 0; i < reads; i += 1) await gateway.useCases!.payments.getTransaction(transaction.id);
    // Each read is one statement (the charge with its history): 200 over two replicas.
    const perReplica = await Promise.all(cluster.replicas.map((r) => count(r, 'select')));
    for (const served of perReplica) {
      expect(served).toBeGreaterThanOrEqual((reads / 2) * 0.9);
      expect(served).toBeLessThanOrEqual((reads / 2) * 1.1);
    }
    // Round-robin, not a fair coin: sequential reads alternate exactly.
    expect(Math.abs(perReplica[0]! - perReplica[1]!)).toBeLessThanOrEqual(2);
    expect(await count(cluster.primary, 'select')).toBe(0);
  });

  it('always finds a charge right after creating it, though a replica lags', async () => {
    await resetStatements([cluster.primary]);
    for (let i = 0; i < 20; i += 1) {
      const { transaction } = await client.call('gateway', 'createTransaction', pix(700 + i));
      const read = await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
      expect(read.transaction.id).toBe(transaction.id);
      expect(read.transaction.statusHistory).toHaveLength(1);
    }
    // The lagging replica missed some of them, and the primary answered those.
    expect(await count(cluster.primary, 'select')).toBeGreaterThan(0);
  });

  it("shows each replica's replay lag on /metrics (the replica-lag alert's figure), and none for the primary", async () => {
    await cluster.waitForReplay();
    const lags = samplesOf(await scrape(gateway.metricsUrl!), 'gateway_db_replica_lag_seconds');
    expect(lags.map((lag) => lag.labels.pool).sort()).toEqual(['replica-1', 'replica-2']);
    for (const lag of lags) {
      expect(Number.isFinite(lag.value)).toBe(true);
      expect(lag.value).toBeGreaterThanOrEqual(0);
    }
  });

  it('keeps reading when a replica is down', async () => {
    const { transaction } = await client.call('gateway', 'createTransaction', pix(900));
    await new Promise((resolve) => setTimeout(resolve, 500));
    await cluster.waitForReplay();
    cluster.replicas[0]!.stop();
    for (let i = 0; i < 20; i += 1) {
      const read = await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }));
      expect(read.transaction.id).toBe(transaction.id);
    }
  });

  it('leaves a replica that cannot be asked out of the lag (no series rather than a lag nobody measured)', async () => {
    const pools = samplesOf(await scrape(gateway.metricsUrl!), 'gateway_db_replica_lag_seconds').map((lag) => lag.labels.pool);
    expect(pools).toEqual(['replica-2']);
  });
});
