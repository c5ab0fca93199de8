import { expect, it } from '@jest/globals';
import { capabilitiesOf, ProviderAdapter, SPEC_GROUPS, type ProviderIdentity } from '../../server/providers/adapter.js';
import { createRegistry, providerFactories } from '../../server/providers/catalog.js';
import { providerFactory, type ProviderFactory } from '../../server/providers/kit/registration.js';
import { observedRegistry } from '../../server/providers/observedCalls.js';
import { ProviderRegistry } from '../../server/providers/registry.js';
import { PaymentsService } from '../../server/gateway/payments.js';
import type { GatewayDeps } from '../../server/gateway/context.js';

class Acme extends ProviderAdapter {
  readonly capabilities = capabilitiesOf({ paymentMethods: ['PIX'] });
  constructor(readonly identity: ProviderIdentity) {
    super();
  }
}

const identity = (id: string, aliases: string[] = []): ProviderIdentity => ({
  id,
  aliases,
  specGroup: SPEC_GROUPS.GATEWAY,
  defaultBaseUrl: 'http://127.0.0.1:1',
});

/** A registry of ACME (alias ACME_OLD) and BETA, counting how often each adapter is built. */
function counted() {
  const builds: string[] = [];
  const registry = new ProviderRegistry()
    .registerLazily({ id: 'ACME', aliases: ['ACME_OLD'] }, () => (builds.push('ACME'), new Acme(identity('ACME', ['ACME_OLD']))))
    .registerLazily({ id: 'BETA' }, () => (builds.push('BETA'), new Acme(identity('BETA'))));
  return { builds, registry };
}

it('builds an adapter the first time it is found, by id or alias, and keeps it', () => {
  const { builds, registry } = counted();
  expect(builds).toEqual([]);
  const acme = registry.find('acme_old');
  expect(acme?.identity.id).toBe('ACME');
  expect(registry.find(' Acme ')).toBe(acme);
  expect(registry.find('OTHER')).toBeUndefined();
  expect(builds).toEqual(['ACME']);
  // list() builds the rest, and keeps them too.
  expect(registry.list().map((adapter) => adapter.identity.id)).toEqual(['ACME', 'BETA']);
  expect(registry.list()[1]).toBe(registry.find('beta'));
  expect(builds).toEqual(['ACME', 'BETA']);
});

it('refuses a key registered twice, built or not', () => {
  const { registry } = counted();
  expect(() => registry.registerLazily({ id: 'beta' }, () => new Acme(identity('BETA')))).toThrow('provider BETA is registered twice');
  expect(() => registry.register(new Acme(identity('OTHER', ['ACME_OLD'])))).toThrow('provider ACME_OLD is registered twice');
});

it('refuses an adapter built with another identity than the keys it was registered by', () => {
  const registry = new ProviderRegistry()
    .registerLazily({ id: 'ACME' }, () => new Acme(identity('BETA')))
    .registerLazily({ id: 'GAMMA' }, () => new Acme(identity('GAMMA', ['G'])));
  expect(() => registry.find('ACME')).toThrow('provider ACME was registered as ACME but built as BETA');
  expect(() => registry.survey((adapter) => adapter.identity.id)).toThrow('registered as ACME but built as BETA');
  expect(() => registry.find('GAMMA')).toThrow('provider GAMMA was registered as GAMMA but built as GAMMA, G');
});

it('surveys every adapter without keeping the ones not built yet', () => {
  const { builds, registry } = counted();
  const acme = registry.find('ACME');
  expect(registry.survey((adapter) => adapter.identity.id)).toEqual(['ACME', 'BETA']);
  expect(builds).toEqual(['ACME', 'BETA']);
  // ACME was kept before; BETA was built for the survey only, so finding it builds it again.
  expect(registry.find('BETA')).toBeDefined();
  expect(builds).toEqual(['ACME', 'BETA', 'BETA']);
  expect(registry.find('ACME')).toBe(acme);
});

it('maps a registry lazily: an adapter and its transform are built when first found there', () => {
  const { builds, registry } = counted();
  const transformed: string[] = [];
  const mapped = registry.mapped((adapter) => (transformed.push(adapter.identity.id), adapter));
  expect(builds).toEqual([]);
  expect(mapped.find('acme_old')).toBe(registry.find('ACME'));
  expect(mapped.find('ACME')).toBe(registry.find('ACME'));
  expect([builds, transformed]).toEqual([['ACME'], ['ACME']]);
  // A survey of the mapped registry reads the declarations without building (or keeping) the transform.
  expect(mapped.survey((adapter) => adapter.identity.id)).toEqual(['ACME', 'BETA']);
  expect([builds, transformed]).toEqual([['ACME', 'BETA'], ['ACME']]);
  const observed = observedRegistry(registry, { providerCall: () => undefined });
  expect(observed.find('BETA')?.identity.id).toBe('BETA');
  expect(builds).toEqual(['ACME', 'BETA', 'BETA']);
});

it('gives every member module of the catalogue the keys its adapter is built with', async () => {
  const factories = await providerFactories();
  const built: string[] = [];
  const counting = factories.map((factory): ProviderFactory => providerFactory(factory.keys, (settings) => (built.push(factory.keys.id), factory(settings))));
  const registry = await createRegistry({ sandboxUrl: 'http://127.0.0.1:1' }, counting);
  expect(built).toEqual([]);
  expect(registry.find('sandbox')?.identity.id).toBe('SANDBOX');
  expect(built).toEqual(['SANDBOX']);
  // Building every one checks each against its keys (id and aliases).
  expect(registry.list()).toHaveLength(factories.length);
  expect(new Set(built).size).toBe(factories.length);
});

it('lists the catalogue once per process, without keeping the adapters no account uses', () => {
  const { builds, registry } = counted();
  const payments = new PaymentsService({ registry } as unknown as GatewayDeps);
  const first = payments.listProviders();
  expect(first.map((provider) => [provider.id, provider.aliases])).toEqual([
    ['ACME', ['ACME_OLD']],
    ['BETA', []],
  ]);
  expect(payments.listProviders()).toBe(first);
  expect(builds).toEqual(['ACME', 'BETA']);
  registry.find('ACME');
  expect(builds).toEqual(['ACME', 'BETA', 'ACME']);
});
