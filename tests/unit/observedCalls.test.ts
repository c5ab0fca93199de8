import { expect, it } from '@jest/globals';
import { capabilitiesOf, ProviderAdapter, SPEC_GROUPS, type AdapterContext, type ProviderIdentity } from '../../server/providers/adapter.js';
import { observedRegistry, providerCallOutcome, type ProviderCall } from '../../server/providers/observedCalls.js';
import { ProviderRegistry } from '../../server/providers/registry.js';
import { GatewayError } from '../../server/lib/errors.js';
import type { TransactionInput, TransactionResult } from '../../server/domain/types.js';

class Acme extends ProviderAdapter {
  readonly identity: ProviderIdentity = { id: 'ACME', aliases: ['ACME-OLD'], specGroup: SPEC_GROUPS.GATEWAY, defaultBaseUrl: 'http://127.0.0.1:1' };
  readonly capabilities = capabilitiesOf({ paymentMethods: ['PIX'] });
  calls = 0;
  next: () => Promise<TransactionResult> = async () => ({ paymentMethod: 'PIX', transactionId: 't1', status: 'PENDING', amount: 100 });

  override createTransaction(_ctx: AdapterContext, _input: TransactionInput): Promise<TransactionResult> {
    this.calls += 1;
    return this.next();
  }
}

const ctx = {} as AdapterContext;
const input = { amount: 100, paymentMethod: 'PIX' } as TransactionInput;

function observedAcme() {
  const acme = new Acme();
  const calls: ProviderCall[] = [];
  const registry = observedRegistry(new ProviderRegistry().register(acme), { providerCall: (call) => calls.push(call) });
  return { acme, calls, adapter: registry.find('acme-old')! };
}

it('reports each call of an offered operation with its provider id, operation, outcome and duration', async () => {
  const { acme, calls, adapter } = observedAcme();
  await expect(adapter.createTransaction(ctx, input)).resolves.toMatchObject({ transactionId: 't1' });
  acme.next = () => Promise.reject(new GatewayError('INVALID_ARGUMENT', 'Erro ao criar transação: CPF inválido', { outcome: 'failed' }));
  await expect(adapter.createTransaction(ctx, input)).rejects.toThrow('CPF inválido');
  expect(calls).toEqual([
    { provider: 'ACME', operation: 'createTransaction', outcome: 'ok', seconds: expect.any(Number) },
    { provider: 'ACME', operation: 'createTransaction', outcome: 'rejected', seconds: expect.any(Number) },
  ]);
  // The adapter itself ran, as itself.
  expect(acme.calls).toBe(2);
  expect(adapter).toBeInstanceOf(Acme);
  expect(adapter.identity.id).toBe('ACME');
});

it('does not report operations the adapter does not offer (no provider is called), nor what is not a call', async () => {
  const { calls, adapter } = observedAcme();
  await expect(adapter.withdraw(ctx, {} as never)).rejects.toThrow('Method not implemented.');
  expect(adapter.verifyNotification(ctx, { body: Buffer.from('{}'), headers: {} })).toBe('unsigned');
  expect(adapter.supports('createTransaction')).toBe(true);
  expect(calls).toEqual([]);
});

it('names the outcome of a failure by what the provider may have done', () => {
  const failure = (code: GatewayError['code'], details: GatewayError['details'] = {}) => new GatewayError(code, 'x', details);
  expect(providerCallOutcome(failure('UNAVAILABLE', { reason: 'PROVIDER_CIRCUIT_OPEN', outcome: 'failed' }))).toBe('circuit_open');
  expect(providerCallOutcome(failure('UNAVAILABLE', { reason: 'PROVIDER_UNAVAILABLE', outcome: 'failed' }))).toBe('unavailable');
  expect(providerCallOutcome(failure('UNAVAILABLE', { reason: 'PROVIDER_UNAVAILABLE', outcome: 'unknown' }))).toBe('unknown');
  expect(providerCallOutcome(failure('UNAVAILABLE'))).toBe('unknown');
  expect(providerCallOutcome(failure('NOT_FOUND', { reason: 'PROVIDER_NOT_FOUND', outcome: 'failed' }))).toBe('rejected');
  expect(providerCallOutcome(failure('FAILED_PRECONDITION', { reason: 'PROVIDER_REJECTED_CREDENTIALS', outcome: 'failed' }))).toBe('rejected');
  expect(providerCallOutcome(new TypeError('a bug after the provider answered'))).toBe('unknown');
});
