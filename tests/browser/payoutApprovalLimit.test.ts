import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CreateOperatorRequest, GetPayoutApprovalSettingsRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { GetWithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { accessibilityViolations, backOfficePages, callsTo, chooseOption, launchBrowser, signInAs } from '../support/browser.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * The four-eyes limit in the back-office: on the payouts page an admin changes it (reais typed, cents stored) and the
 * next payout above it says in its confirmation that it will wait for another operator, and is held; an operator
 * and a viewer read the limit with the reason they cannot change it. No PAYOUT_APPROVAL_ABOVE_CENTS: it starts off.
 */

const ACCOUNT_NAME = 'Repasses em dupla';
const OPERATOR = { email: 'olga.operadora@example.com', password: 'operator-limit-0123' };
const VIEWER = { email: 'vitor.leitor@example.com', password: 'viewer-limit-0123' };
const WILL_WAIT = 'Este saque aguardará aprovação de outro operador (acima do limite de R$ 150,00): nada é enviado ao provedor antes disso.';
let browser: Browser;
let stack: TestStack;

const ui = backOfficePages(
  () => browser,
  () => stack.gateway,
);

beforeAll(async () => {
  // The sandbox keeps a payout it was sent processing: nothing settles during the test.
  stack = await startTestStack({ env: { SANDBOX_SETTLE_MS: '3600000' } });
  await stack.client.call(
    'accounts',
    'createProviderAccount',
    CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: ACCOUNT_NAME, publicKey: 'pk', secretKey: 'sk' }),
  );
  await stack.client.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ ...OPERATOR, role: 'operator' }));
  await stack.client.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ ...VIEWER, role: 'viewer' }));
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const limitNow = async () => (await stack.client.call('access', 'getPayoutApprovalSettings', GetPayoutApprovalSettingsRequest.fromPartial({}))).settings;
const section = (page: Page) => page.getByTestId('payout-approval');

/** Fills a PIX payout of `amount` at the sandbox account and opens its confirmation. */
async function review(page: Page, amount: string) {
  await page.goto(`${stack.gateway.httpUrl!}/#/payouts/new`);
  await chooseOption(page, page.getByRole('combobox', { name: /^Conta de provedor/ }), `${ACCOUNT_NAME} (SANDBOX)`);
  await page.getByLabel(/^Valor \(R\$\)/).fill(amount);
  await page.getByLabel(/^Chave PIX/).fill('maria@example.com');
  await page.getByRole('button', { name: 'Revisar saque' }).click();
  const confirmation = page.getByRole('dialog', { name: 'Confirmar saque' });
  await expect(confirmation.getByTestId('confirm-amount').textContent()).resolves.toBe(`R$ ${amount}`);
  return confirmation;
}

