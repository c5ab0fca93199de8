import { readdirSync, readFileSync } from 'node:fs';
import { expect, it } from '@jest/globals';
import { createRegistry } from '../../server/providers/catalog.js';
import { DeclaredAdapter } from '../../server/providers/kit/declaredAdapter.js';
import { evidenceCounts, renderProviderCatalogue } from '../../server/providers/catalogueDoc.js';

it('docs/providers.md is the catalogue generated from the declarations (run `npm run docs:providers` after changing a provider)', async () => {
  const generated = renderProviderCatalogue(await createRegistry({ sandboxUrl: 'http://127.0.0.1:8090' }));
  expect(readFileSync(new URL('../../docs/providers.md', import.meta.url), 'utf8')).toBe(generated);
});

it('lists every registered provider with its family, auth, money and sources', async () => {
  const registry = await createRegistry({ sandboxUrl: 'http://127.0.0.1:8090' });
  const doc = renderProviderCatalogue(registry);
  for (const adapter of registry.list()) expect(doc).toContain(`| ${adapter.identity.id}`);
  expect(doc).toMatch(
    /\| VOLUTI \| document 2 \(group 2\) \| BACEN API Pix(; api_version [^|]*)? \| [a-z-]+(: .*)? \| PIX \| PIX \| .* \| OAuth2 client credentials \(`\/oauth\/token`\) \| reais \| PIX 1 day \|/,
  );
});

it("names a login session's path as the auth of providers that log in, beside any declared header", async () => {
  const doc = renderProviderCatalogue(await createRegistry({ sandboxUrl: 'http://127.0.0.1:8090' }));
  const authOf = (id: string) =>
    doc
      .split('\n')
      .find((line) => line.startsWith(`| ${id} `))
      ?.split(' | ')[7];
  expect(authOf('VELTRAX')).toBe('login `/api/auth/login` → Bearer');
  expect(authOf('LEXXEN')).toBe('login `/auth` → Bearer');
  expect(authOf('WITETEC')).toBe('header `x-api-key`; login `/withdrawals/auth` → Bearer');
});

it('calls a provider documented or platform only when a stand-in written from those addresses runs in the suite', async () => {
  const registry = await createRegistry({ sandboxUrl: 'http://127.0.0.1:8090' });
  const verified = registry.list().filter((adapter) => ['documented', 'platform'].includes(adapter.evidence.level));
  // A stand-in test names the providers it verifies (tests/standins/<id>.test.ts, or one shared by a platform's members).
  const standIns = readdirSync(new URL('../standins/', import.meta.url))
    .filter((file) => file.endsWith('.test.ts'))
    .map((file) => readFileSync(new URL(`../standins/${file}`, import.meta.url), 'utf8'));
  for (const adapter of verified) {
    const named = standIns.some((source) => new RegExp(`\\b${adapter.identity.id}\\b`).test(source));
    expect([adapter.identity.id, named]).toEqual([adapter.identity.id, true]);
    expect(adapter.evidence.addresses.length).toBeGreaterThan(0);
    for (const address of adapter.evidence.addresses) expect(address).toMatch(/^https:\/\/\S+$/);
  }
  for (const adapter of registry.list().filter((adapter) => !verified.includes(adapter))) expect(adapter.evidence.addresses).toEqual([]);
});

it('says in its sources why a provider stands on third-party material or on the specification alone', async () => {
  const registry = await createRegistry({ sandboxUrl: 'http://127.0.0.1:8090' });
  const declared = registry.list().filter((adapter): adapter is DeclaredAdapter => adapter instanceof DeclaredAdapter);
  const reasonOf = (level: string) =>
    declared.filter((adapter) => adapter.evidence.level === level).map((adapter) => [adapter.identity.id, adapter.catalogue.sources] as const);
  // Third-party: the sources name the research (integration code) or the platform it is thought to run on.
  const thirdParty = reasonOf('third-party');
  expect(thirdParty.length).toBeGreaterThan(0);
  for (const [id, sources] of thirdParty) expect([id, /research|integration|platform/i.test(sources)]).toEqual([id, true]);
  // Specification-only: the sources say no public material was found.
  const specificationOnly = reasonOf('specification-only');
  expect(specificationOnly.length).toBeGreaterThan(0);
  for (const [id, sources] of specificationOnly) expect([id, /no public (api )?(material|found)|none found|found only/i.test(sources)]).toEqual([id, true]);
});

it("the README's count of providers by evidence is the catalogue's", async () => {
  const counts = evidenceCounts(await createRegistry({ sandboxUrl: 'http://127.0.0.1:8090' }));
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const line = readme.split('\n').find((text) => text.startsWith('Evidence of the providers:'));
  expect(line).toBe(`Evidence of the providers: ${counts.map(([level, count]) => `${level} ${count}`).join(', ')}.`);
});
