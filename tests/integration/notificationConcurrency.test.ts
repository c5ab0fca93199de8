import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { loadConfig } from '../../server/config.js';
import { removeDir, startTestStack, type TestStack } from '../support/gateway.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';

/**
 * WEBHOOK_CONCURRENCY: how many notifications a worker round processes at once. Each unsigned PAGUESAFE postback is
 * confirmed with a read, and the fake holds every read until as many as the bound allows are under way (or all that
 * are left), then answers them together: the most reads it held at once is what the worker decided, whatever the
 * machine's speed. A worker that went past the bound would send more while they are held (GRACE_MS, so that a late
 * extra read is seen); one that stayed under it would leave them waiting until HOLD_MS and be counted short.
 */
const CHARGES = 6;
/** Far longer than a read takes to arrive on any machine, far shorter than the adapter's timeout (25 s). */
const HOLD_MS = 10_000;
const GRACE_MS = 100;

async function confirmReadsAtOnce(concurrency: number): Promise<number> {
  const timers = new Set<NodeJS.Timeout>();
  const stack: TestStack = await startTestStack({ env: { WEBHOOK_WORKERS: '0', WEBHOOK_CONCURRENCY: String(concurrency) } });
  const fake: FakeProvider = await startFakeProvider();
  try {
    const { providerAccount: account } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'PAGUESAFE',
      name: `concurrency ${concurrency}`,
      publicKey: 'pk',
      secretKey: 'sk',
      baseUrl: fake.url,
    });
    let next = 0;
    fake.expect({
      method: 'POST',
      path: '/transactions',
      times: CHARGES,
      reply: () => ({ body: { id: `ps_${++next}`, status: 'waiting_payment', amount: 1990, paymentMethod: 'boleto', boleto: { barcode: '0'.repeat(44) } } }),
    });
    const bound = Math.min(concurrency, CHARGES);
    let arrived = 0;
    let mostAtOnce = 0;
    let held: (() => void)[] = [];
    const releaseHeld = () => {
      const releasing = held;
      held = [];
      releasing.forEach((release) => release());
    };
    const hold = () =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(releaseHeld, HOLD_MS);
        timers.add(timer);
        held.push(() => {
          clearTimeout(timer);
          timers.delete(timer);
          resolve();
        });
        arrived += 1;
        mostAtOnce = Math.max(mostAtOnce, held.length);
        if (held.length === bound || arrived === CHARGES) timers.add(setTimeout(releaseHeld, GRACE_MS));
      });
    fake.expect({
      method: 'GET',
      path: /\/transactions\/ps_\d+/,
      times: CHARGES,
      reply: (request) => {
        const id = request.path.split('/').at(-1);
        return { until: hold(), body: { id, status: 'paid', amount: 1990, paymentMethod: 'boleto' } };
      },
    });
    for (let i = 0; i < CHARGES; i += 1) {
      const { transaction } = await stack.client.call(
        'gateway',
        'createTransaction',
        CreateTransactionRequest.fromPartial({
          providerAccountId: account.id,
          transaction: { amount: 1990, paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET },
        }),
      );
      const posted = await fetch(account.notificationUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          id: `pb_${i}`,
          type: 'transaction',
          objectId: transaction.transactionId,
          data: { id: transaction.transactionId, status: 'paid' },
        }),
      });
      expect(posted.status).toBe(200);
    }
    // No worker runs in the gateway (WEBHOOK_WORKERS=0): this round is the only one.
    expect(await stack.gateway.useCases!.notifications.processDue()).toBe(CHARGES);
    expect(arrived).toBe(CHARGES);
    return mostAtOnce;
  } finally {
    timers.forEach((timer) => clearTimeout(timer));
    await fake.close();
    await stack.close();
  }
}

describe('WEBHOOK_CONCURRENCY', () => {
  it('bounds the notifications a worker round processes at once', async () => {
    expect(await confirmReadsAtOnce(2)).toBe(2);
    expect(await confirmReadsAtOnce(8)).toBe(CHARGES);
  }, 120_000);

  it('is 8 unless set, and refuses 0', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'concurrency-config-'));
    try {
      const env = { DATA_DIR: dataDir };
      expect(loadConfig(env).webhookConcurrency).toBe(8);
      expect(loadConfig({ ...env, WEBHOOK_CONCURRENCY: '32' }).webhookConcurrency).toBe(32);
      expect(() => loadConfig({ ...env, WEBHOOK_CONCURRENCY: '0' })).toThrow('WEBHOOK_CONCURRENCY must be at least 1');
    } finally {
      removeDir(dataDir);
    }
  });
});
