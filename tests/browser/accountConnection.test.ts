import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CreateOperatorRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { accessibilityViolations, backOfficePages, chooseOption, launchBrowser, signInAs } from '../support/browser.js';
import { closedPort } from '../support/closedPort.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * The provider accounts' page (issue 33 §8): the form asks for each credential a provider declares by the provider's
 * own name; "Testar conexão" shows the verdict in the page's language, with what the provider said; a viewer sees no
 * button that changes or tests an account, and why.
 */
let browser: Browser;
let stack: TestStack;
let fake: FakeProvider;

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);
const VIEWER = { email: 'leitora-contas@example.com', password: 'uma senha longa de leitora' };

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
  fake = await startFakeProvider();
  const account = (provider: string, name: string, baseUrl?: string) =>
    stack.client.call('accounts', 'createProviderAccount', { provider, name, publicKey: 'pk', secretKey: 'sk-conexao', baseUrl });
  await account('SANDBOX', 'Sandbox em dia');
  await account('SANDBOX', 'Sandbox fora do ar', `http://127.0.0.1:${await closedPort()}`);
  await account('PAGUESAFE', 'PagueSafe chave vencida', fake.url);
  fake.expect({
    method: 'GET',
    path: /^\/transactions\/gateway-connection-test-[0-9a-f-]+$/,
    times: 2,
    reply: { status: 401, body: { message: 'Invalid API key' } },
  });
  await stack.client.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ email: VIEWER.email, role: 'viewer', password: VIEWER.password }));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await fake?.close();
  await stack?.close();
});

async function testAccount(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: new RegExp(`^(Testar conexão|Test connection) ${name}$`) }).click();
}

it('an admin tests accounts: accepted, refused with what the provider said, unreachable; in Portuguese and in English', async () => {
  const { page, violations } = await pages.signedIn(1280, 900);
  await page.goto(`${stack.gateway.httpUrl}/#/accounts`);
  const result = page.getByTestId('connection-result');

  await testAccount(page, 'Sandbox em dia');
  await result.getByText('Conexão bem-sucedida: o provedor aceitou as credenciais da conta.').waitFor();
  await expect(result.getByText('Conexão de Sandbox em dia').isVisible()).resolves.toBe(true);
  await expect(page.getByTestId('connection-detail').count()).resolves.toBe(0);

  await testAccount(page, 'PagueSafe chave vencida');
  await result.getByText('O provedor recusou as credenciais da conta. Confira as chaves.').waitFor();
  await expect(page.getByTestId('connection-detail').textContent()).resolves.toMatch(/^Resposta: .*Invalid API key/);

  await testAccount(page, 'Sandbox fora do ar');
  await result.getByText(/^Não foi possível falar com o provedor/).waitFor();
  await expect(accessibilityViolations(page)).resolves.toEqual([]);

  await page.getByText('EN', { exact: true }).click();
  await testAccount(page, 'PagueSafe chave vencida');
  await result.getByText("The provider refused the account's credentials. Check the keys.").waitFor();
  await expect(page.getByTestId('connection-detail').textContent()).resolves.toMatch(/^Answer: .*Invalid API key/);
  fake.assertAllDone();
  await pages.finish(page, violations, 'accounts-connection-test');
});

it('at 390 px the verdict fits the width', async () => {
  const { page, violations } = await pages.signedIn(390, 844);
  await page.goto(`${stack.gateway.httpUrl}/#/accounts`);
  await testAccount(page, 'Sandbox em dia');
  await page
    .getByTestId('connection-result')
    .getByText(/^Conexão bem-sucedida/)
    .waitFor();
  await expect(page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).resolves.toBe(true);
  await pages.finish(page, violations, 'accounts-connection-test-390px');
});

it('a viewer sees the accounts, no button that creates, edits, deletes or tests one, and the permission it would need', async () => {
  const viewer = await pages.openPage(1280, 900);
  await signInAs(viewer.page, VIEWER.email, VIEWER.password);
  await viewer.page.getByTestId('operator').waitFor();
  await viewer.page.goto(`${stack.gateway.httpUrl}/#/accounts`);
  await viewer.page.locator('tr', { hasText: 'Sandbox em dia' }).waitFor();
  await expect(viewer.page.getByTestId('role-note').textContent()).resolves.toBe(
    'Seu papel não permite criar, editar, excluir nem testar contas de provedor (exige accounts:admin).',
  );
  await expect(viewer.page.getByRole('button', { name: /^(Nova conta|Editar|Excluir|Testar conexão)/ }).count()).resolves.toBe(0);
  await pages.finish(viewer.page, viewer.violations, 'accounts-viewer');
});

