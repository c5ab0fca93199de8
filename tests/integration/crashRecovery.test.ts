import { afterAll, expect, it } from '@jest/globals';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { removeDir } from '../support/gateway.js';
import { createTestDatabase } from '../support/postgres.js';
import { portFor, spawnGateway, type GatewayProcess } from '../support/process.js';
import { postSignedSandboxEvent } from '../support/sandboxEvents.js';

const TOKEN = 'crash-test-token';
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-crash-'));
let running: GatewayProcess | undefined;
let drop: (() => Promise<void>) | undefined;

afterAll(async () => {
  running?.child.kill('SIGKILL');
  await drop?.();
  removeDir(dataDir);
});

it('a notification stored by a sidecar that is then killed -9 is applied after the restart', async () => {
  const database = await createTestDatabase();
  drop = database.drop;
  const env = {
    DATABASE_URL: database.url,
    DATA_DIR: dataDir,
    API_TOKENS: TOKEN,
    GRPC_PORT: portFor(11),
    HTTP_PORT: portFor(12),
    WEBHOOK_PORT: portFor(13),
    SANDBOX_PORT: portFor(14),
    WORKER_IDLE_MS: '100',
  };

  // First life: the sidecar stores notifications, but no worker processes them (as if it died before it could).
  running = await spawnGateway({ ...env, WEBHOOK_WORKERS: '0' });
  let client = grpcDriver(`127.0.0.1:${env.GRPC_PORT}`, TOKEN);
  const { providerAccount } = await client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'crash',
    publicKey: 'pk',
    secretKey: 'sk',
    webhookSecret: 'whsec-crash',
  });
  const { transaction } = await client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: providerAccount.id,
      transaction: { amount: 2000, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    }),
  );
  const answer = await postSignedSandboxEvent(providerAccount.notificationUrl, 'whsec-crash', {
    id: 'evt_crash_1',
    type: 'charge.paid',
    data: { id: transaction.transactionId, status: 'paid', amount: 2000 },
  });
  expect(answer.status).toBe(200);
  expect((await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }))).transaction.status).toBe(
    TransactionStatus.TRANSACTION_STATUS_PENDING,
  );
  client.close();
  running.child.kill('SIGKILL');
  await running.exited;

  // Second life, with workers: what was stored is processed.
  running = await spawnGateway(env);
  client = grpcDriver(`127.0.0.1:${env.GRPC_PORT}`, TOKEN);
  await eventually(
    async () =>
      (await client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id }))).transaction.status ===
      TransactionStatus.TRANSACTION_STATUS_APPROVED,
    20_000,
    'the stored notification to be applied',
  );
  client.close();
}, 120_000);
