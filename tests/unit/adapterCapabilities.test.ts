import { expect, it } from '@jest/globals';
import { canSimulatePayments, capabilitiesOf, ProviderAdapter, SPEC_GROUPS, type ProviderIdentity } from '../../server/providers/adapter.js';
import { SandboxAdapter } from '../../server/providers/sandbox/adapter.js';
import { TransactionsApiAdapter } from '../../server/providers/families/transactionsApi/index.js';
import { PAGUESAFE } from '../../server/providers/members/paguesafe.js';

class Bare extends ProviderAdapter {
  readonly identity: ProviderIdentity = { id: 'BARE', aliases: [], specGroup: SPEC_GROUPS.GATEWAY, defaultBaseUrl: 'http://127.0.0.1:1' };
  readonly capabilities = capabilitiesOf({ paymentMethods: ['PIX'] });
}

it('payment simulation is a capability an adapter has, not a class the use case names', () => {
  expect(canSimulatePayments(new SandboxAdapter('http://127.0.0.1:1'))).toBe(true);
  expect(canSimulatePayments(new TransactionsApiAdapter(PAGUESAFE))).toBe(false);
  expect(canSimulatePayments(new Bare())).toBe(false);
  const simulating = Object.assign(new Bare(), {
    simulatePayment: async () => ({ transaction: { paymentMethod: 'PIX' as const, transactionId: 'x', status: 'APPROVED' as const, amount: 1 } }),
  });
  expect(canSimulatePayments(simulating)).toBe(true);
});