it("the form asks for a provider's packed credentials part by part, by its names, and stores them joined", async () => {
  const { page, violations } = await pages.signedIn(1280, 900);
  await page.goto(`${stack.gateway.httpUrl}/#/accounts`);
  await page.getByRole('button', { name: 'Nova conta' }).click();
  const dialog = page.getByRole('dialog');
  await chooseOption(page, dialog.getByRole('combobox', { name: /^Provedor/ }), 'OWEMPAY');
  // OWEMPAY packs apiKey|secret|accountId in the secret key and needs no public key.
  await dialog.getByLabel(/^apiKey/).waitFor();
  await expect(dialog.getByLabel(/^Chave secreta/).count()).resolves.toBe(0);
  await expect(dialog.getByText('Parte 3 de 3 da chave secreta, nos nomes do provedor').isVisible()).resolves.toBe(true);
  await expect(dialog.getByText('Opcional para este provedor').isVisible()).resolves.toBe(true);
  await dialog.getByRole('textbox', { name: 'Nome' }).fill('Owempay por partes');
  await dialog.getByLabel(/^apiKey/).fill('ak-1');
  await dialog.getByLabel(/^secret/).fill('sc-2');
  await dialog.getByLabel(/^accountId/).fill('acc-3');
  await dialog.getByRole('textbox', { name: 'URL base' }).fill(fake.url);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await dialog.waitFor({ state: 'detached' });

  // The stored key reaches the provider as OWEMPAY reads it: Basic apiKey:secret, and the account id in a header.
  fake.expect({
    method: 'GET',
    path: /^\/pix\/in\/dynamic-qrcode\/gateway-connection-test-[0-9a-f-]+$/,
    headers: { authorization: `Basic ${Buffer.from('ak-1:sc-2').toString('base64')}`, 'x-account-id': 'acc-3' },
    reply: { status: 404, body: { message: 'not found' } },
  });
  await testAccount(page, 'Owempay por partes');
  await page
    .getByTestId('connection-result')
    .getByText(/^Conexão bem-sucedida/)
    .waitFor();
  fake.assertAllDone();
  await pages.finish(page, violations, 'accounts-credential-parts');
});

it.each([
  [1280, 900],
  [390, 844],
])('at %i px an admin tests what the new-account form holds before saving: refused, then accepted, and nothing is stored', async (width, height) => {
  const { page, violations } = await pages.signedIn(width, height);
  await page.goto(`${stack.gateway.httpUrl}/#/accounts`);
  await page.getByRole('button', { name: 'Nova conta' }).click();
  const dialog = page.getByRole('dialog');
  await chooseOption(page, dialog.getByRole('combobox', { name: /^Provedor/ }), 'PAGUESAFE');
  const name = `PagueSafe antes de salvar ${width}`;
  await dialog.getByRole('textbox', { name: 'Nome' }).fill(name);
  await dialog.getByLabel(/^Chave pública/).fill('pk');
  await dialog.getByLabel(/^Chave secreta/).fill('sk-errada');
  await dialog.getByRole('textbox', { name: 'URL base' }).fill(fake.url);
  const probe = (secret: string, status: number, body: unknown) =>
    fake.expect({
      method: 'GET',
      path: /^\/transactions\/gateway-connection-test-[0-9a-f-]+$/,
      headers: { authorization: `Basic ${Buffer.from(`${secret}:x`).toString('base64')}` },
      reply: { status, body },
    });
  const result = dialog.getByTestId('connection-result');

  probe('sk-errada', 401, { message: 'Invalid API key' });
  await dialog.getByRole('button', { name: 'Testar conexão', exact: true }).click();
  await result.getByText('O provedor recusou as credenciais da conta. Confira as chaves.').waitFor();
  await expect(result.getByText(`Conexão de ${name}`).isVisible()).resolves.toBe(true);
  await expect(dialog.getByTestId('connection-detail').textContent()).resolves.toMatch(/Invalid API key/);

  await dialog.getByLabel(/^Chave secreta/).fill('sk-certa');
  probe('sk-certa', 404, { message: 'Transaction not found' });
  await dialog.getByRole('button', { name: 'Testar conexão', exact: true }).click();
  await result.getByText('Conexão bem-sucedida: o provedor aceitou as credenciais da conta.').waitFor();
  fake.assertAllDone();
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await expect(page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).resolves.toBe(true);

  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await dialog.waitFor({ state: 'detached' });
  const { providerAccounts } = await stack.client.call('accounts', 'listProviderAccounts', {});
  expect(providerAccounts.map((a: { name: string }) => a.name)).not.toContain(name);
  await pages.finish(page, violations, `accounts-connection-test-unsaved-${width}px`);
});

it('in the edit form "Testar conexão" tests the key typed over the stored one, and Cancelar leaves the account as it was', async () => {
  const { page, violations } = await pages.signedIn(1280, 900);
  await page.goto(`${stack.gateway.httpUrl}/#/accounts`);
  await page.getByRole('button', { name: 'Editar PagueSafe chave vencida' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Chave secreta/).fill('sk-renovada');
  fake.expect({
    method: 'GET',
    path: /^\/transactions\/gateway-connection-test-[0-9a-f-]+$/,
    headers: { authorization: `Basic ${Buffer.from('sk-renovada:x').toString('base64')}` },
    reply: { status: 404, body: { message: 'Transaction not found' } },
  });
  await dialog.getByRole('button', { name: 'Testar conexão', exact: true }).click();
  await dialog.getByTestId('connection-result').getByText('Conexão bem-sucedida: o provedor aceitou as credenciais da conta.').waitFor();
  fake.assertAllDone();
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await dialog.waitFor({ state: 'detached' });

  // The stored key is still the old one, which the provider refuses.
  fake.expect({
    method: 'GET',
    path: /^\/transactions\/gateway-connection-test-[0-9a-f-]+$/,
    headers: { authorization: `Basic ${Buffer.from('sk-conexao:x').toString('base64')}` },
    reply: { status: 401, body: { message: 'Invalid API key' } },
  });
  await testAccount(page, 'PagueSafe chave vencida');
  await page.getByTestId('connection-result').getByText('O provedor recusou as credenciais da conta. Confira as chaves.').waitFor();
  fake.assertAllDone();
  await pages.finish(page, violations, 'accounts-connection-test-edit');
});
