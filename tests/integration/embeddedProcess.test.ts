import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { TEMPLATE_FOLDER } from '../../server/db/embedded.js';
import { prepareTemplate, templateStaleBecause } from '../../scripts/serverBuild.js';
import { grpcDriver } from '../support/clients.js';
import { removeDir, TEST_TOKEN } from '../support/gateway.js';
import { pgControl } from '../support/pgControl.js';
import { childPids, isRunning, listeningPorts, portFor, spawnGateway, type GatewayProcess } from '../support/process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'gateway-embedded-'));
const gateways: GatewayProcess[] = [];
beforeAll(async () => {
  // `npm start` and `npm test` prepare it; a targeted run may come before either.
  if (templateStaleBecause(process.cwd())) await prepareTemplate(process.cwd());
}, 120_000);
afterAll(() => {
  for (const gateway of gateways) gateway.child.kill('SIGKILL');
  removeDir(dataDir);
});

/** The gateway as `npm start` runs it, on the embedded default in `dataDir`, and the process its database runs in. */
async function startOnEmbedded() {
  const gateway = await spawnGateway({
    DATA_DIR: dataDir,
    DATABASE_URL: '',
    API_TOKENS: TEST_TOKEN,
    GRPC_PORT: portFor(11),
    HTTP_PORT: portFor(12),
    WEBHOOK_PORT: portFor(13),
    SANDBOX_PORT: portFor(14),
  });
  gateways.push(gateway);
  const database = childPids(gateway.child.pid!).filter((pid) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('embeddedServer'));
  expect(database).toHaveLength(1);
  return { gateway, databasePid: database[0]!, accountId: /SANDBOX account id\s+(\S+)/.exec(gateway.output())![1]! };
}

/** Waits for a process to end: what a SIGKILLed parent's child does on its own, in its own time. */
async function ended(pid: number, withinMs = 30_000): Promise<boolean> {
  for (const deadline = Date.now() + withinMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
    if (!isRunning(pid)) return true;
  }
  return false;
}

let transactionId: string;

it('starts a fresh data folder from the template, migrated and working, with PGlite listening in a process of its own', async () => {
  const { gateway, databasePid, accountId } = await startOnEmbedded();
  const databasePorts = listeningPorts(databasePid);
  expect(databasePorts).toHaveLength(1);
  expect(listeningPorts(gateway.child.pid!)).not.toContain(databasePorts[0]);

  const client = grpcDriver(`127.0.0.1:${portFor(11)}`, TEST_TOKEN);
  try {
    const { transaction } = await client.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction: { amount: 4200, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
    );
    transactionId = transaction.id;
  } finally {
    client.close();
  }

  // No stop, no signal it could handle: the database's process ends anyway, and closes PGlite on its way out.
  gateway.child.kill('SIGKILL');
  await gateway.exited;
  expect(await ended(databasePid)).toBe(true);
  const control = pgControl(join(dataDir, 'pgdata'));
  expect(control.shutDownCleanly).toBe(true);
  // The template's cluster, not one initdb made at this start.
  expect(control.systemIdentifier).toBe(pgControl(join(process.cwd(), 'dist', TEMPLATE_FOLDER)).systemIdentifier);
}, 120_000);

it('restarts on the same folder with the data kept, and a database process that dies takes the gateway down (exit 1)', async () => {
  const { gateway, databasePid } = await startOnEmbedded();
  const client = grpcDriver(`127.0.0.1:${portFor(11)}`, TEST_TOKEN);
  try {
    const read = await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transactionId }));
    expect(read.transaction).toMatchObject({ id: transactionId, amount: 4200, status: TransactionStatus.TRANSACTION_STATUS_PENDING });
  } finally {
    client.close();
  }

  process.kill(databasePid, 'SIGKILL');
  expect(await gateway.exited).toBe(1);
  expect(gateway.output()).toContain("the embedded PostgreSQL's process ended unexpectedly (SIGKILL)");
}, 120_000);
