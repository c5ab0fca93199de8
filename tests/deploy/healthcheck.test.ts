import { execFile } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { closedPort } from '../support/closedPort.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/** The container's health check (deploy/Dockerfile's HEALTHCHECK, deploy/compose.yaml's) against a running gateway. */
let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});

afterAll(async () => {
  await stack?.close();
});

const portOf = (address: string) => address.slice(address.lastIndexOf(':') + 1);

function healthcheck(target: string, env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['scripts/healthcheck.ts', target], { env: { ...process.env, ...env } }, (error, _stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stderr }),
    );
  });
}

it('answers healthy through the gRPC health service, and not where nothing serves', async () => {
  expect(await healthcheck('grpc', { GRPC_PORT: portOf(stack.gateway.grpcAddress!) })).toEqual({ code: 0, stderr: '' });
  expect(await healthcheck('grpc', { GRPC_PORT: String(await closedPort()) })).toEqual({ code: 1, stderr: 'grpc: not serving\n' });
});

it('answers healthy through GET /healthz for the roles without gRPC', async () => {
  const gateway = stack.gateway;
  expect((await healthcheck('connect', { HTTP_PORT: new URL(gateway.httpUrl!).port })).code).toBe(0);
  expect((await healthcheck('webhooks', { WEBHOOK_PORT: new URL(gateway.webhookUrl!).port })).code).toBe(0);
  expect((await healthcheck('metrics', { METRICS_PORT: new URL(gateway.metricsUrl!).port })).code).toBe(0);
  expect((await healthcheck('webhooks', { WEBHOOK_PORT: String(await closedPort()) })).code).toBe(1);
});

it('refuses a target it does not know', async () => {
  expect((await healthcheck('sandbox', {})).code).toBe(2);
});
