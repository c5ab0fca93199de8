import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 31 §3, two durable commits per charge: a charge's audit row commits with the charge (one transaction, so the
 * same `xmin`), not in a commit of its own that the call waits for. Every call is still audited exactly once: a
 * replay, a refused call and a call the write did not complete get their row from the guard, as before.
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

const charge = (idempotencyKey: string, amount = 1500) =>
  stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
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
