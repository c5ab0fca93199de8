import { request } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { removeDir } from '../support/gateway.js';
import { createTestDatabase } from '../support/postgres.js';
import { portFor, spawnGateway, type GatewayProcess } from '../support/process.js';
import { eventually } from '../support/eventually.js';

/** The real process (`npm start`), with faults fired from a preloaded module: what a supervisor would see. */
/** The card number tests/support/faultInjection.ts puts into its errors. */
const FAULT_CARD_NUMBER = '4111111111111111';
const dataDir = mkdtempSync(join(tmpdir(), 'gateway-resilience-'));
let database: { url: string; drop(): Promise<void> };
let gateway: GatewayProcess;
const ports = { grpc: portFor(21), http: portFor(22), webhooks: portFor(23), sandbox: portFor(24) };

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await spawnGateway(
    {
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      API_TOKENS: 'resilience-token',
      GRPC_PORT: ports.grpc,
      HTTP_PORT: ports.http,
      WEBHOOK_PORT: ports.webhooks,
      SANDBOX_PORT: ports.sandbox,
      LOG_LEVEL: 'info',
    },
    60_000,
    ['./tests/support/faultInjection.ts'],
  );
}, 90_000);

afterAll(async () => {
  gateway?.child.kill('SIGKILL');
  await database?.drop();
  removeDir(dataDir);
});

/** A raw request: the path goes on the wire exactly as written (no client-side normalising). */
function send(port: string, method: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: Number(port), method, path, headers: { 'content-type': 'application/json' } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

const alive = async () => (await send(ports.http, 'GET', '/healthz')).status === 200 && (await send(ports.webhooks, 'GET', '/healthz')).status === 200;

it('a malformed percent-escape is a 400 on the back-office and on the sidecar, and the process keeps serving', async () => {
  expect((await send(ports.http, 'GET', '/%E0%A4%A')).status).toBe(400);
  expect((await send(ports.webhooks, 'POST', '/webhooks/%E0%A4%A/x')).status).toBe(400);
  expect((await send(ports.webhooks, 'POST', '/webhooks/SANDBOX/%E0%A4%A')).status).toBe(400);
  expect((await send(ports.webhooks, 'POST', '//')).status).toBe(400);
  expect(await alive()).toBe(true);
});

it('an unhandled rejection is logged with the card number redacted, and the process keeps serving', async () => {
  gateway.child.kill('SIGUSR2');
  await eventually(async () => gateway.output().includes('unhandled promise rejection'));
  expect(gateway.output()).toContain('injected rejection');
  expect(gateway.output()).not.toContain(FAULT_CARD_NUMBER);
  expect(await alive()).toBe(true);
});

it('an uncaught exception is logged, shuts the gateway down gracefully and exits 1 for a supervisor to restart it', async () => {
  gateway.child.kill('SIGHUP');
  expect(await gateway.exited).toBe(1);
  const output = gateway.output();
  expect(output).toContain('uncaught exception');
  expect(output).toContain('injected exception');
  expect(output).toContain('shutting down');
  expect(output).not.toContain(FAULT_CARD_NUMBER);
}, 60_000);
