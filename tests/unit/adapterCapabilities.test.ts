import { expect, it } from '@jest/globals';
import { canSimulatePayments, ProviderAdapter, type ProviderIdentity } from '../../server/providers/adapter.js';
import { SandboxAdapter } from '../../server/providers/sandbox/adapter.js';
import { PaguesafeAdapter } from '../../server/providers/paguesafe.js';

class Bare extends ProviderAdapter {
  readonly identity: ProviderIdentity = {
    id: 'BARE',
    aliases: [],
    specGroup: 'test',
    paymentMethods: ['PIX'],
    withdrawMethods: [],
    defaultBaseUrl: 'http://127.0.0.1:1',
  };
}

it('payment simulation is a capability an adapter has, not a class the use case names', () => {
  expect(canSimulatePayments(new SandboxAdapter('http://127.0.0.1:1'))).toBe(true);
  expect(canSimulatePayments(new PaguesafeAdapter())).toBe(false);
  expect(canSimulatePayments(new Bare())).toBe(false);
  const simulating = Object.assign(new Bare(), {
    simulatePayment: async () => ({ transaction: { paymentMethod: 'PIX' as const, transactionId: 'x', status: 'APPROVED' as const, amount: 1 } }),
  });
  expect(canSimulatePayments(simulating)).toBe(true);
});