/** Confirms the payout under review and answers it as the gateway stored it. */
async function confirm(page: Page, confirmation: ReturnType<Page['getByRole']>) {
  const withdrawals = callsTo(page, 'Withdraw');
  await confirmation.getByRole('button', { name: 'Confirmar saque' }).click();
  await page.getByRole('heading', { name: 'Saque', exact: true }).waitFor();
  expect(withdrawals).toHaveLength(1);
  const id = new URL(page.url()).hash.split('/').pop()!;
  return (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal;
}

it('an admin sets the limit to R$ 150,00; a payout below it is sent, one above it says it will wait and is held', async () => {
  const { page, violations } = await ui.signedIn(1280, 900);
  const updates: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/gateway.v1.AccessService/UpdatePayoutApprovalSettings')) updates.push(request.url());
  });
  await page.goto(`${stack.gateway.httpUrl!}/#/payouts`);
  await section(page).getByText('Sem aprovação em dupla: nenhuma transferência espera outro operador.').waitFor();
  await expect(section(page).getByTestId('role-note').count()).resolves.toBe(0);

  await section(page).getByRole('button', { name: 'Alterar limite' }).click();
  const input = section(page).getByLabel(/^Limite \(R\$\)/);
  // Not an amount: said beside the field, nothing sent.
  await input.fill('cento e cinquenta');
  await section(page).getByRole('button', { name: 'Salvar limite' }).click();
  await section(page).getByText('Informe um valor como 100,00, ou 0 para desligar.').waitFor();
  expect(updates).toHaveLength(0);
  // More cents than the gateway takes exactly (Number.MAX_SAFE_INTEGER + 1): the gateway refuses it, and its field
  // rule is shown beside the field in the page's language; the limit stays off.
  await input.fill('90071992547409,92');
  await section(page).getByRole('button', { name: 'Salvar limite' }).click();
  await section(page).getByText('Valor inválido.').waitFor();
  await expect(input.getAttribute('aria-invalid')).resolves.toBe('true');
  await expect(section(page).getByTestId('error').count()).resolves.toBe(0);
  expect(updates).toHaveLength(1);
  expect((await limitNow())?.approvalAboveCents).toBeUndefined();
  await input.fill('150,00');
  await section(page).getByRole('button', { name: 'Salvar limite' }).click();
  await section(page).getByText('Transferências acima de R$ 150,00 precisam da aprovação de outro operador.').waitFor();
  expect(updates).toHaveLength(2);
  await expect(limitNow()).resolves.toMatchObject({ approvalAboveCents: 15000, fromEnvironment: false });
  await expect(accessibilityViolations(page)).resolves.toEqual([]);

  // At the limit: not above it, so sent at once; the confirmation said so.
  const atLimit = await review(page, '150,00');
  await expect(atLimit.getByTestId('confirm-approval').textContent()).resolves.toBe(
    'Este saque não precisa de aprovação de outro operador (limite de R$ 150,00).',
  );
  expect((await confirm(page, atLimit)).status).not.toBe(WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL);

  const above = await review(page, '150,01');
  await expect(above.getByTestId('confirm-approval').textContent()).resolves.toBe(WILL_WAIT);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  const held = await confirm(page, above);
  expect(held).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL, withdrawId: '' });
  await page.getByTestId('awaiting-approval').waitFor();
  await ui.finish(page, violations, 'payout-approval-limit-admin');
});

it('an operator, at 390 px, reads the limit without a way to change it; a payout above it says it will wait and is held', async () => {
  const { page, violations } = await ui.openPage(390, 844);
  await signInAs(page, OPERATOR.email, OPERATOR.password);
  await page.getByTestId('operator').waitFor();
  await page.goto(`${stack.gateway.httpUrl!}/#/payouts`);
  await section(page).getByText('Transferências acima de R$ 150,00 precisam da aprovação de outro operador.').waitFor();
  await expect(section(page).getByTestId('role-note').textContent()).resolves.toBe('Só administradores alteram este limite (exige accounts:admin).');
  await expect(section(page).getByRole('button').count()).resolves.toBe(0);
  await expect(page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).resolves.toBeLessThanOrEqual(0);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);

  const confirmation = await review(page, '200,00');
  await expect(confirmation.getByTestId('confirm-approval').textContent()).resolves.toBe(WILL_WAIT);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  expect(await confirm(page, confirmation)).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL, requestedBy: OPERATOR.email });
  await ui.finish(page, violations, 'payout-approval-limit-operator-390px');
});

it('a viewer reads the limit, in English too, with the reason only admins change it', async () => {
  const { page, violations } = await ui.openPage(1280, 900);
  await signInAs(page, VIEWER.email, VIEWER.password);
  await page.getByTestId('operator').waitFor();
  await page.goto(`${stack.gateway.httpUrl!}/#/payouts`);
  await section(page).getByText('Transferências acima de R$ 150,00 precisam da aprovação de outro operador.').waitFor();
  await expect(section(page).getByTestId('role-note').textContent()).resolves.toBe('Só administradores alteram este limite (exige accounts:admin).');
  await expect(section(page).getByRole('button').count()).resolves.toBe(0);
  await page.getByText('EN', { exact: true }).click();
  await section(page).getByText("Payouts above R$ 150,00 need another operator's approval.").waitFor();
  await expect(section(page).getByTestId('role-note').textContent()).resolves.toBe('Only admins change this limit (needs accounts:admin).');
  await ui.finish(page, violations, 'payout-approval-limit-viewer');
});
