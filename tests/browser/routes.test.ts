import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateOperatorRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { backOfficePages, launchBrowser } from '../support/browser.js';
import { closedPort } from '../support/closedPort.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 29 §4 in the back-office: an admin creates a route, previews where a charge would go, saves it; a charge
 * through it shows on the route's outcomes of the last 24 hours and its attempts on the charge's page. A viewer sees
 * routes and outcomes but no button that changes them; a refused save shows the gateway's reason.
 */
let browser: Browser;
let stack: TestStack;

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);
const VIEWER = { email: 'leitora-rotas@example.com', password: 'uma senha longa de leitora' };

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
  const account = async (name: string, baseUrl?: string) =>
    stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name, publicKey: 'pk', secretKey: 'sk-rotas', baseUrl });
  await account('Fora do ar', `http://127.0.0.1:${await closedPort()}`);
  await account('Principal');
  await stack.client.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ email: VIEWER.email, role: 'viewer', password: VIEWER.password }));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const rule = (page: Page, index: number) => page.getByRole('group', { name: `Regra ${index}` });

it('an admin creates a route, previews it, saves it; a charge through it shows on the outcomes and its attempts on its page', async () => {
  const { page, violations } = await pages.signedIn(1280, 900);
  await page.getByRole('navigation').getByRole('link', { name: 'Rotas', exact: true }).click();
  await page.getByText('Nenhuma rota ainda.').waitFor();
  await page.getByRole('button', { name: 'Nova rota' }).click();

  await page.getByRole('textbox', { name: 'Nome' }).fill('pix-checkout');
  await rule(page, 1).getByRole('checkbox', { name: 'PIX' }).check();
  await rule(page, 1).getByLabel('Conta 1', { exact: true }).selectOption({ label: 'Fora do ar (SANDBOX)' });
  await rule(page, 1).getByRole('button', { name: 'Adicionar conta' }).click();
  await rule(page, 1).getByLabel('Conta 2', { exact: true }).selectOption({ label: 'Principal (SANDBOX)' });

  // The preview: the form's rules, unsaved, decided by the gateway.
  const preview = page.getByRole('region', { name: 'Para onde iria uma cobrança' });
  await preview.getByLabel('Forma de pagamento', { exact: true }).selectOption({ label: 'PIX' });
  await preview.getByRole('textbox', { name: 'Valor' }).fill('25,00');
  await preview.getByRole('button', { name: 'Pré-visualizar' }).click();
  const decided = page.getByTestId('route-preview');
  await decided.getByText('Esta cobrança combina com a regra 1 e iria para:').waitFor();
  await expect(decided.getByRole('listitem').allTextContents()).resolves.toEqual(['Fora do ar (SANDBOX): priority 1', 'Principal (SANDBOX): priority 2']);
  // A boleto matches no rule.
  await preview.getByLabel('Forma de pagamento', { exact: true }).selectOption({ label: 'Boleto' });
  await preview.getByRole('button', { name: 'Pré-visualizar' }).click();
  await decided.getByText('Nenhuma regra combina com esta cobrança: ela seria recusada.').waitFor();
  expect(await page.getByRole('row', { name: /pix-checkout/ }).count()).toBe(0);

  await page.getByRole('button', { name: 'Salvar rota' }).click();
  const row = page.getByTestId('routes-table').locator('tr[data-name="pix-checkout"]');
  await expect(row.textContent()).resolves.toContain('Fora do ar → Principal');
  await page.getByText('Nenhuma cobrança roteada nas últimas 24 horas.').waitFor();

  // A charge through the route: the first account refuses connections, the second takes it.
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      route: 'pix-checkout',
      idempotencyKey: 'rota-browser-1',
      transaction: { amount: 2500, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
    }),
  );
  await page.reload();
  const outcomes = page.getByTestId('route-outcomes');
  await outcomes.locator('tr[data-account="Fora do ar"]').waitFor();
  const cells = (locator: ReturnType<Page['locator']>) => locator.locator('td').allTextContents();
  await expect(cells(outcomes.locator('tr[data-route="pix-checkout"]:not([data-account])'))).resolves.toEqual(['pix-checkout', '1', '0', '0', '1']);
  await expect(cells(outcomes.locator('tr[data-account="Principal"]'))).resolves.toEqual(['Principal (SANDBOX)', '1', '0', '0', '0']);
  await expect(cells(outcomes.locator('tr[data-account="Fora do ar"]'))).resolves.toEqual(['Fora do ar (SANDBOX)', '0', '0', '0', '1']);

  await page.goto(`${stack.gateway.httpUrl}/#/transactions/${transaction.id}`);
  const attempts = page.getByTestId('route-attempts');
  await attempts.getByText('Rota pix-checkout, regra 1 (priority)').waitFor();
  const attemptRows = attempts.locator('tbody tr');
  await expect(attemptRows.count()).resolves.toBe(2);
  await attemptRows.nth(0).getByText('Fora do ar', { exact: true }).waitFor();
  await expect(attemptRows.nth(0).locator('td').nth(3).textContent()).resolves.toBe('não enviada');
  await expect(attemptRows.nth(0).locator('td').nth(4).textContent()).resolves.toMatch(/^priority 1; not sent: /);
  await expect(attemptRows.nth(1).locator('td').allTextContents()).resolves.toEqual(['2', 'Principal', 'SANDBOX', 'cobrada', 'priority 2']);
  await pages.finish(page, violations, 'routes-charge-attempts');
});

