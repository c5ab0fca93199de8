import { createServer } from 'node:net';
import { afterEach, expect, it } from '@jest/globals';
import { SandboxPspThread } from '../../server/sandbox/pspThread.js';
import { closedPort } from '../support/closedPort.js';
import { eventually } from '../support/eventually.js';
import { capturedLogger } from '../support/logCapture.js';

const CRASHED = 'the sandbox PSP thread stopped unexpectedly: starting it again';
let running: SandboxPspThread | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

it("relays the thread's log lines through the gateway's logger", async () => {
  const log = capturedLogger('info');
  running = await new SandboxPspThread({ settleDelayMs: 10 }, log.logger).start();
  // A payout settles after 10 ms and its notification finds nobody listening: the PSP warns, in its thread.
  const response = await fetch(`${running.url}/v1/withdrawals`, {
    method: 'POST',
    headers: { authorization: 'Bearer key', 'content-type': 'application/json' },
    body: JSON.stringify({ amount: 100, pixKey: 'someone@example.com', notificationUrl: `http://127.0.0.1:${await closedPort()}/hook` }),
  });
  expect(response.status).toBe(201);
  const warning = await eventually(
    async () => log.records().find((record) => record.msg === 'sandbox PSP could not deliver a notification'),
    10_000,
    'the warning',
  );
  expect(warning).toMatchObject({ level: 40, type: 'withdrawal.paid' });
});

it('waits longer before each start while the thread keeps dying', async () => {
  const log = capturedLogger('info');
  running = await new SandboxPspThread({}, log.logger).start();
  const url = running.url;
  await running.kill();
  await eventually(async () => running!.restarts === 1, 10_000, 'the first restart');
  await running.kill();
  await eventually(async () => running!.restarts === 2, 10_000, 'the second restart');
  expect(
    log
      .records()
      .filter((record) => record.msg === CRASHED)
      .map((record) => record.restartInMs),
  ).toEqual([250, 500]);
  expect(running.url).toBe(url);
  expect((await fetch(`${url}/v1/installments?amount=1000`, { headers: { authorization: 'Bearer key' } })).status).toBe(200);
});

it('a first start that fails fails the start, and is not tried again', async () => {
  const log = capturedLogger('info');
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  try {
    const port = (taken.address() as { port: number }).port;
    await expect(new SandboxPspThread({ host: '127.0.0.1', port }, log.logger).start()).rejects.toThrow(/EADDRINUSE/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(log.records().filter((record) => record.msg === CRASHED)).toEqual([]);
  } finally {
    await new Promise((resolve) => taken.close(resolve));
  }
});
