import { expect, it } from '@jest/globals';
import { ProviderAdapter, type ProviderIdentity } from '../../server/providers/adapter.js';
import { ProviderRegistry } from '../../server/providers/registry.js';
import { SandboxAdapter } from '../../server/providers/sandbox/adapter.js';
import type { TransactionResult } from '../../server/domain/types.js';

class PixOnly extends ProviderAdapter {
  readonly identity: ProviderIdentity = {
    id: 'PIXONLY',
    aliases: ['PIX_ONLY'],
    specGroup: 'test',
    paymentMethods: ['PIX'],
    withdrawMethods: [],
    defaultBaseUrl: 'http://127.0.0.1:1',
  };
  override async createTransaction(): Promise<TransactionResult> {
    return { paymentMethod: 'PIX', transactionId: 'x', status: 'PENDING', amount: 1 };
  }
}

it('derives supported operations from what an adapter overrides; the rest throw the spec text', () => {
  const adapter = new PixOnly();
  expect(adapter.operations).toEqual(['createTransaction']);
  expect(() => adapter.withdraw({} as never, {} as never)).toThrow('Method not implemented.');
  expect(new SandboxAdapter('http://127.0.0.1:1').operations).toHaveLength(11);
});

it('finds adapters by id or alias, case-insensitively, and refuses duplicates', () => {
  const registry = new ProviderRegistry().register(new PixOnly());
  expect(registry.find('pix_only')?.identity.id).toBe('PIXONLY');
  expect(registry.find('PixOnly')?.identity.id).toBe('PIXONLY');
  expect(registry.find('OTHER')).toBeUndefined();
  expect(() => registry.register(new PixOnly())).toThrow('registered twice');
});