it("a refused save shows the gateway's reason; deleting asks first; a viewer sees no button that changes routes", async () => {
  const { page, violations } = await pages.signedIn(1280, 900, '?lang=en');
  await page.getByRole('navigation').getByRole('link', { name: 'Routes', exact: true }).click();
  await page.getByRole('button', { name: 'New route' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill('split');
  const first = page.getByRole('group', { name: 'Rule 1' });
  await first.getByLabel('Strategy', { exact: true }).selectOption({ label: 'Split by weight' });
  await first.getByLabel('Account 1', { exact: true }).selectOption({ label: 'Principal (SANDBOX)' });
  await first.getByRole('textbox', { name: 'Weight of account 1' }).fill('70');
  await page.getByRole('button', { name: 'Save route' }).click();
  await expect(page.getByTestId('route-editor').getByRole('alert').textContent()).resolves.toContain('weights add up to 70, not 100');
  await first.getByRole('textbox', { name: 'Weight of account 1' }).fill('100');
  await page.getByRole('button', { name: 'Save route' }).click();
  await page.getByTestId('routes-table').locator('tr[data-name="split"]').waitFor();

  await page.getByRole('button', { name: 'Delete: split' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete route' });
  await dialog.getByText('Delete the route split?', { exact: false }).waitFor();
  await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByTestId('routes-table').locator('tr[data-name="split"]').waitFor({ state: 'detached' });
  // The dialog fades out after the row goes: axe must not read its title's colours halfway through the fade.
  await dialog.waitFor({ state: 'hidden' });
  await pages.finish(page, violations, 'routes-admin-en');

  const viewer = await pages.openPage(1280, 900);
  await viewer.page.getByRole('textbox', { name: 'E-mail' }).fill(VIEWER.email);
  await viewer.page.getByLabel(/^Senha/).fill(VIEWER.password);
  await viewer.page.getByRole('button', { name: 'Entrar' }).click();
  await viewer.page.getByText('(viewer)').waitFor();
  await viewer.page.getByRole('navigation').getByRole('link', { name: 'Rotas', exact: true }).click();
  await viewer.page.getByTestId('routes-table').locator('tr[data-name="pix-checkout"]').waitFor();
  await viewer.page.getByTestId('route-outcomes').waitFor();
  for (const name of ['Nova rota', 'Editar: pix-checkout', 'Excluir: pix-checkout'])
    await expect(viewer.page.getByRole('button', { name }).count()).resolves.toBe(0);
  await pages.finish(viewer.page, viewer.violations, 'routes-viewer');
});
