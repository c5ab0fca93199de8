import { execFile, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from '@jest/globals';
import { CreateTransactionRequest, WatchEventsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver } from '../support/clients.js';
import { removeDir } from '../support/gateway.js';
import { parseMetrics, valueOf } from '../support/metrics.js';
import { SANDBOX_THREAD_NAME } from '../../server/sandbox/pspThread.js';
import { portFor, spawnGateway, threadIds } from '../support/process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'gateway-main-'));
let child: ChildProcess | undefined;
afterAll(() => {
  child?.kill('SIGKILL');
  removeDir(dataDir);
});

const port = portFor;
const run = promisify(execFile);

it('npm start: prints a generated token, the first admin, the SANDBOX account and an example; SIGTERM ends streams and exits 0', async () => {
  const gateway = await spawnGateway({
    DATA_DIR: dataDir,
    GRPC_PORT: port(1),
    HTTP_PORT: port(2),
    WEBHOOK_PORT: port(3),
    SANDBOX_PORT: port(4),
    API_TOKENS: '',
    DATABASE_URL: '',
  });
  child = gateway.child;
  const output = gateway.output();
  const exited = gateway.exited;

  const token = /API token\s+(\S+)/.exec(output)?.[1];
  const accountId = /SANDBOX account id\s+(\S+)/.exec(output)?.[1];
  expect(token).toBeDefined();
  expect(accountId).toMatch(/^[0-9a-f-]{36}$/);
  expect(output).toContain(`-H 'authorization: Bearer ${token}'`);
  expect(output).toContain(`"providerAccountId":"${accountId}"`);

  const [, email, password] = /First admin\s+(\S+) \/ (\S+)/.exec(output) ?? [];
  expect(email).toBe('admin@localhost');
  const signedIn = await fetch(`http://127.0.0.1:${port(2)}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  expect(signedIn.status).toBe(200);

  const client = grpcDriver(`127.0.0.1:${port(1)}`, token!);
  const { transaction } = await client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction: { amount: 100, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX } }),
  );
  expect(transaction.id).toBeDefined();
  // The SANDBOX PSP answered from its own thread, off the gateway's event loop.
  expect(threadIds(child.pid!, SANDBOX_THREAD_NAME)).toHaveLength(1);

  const metricsUrl = /Metrics\s+(\S+)/.exec(output)?.[1];
  expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
  const scraped = parseMetrics(await (await fetch(metricsUrl!)).text());
  expect(valueOf(scraped, 'gateway_rpc_requests_total', { method: 'gateway.v1.PaymentGatewayService/CreateTransaction', code: 'OK' })).toBe(1);

  // The printed example, pasted twice into a shell: two new charges (a fresh idempotency key each time), no QR image dumped.
  const example = output.slice(output.indexOf('  curl -s'), output.indexOf("}}'", output.indexOf('  curl -s')) + 3);
  const runExample = async () =>
    JSON.parse((await run('bash', ['-c', example])).stdout) as { transaction: { id: string; status: string; pixCode: string; pixQrCode?: string } };
  const [first, second] = [await runExample(), await runExample()];
  expect(first.transaction.id).not.toBe(second.transaction.id);
  for (const { transaction: made } of [first, second]) {
    expect(made).toMatchObject({ status: 'TRANSACTION_STATUS_PENDING', pixCode: expect.stringMatching(/^000201/) });
    expect(made.pixQrCode ?? '').toBe('');
  }

  const watch = client.watch(WatchEventsRequest.fromPartial({ afterEventId: '0', providerAccountIds: [] }));
  expect((await watch.next()).event.subjectId).toBe(transaction.id);
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  client.close();
}, 90_000);
