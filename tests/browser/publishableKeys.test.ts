import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { accessibilityViolations, backOfficePages, launchBrowser } from '../support/browser.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 28 §2 in the back-office: an admin creates a publishable key for one provider account and its shop's origin,
 * sees its secret once with the checkout snippet that uses it, finds it listed with its origin, and revokes it.
 */
let browser: Browser;
let stack: TestStack;

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);

beforeAll(async () => {
  stack = await startTestStack();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

it('an admin creates a publishable key for one account and origin, sees it listed with the checkout snippet, and revokes it', async () => {
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'Loja',
    publicKey: 'pk',
    secretKey: 'sk',
  });
  const { page, violations } = await pages.signedIn(1280, 900);
  await page.getByRole('navigation').getByRole('link', { name: 'Tokens de serviço', exact: true }).click();
  await page.getByRole('button', { name: 'Criar chave publicável' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: /^Nome/ }).fill('loja web');
  await dialog.getByLabel(/^Conta de provedor/).click({ force: true });
  await page.getByRole('option', { name: 'Loja (SANDBOX)' }).click();
  await dialog.getByRole('textbox', { name: /^Origens permitidas/ }).fill('https://loja.example\nhttp://127.0.0.1:8080');
  await dialog.getByRole('button', { name: 'Criar', exact: true }).click();

  const secret = (await dialog.getByTestId('token-secret').textContent())!;
  expect(secret).toMatch(/^gwpk_/);
  const snippet = (await dialog.getByTestId('checkout-snippet').textContent())!;
  expect(snippet).toContain(`publishableKey: '${secret}'`);
  expect(snippet).toContain(`providerAccountId: '${providerAccount.id}'`);
  expect(snippet).toContain(`from '${stack.gateway.httpUrl}/checkout/checkout.js'`);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await dialog.getByRole('button', { name: 'Concluir' }).click();

  const row = page.getByTestId('tokens-table').locator('[data-name="loja web"]');
  await row.getByTestId('allowed-origins').getByText('Chave publicável: https://loja.example, http://127.0.0.1:8080').waitFor();
  await row.getByText('cards:tokenize').waitFor();
  await row.getByRole('cell', { name: 'Loja', exact: true }).waitFor();
  const { tokens } = await stack.client.call('access', 'listServiceTokens', {});
  expect(tokens.find((token: { name: string }) => token.name === 'loja web')).toMatchObject({
    scopes: ['cards:tokenize'],
    providerAccountIds: [providerAccount.id],
    allowedOrigins: ['https://loja.example', 'http://127.0.0.1:8080'],
  });

  await row.getByRole('button', { name: 'Revogar: loja web' }).click();
  await dialog.getByRole('button', { name: 'Revogar' }).click();
  await row.waitFor({ state: 'detached' });
  await pages.finish(page, violations, 'publishable-key-1280px');
}, 90_000);
