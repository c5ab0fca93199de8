import { readFileSync } from 'node:fs';
import { expect, it } from '@jest/globals';
import { createRegistry } from '../../server/providers/catalog.js';
import { renderProviderCatalogue } from '../../server/providers/catalogueDoc.js';

it('docs/providers.md is the catalogue generated from the declarations (run `npm run docs:providers` after changing a provider)', async () => {
  const generated = renderProviderCatalogue(await createRegistry({ sandboxUrl: 'http://127.0.0.1:8090' }));
  expect(readFileSync(new URL('../../docs/providers.md', import.meta.url), 'utf8')).toBe(generated);
});

it('lists every registered provider with its family, auth, money and sources', async () => {
  const registry = await createRegistry({ sandboxUrl: 'http://127.0.0.1:8090' });
  const doc = renderProviderCatalogue(registry);
  for (const adapter of registry.list()) expect(doc).toContain(`| ${adapter.identity.id}`);
  expect(doc).toMatch(
    /\| VOLUTI \| document 2 \(group 2\) \| BACEN API Pix \| PIX \| PIX \| .* \| OAuth2 client credentials \(`\/oauth\/token`\) \| reais \| PIX 1 day \|/,
  );
});

it("names a login session's path as the auth of providers that log in, beside any declared header", async () => {
  const doc = renderProviderCatalogue(await createRegistry({ sandboxUrl: 'http://127.0.0.1:8090' }));
  const authOf = (id: string) =>
    doc
      .split('\n')
      .find((line) => line.startsWith(`| ${id} `))
      ?.split(' | ')[6];
  expect(authOf('VELTRAX')).toBe('login `/api/auth/login` → Bearer');
  expect(authOf('LEXXEN')).toBe('login `/auth` → Bearer');
  expect(authOf('WITETEC')).toBe('header `x-api-key`; login `/withdrawals/auth` → Bearer');
});
