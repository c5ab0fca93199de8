import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import pg from 'pg';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { OutboundRepository } from '../../server/db/outboundRepository.js';
import { TransactionsRepository } from '../../server/db/transactionsRepository.js';
import { transactionStatusChangedBody } from '../../server/gateway/outboundMessages.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 31 §3, two durable commits per charge: a charge's audit row commits with the charge (one transaction, so the
 * same `xmin`), not in a commit of its own that the call waits for. Every call is still audited exactly once: a
 * replay, a refused call and a call the write did not complete get their row from the guard, as before.
 *
 * Issue 31, CPU per charge: the key's claim, the charge's insert and a cached account need no MikroORM unit of work,
 * and the charge path forks none (three forks a charge were about 3 % of its CPU). The paths that need entities still
 * get one of their own: an account read when it is not cached, a charge the provider's notification recorded first.
 */

const CREATE = 'gateway.v1.PaymentGatewayService/CreateTransaction';

let stack: TestStack;
let db: pg.Client;
let accountId: string;

beforeAll(async () => {
  stack = await startTestStack();
  db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'audited charges',
    publicKey: 'pk',
    secretKey: 'sk',
  });
  accountId = providerAccount.id;
}, 60_000);

afterAll(async () => {
  await db?.end();
  await stack?.close();
});

const charge = (idempotencyKey: string, amount = 1500, providerAccountId = accountId) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId,
      idempotencyKey,
      transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    }),
  );

const auditRows = async (resource: string) =>
  (
    await db.query<{ xmin: string; outcome: string; actor_name: string; source: string; at: Date }>(
      'select xmin::text, outcome, actor_name, source, at from audit_events where action = $1 and resource = $2 order by at',
      [CREATE, resource],
    )
  ).rows;

describe("a charge's audit row", () => {
  it('commits in the transaction that stores the charge, and says who made it', async () => {
    const { transaction } = await charge('audited-1');
    const [stored] = (await db.query<{ xmin: string; created_at: Date }>('select xmin::text, created_at from transactions where id = $1', [transaction.id]))
      .rows;
    const rows = await auditRows(transaction.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ xmin: stored.xmin, outcome: 'OK', at: stored.created_at });
    expect(rows[0].actor_name).not.toBe('');
    expect(rows[0].source).not.toBe('');
  });

  it('of a replay is the guard’s own, one more row for the same charge', async () => {
    const first = await charge('audited-replay');
    const again = await charge('audited-replay');
    expect(again.transaction.id).toBe(first.transaction.id);
    const rows = await auditRows(first.transaction.id);
    expect(rows.map((row) => row.outcome)).toEqual(['OK', 'OK']);
    expect(rows[0].xmin).not.toBe(rows[1].xmin);
  });

  it('of a refused charge is written once, with the refusal', async () => {
    await expect(charge('audited-refused', 0)).rejects.toMatchObject({ code: 3 });
    const { rows } = await db.query<{ outcome: string }>(`select outcome from audit_events where action = $1 and outcome <> 'OK' and resource = $2`, [
      CREATE,
      accountId,
    ]);
    expect(rows).toEqual([{ outcome: 'INVALID_ARGUMENT' }]);
  });
});

/** Forks of the ORM's root EntityManager made from the charge's use cases (the background workers fork their own). */
function countChargeForks(): { count(): number; restore(): void } {
  const root = stack.gateway.db!.orm.em;
  const fork = root.fork.bind(root);
  let count = 0;
  const spy = jest.spyOn(root, 'fork').mockImplementation((options) => {
    if (/server\/gateway\/(payments|idempotency|recording|context)\./.test(new Error().stack ?? '')) count += 1;
    return fork(options);
  });
  return { count: () => count, restore: () => spy.mockRestore() };
}

describe("a charge's units of work", () => {
  it('forks none at a cached account, and stores the charge as before', async () => {
    await charge('units-warm');
    const forks = countChargeForks();
    try {
      const { transaction } = await charge('units-1', 1990);
      expect(forks.count()).toBe(0);
      const { rows } = await db.query('select amount, idempotency_key from transactions where id = $1', [transaction.id]);
      expect(rows).toEqual([{ amount: '1990', idempotency_key: 'units-1' }]);
    } finally {
      forks.restore();
    }
  });

  it('reads an account that is not cached through a unit of work of its own', async () => {
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: 'not cached yet',
      publicKey: 'pk',
      secretKey: 'sk',
    });
    const forks = countChargeForks();
    try {
      const { transaction } = await charge('units-2', 1990, providerAccount.id);
      expect(transaction.status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
      expect(forks.count()).toBe(1);
    } finally {
      forks.restore();
    }
  });

  it('completes a charge already recorded under its provider id through a unit of work of its own', async () => {
    const repo = new TransactionsRepository(new OutboundRepository(), transactionStatusChangedBody);
    const recorded = (orderId: string) =>
      repo.insertTransaction(stack.gateway.db!.rootEm(), {
        provider: 'SANDBOX',
        providerAccountId: accountId,
        result: { paymentMethod: 'PIX', transactionId: 'units-already-recorded', status: 'PENDING', amount: 500 },
        installments: 1,
        currency: 'BRL',
        orderId,
      });
    const first = await recorded('order-1');
    const again = await recorded('order-2');
    expect(again.transaction.id).toBe(first.transaction.id);
    expect(again.keyCompleted).toBe(false);
    expect(again.transaction.statusHistory.map((change) => change.status)).toEqual(['PENDING']);
  });
});
