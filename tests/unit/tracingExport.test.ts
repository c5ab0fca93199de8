import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startTracing } from '../../server/observability/tracing.js';
import { capturedLogger } from '../support/logCapture.js';

/** A collector that refuses every export (400: not retried). */
const refusing = createServer((req, res) => req.resume().on('end', () => res.writeHead(400, { 'content-type': 'application/json' }).end('{}')));
let port: number;

beforeAll(async () => {
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  port = (refusing.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => refusing.close(() => resolve())));

it('is nothing without settings', async () => {
  await expect(startTracing(undefined, capturedLogger().logger)).resolves.toBeUndefined();
});

it('logs where spans go without the credentials or query of the address, and logs the exports that fail', async () => {
  const { logger, records } = capturedLogger();
  const tracing = (await startTracing(
    { url: `http://user:hunter2@127.0.0.1:${port}/v1/traces?key=secret`, serviceName: 'gw', scheduledDelayMs: 60_000 },
    logger,
  ))!;
  tracing.tracer.startSpan('a call').end();
  // Stopping sends what is waiting, and finishes even though the export fails.
  await tracing.close();

  const endpoint = `http://127.0.0.1:${port}/v1/traces`;
  expect(records()).toEqual([
    expect.objectContaining({ msg: 'tracing: spans are exported over OTLP', endpoint, serviceName: 'gw' }),
    expect.objectContaining({ msg: 'could not export spans', endpoint, spans: 1 }),
  ]);
  expect(JSON.stringify(records())).not.toMatch(/hunter2|secret/);
});
