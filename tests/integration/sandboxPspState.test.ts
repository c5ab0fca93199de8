import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually } from '../support/eventually.js';
import { SandboxPsp } from '../../server/sandbox/psp.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-state-'));
const stateFile = join(dir, 'state.json');
const API_KEY = 'sk_live_looking_secret_0123456789';
let psp: SandboxPsp;

beforeAll(async () => {
  psp = await new SandboxPsp({ stateFile }).start();
});
afterAll(async () => {
  await psp.stop();
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${psp.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${API_KEY}`, 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

it('keeps no API key in clear in its state file, and a restart still serves the same merchant', async () => {
  const created = (await (await post('/v1/charges', { amount: 1000, method: 'pix' })).json()) as { id: string };
  // Saved in the background, and by stop() at the latest.
  await eventually(async () => existsSync(stateFile) && readFileSync(stateFile, 'utf8').includes(created.id));
  await psp.stop();
  expect(readFileSync(stateFile, 'utf8')).not.toContain(API_KEY);

  psp = await new SandboxPsp({ stateFile }).start();
  const again = await fetch(`${psp.url}/v1/charges/${created.id}`, { headers: { authorization: `Bearer ${API_KEY}` } });
  expect(again.status).toBe(200);
  const other = await fetch(`${psp.url}/v1/charges/${created.id}`, { headers: { authorization: 'Bearer someone-else' } });
  expect(other.status).toBe(404);
});

it('honours the Idempotency-Key header: the same key gets the same charge, never a second one', async () => {
  const first = (await (await post('/v1/charges', { amount: 2000, method: 'pix' }, { 'idempotency-key': 'order-77' })).json()) as { id: string };
  const second = await post('/v1/charges', { amount: 2000, method: 'pix' }, { 'idempotency-key': 'order-77' });
  expect(second.status).toBe(200);
  expect(((await second.json()) as { id: string }).id).toBe(first.id);
  const found = (await (await fetch(`${psp.url}/v1/charges?reference=order-77`, { headers: { authorization: `Bearer ${API_KEY}` } })).json()) as {
    data: unknown[];
  };
  expect(found.data).toHaveLength(1);
});
