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
 * confirmed with a read that the fake answers after a delay, so the reads' arrival times show how many ran together.
 */
const CONFIRM_MS = 300;
const CHARGES = 6;

async function confirmReadsAtOnce(concurrency: number): Promise<number> {
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
    const arrivals: number[] = [];
    fake.expect({
      method: 'GET',
      path: /\/transactions\/ps_\d+/,
      times: CHARGES,
      reply: (request) => {
        arrivals.push(performance.now());
        const id = request.path.split('/').at(-1);
        return { delayMs: CONFIRM_MS, body: { id, status: 'paid', amount: 1990, paymentMethod: 'boleto' } };
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
    expect(arrivals).toHaveLength(CHARGES);
    // The most reads that arrived within one read's delay of each other: they were under way together.
    return Math.max(...arrivals.map((at) => arrivals.filter((other) => other >= at && other < at + CONFIRM_MS / 2).length));
  } finally {
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
