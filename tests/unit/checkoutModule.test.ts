import { gzipSync } from 'node:zlib';
import { expect, it } from '@jest/globals';
import { bundleCheckout } from '../../server/transport/connect/checkoutFiles.js';

/** Issue 28, point 2: the browser tokenizer is one ES module, under 10 KB gzipped, needing nothing but fetch. */
it('is under 10 KB gzipped, as the gateway serves it, and imports nothing', async () => {
  const module = await bundleCheckout('checkout');
  expect(gzipSync(module, { level: 9 }).length).toBeLessThan(10 * 1024);
  const code = module.toString('utf8');
  expect(code).not.toMatch(/\bimport\s*[\w{*"'(]/);
  expect(code).toContain('Falha ao carregar o ShieldHelper');
  expect(code).toMatch(/export\s*\{/);
});
