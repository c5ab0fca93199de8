import { expect, it } from '@jest/globals';
import { capabilitiesOf, ProviderAdapter, SPEC_GROUPS, type ProviderIdentity } from '../../server/providers/adapter.js';
import { ProviderRegistry } from '../../server/providers/registry.js';
import { SandboxAdapter } from '../../server/providers/sandbox/adapter.js';
import type { Operation, TransactionResult } from '../../server/domain/types.js';

class PixOnly extends ProviderAdapter {
  readonly identity: ProviderIdentity = { id: 'PIXONLY', aliases: ['PIX_ONLY'], specGroup: SPEC_GROUPS.GATEWAY, defaultBaseUrl: 'http://127.0.0.1:1' };
  readonly capabilities = capabilitiesOf({ paymentMethods: ['PIX'] });
  override async createTransaction(): Promise<TransactionResult> {
    return { paymentMethod: 'PIX', transactionId: 'x', status: 'PENDING', amount: 1 };
  }
}

it('derives the supported operations from the declared capabilities; the rest reject with the spec text, as promises', async () => {
  const adapter = new PixOnly();
  expect(adapter.operations).toEqual(['createTransaction', 'getTransaction']);
  let pending: Promise<unknown> | undefined;
  expect(() => (pending = adapter.withdraw({} as never, {} as never))).not.toThrow();
  await expect(pending).rejects.toThrow('Method not implemented.');
  await expect(adapter.getAccountBalance({} as never)).rejects.toThrow('Method not implemented.');
  // The sandbox offers every operation: the contract's eleven and the balance read.
  expect(new SandboxAdapter('http://127.0.0.1:1').operations).toHaveLength(12);
});

it('offers getTransaction with payments unless the declaration says the provider has no read, and never without payments', () => {
  const noRead = Object.assign(new PixOnly(), { capabilities: capabilitiesOf({ paymentMethods: ['PIX'], transactionLookup: false }) });
  expect(noRead.operations).toEqual(['createTransaction']);
  expect(capabilitiesOf({ paymentMethods: [], transactionLookup: true }).transactionLookup).toBe(false);
});

it('works the operations out once per declaration (asked several times a charge), as a list no caller can change', () => {
  const adapter = new PixOnly();
  expect(adapter.operations).toBe(adapter.operations);
  expect(() => (adapter.operations as Operation[]).push('withdraw')).toThrow(TypeError);
  expect(adapter.supports('withdraw')).toBe(false);
});

it('refuses a payment method the capabilities do not list, with the provider named', () => {
  expect(() => new PixOnly().assertPaymentMethod('BILLET')).toThrow('Payment method not supported by PIXONLY');
  expect(() => new PixOnly().assertPaymentMethod('PIX')).not.toThrow();
});

it('finds adapters by id or alias, case-insensitively, and refuses duplicates', () => {
  const registry = new ProviderRegistry().register(new PixOnly());
  expect(registry.find('pix_only')?.identity.id).toBe('PIXONLY');
  expect(registry.find('PixOnly')?.identity.id).toBe('PIXONLY');
  expect(registry.find('OTHER')).toBeUndefined();
  expect(() => registry.register(new PixOnly())).toThrow('registered twice');
});
