import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Locator, Page } from 'playwright-core';
import { CreateOperatorRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { CreateTransactionRequest, GetWithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { accessibilityViolations, backOfficePages, callsTo, chooseOption, launchBrowser, screenshot } from '../support/browser.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { SEEDED_CHARGES, SEEDING_TIMEOUT_MS } from '../support/seedCharges.js';

/**
 * Safe payouts in the back-office (issue 33 §5): a payout above the team's
 * limit (PAYOUT_APPROVAL_ABOVE_CENTS) goes through a confirmation (amount,
 * key, recipient, the account's balance read at its provider), nothing sent before
 * it; it is then held AWAITING_APPROVAL, and the operator who asked cannot
 * approve it; a second operator, on a phone, approves it and it is sent. The same at the other widths: a payout
 * confirmed on a phone, approved at 1280 px (after the export, which lists the first payout alone).
 * It runs on a gateway seeded with 100,000 charges at accounts of their own (tests/support/seedCharges.ts).
 */

const ACCOUNT_NAME = 'Repasses no navegador';
const SECOND = { email: 'bruno.payouts@example.com', password: 'second-operator-0123' };
let browser: Browser;
let stack: TestStack;
let accountId: string;
/** The held payout the first test asks for and the second approves. */
let id = '';

const ui = backOfficePages(
  () => browser,
  () => stack.gateway,
);

beforeAll(async () => {
  // The sandbox keeps payouts processing until told otherwise: the approved payout is seen PENDING at the provider.
  stack = await startTestStack({ env: { PAYOUT_APPROVAL_ABOVE_CENTS: '10000', SANDBOX_SETTLE_MS: '3600000' }, seededCharges: SEEDED_CHARGES });
  const { providerAccount } = await stack.client.call(
    'accounts',
    'createProviderAccount',
    CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: ACCOUNT_NAME, publicKey: 'pk', secretKey: 'sk' }),
  );
  accountId = providerAccount.id;
  // A paid PIX charge of R$ 19,90: the sandbox's balance the confirmation shows.
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: accountId,
      transaction: {
        amount: 1990,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
        customer: { name: 'Ana', document: '12345678909', email: 'ana@example.com' },
      },
    }),
  );
  await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
  await stack.client.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ ...SECOND, role: 'operator' }));
  browser = await launchBrowser();
}, SEEDING_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const readWithdrawal = async (id: string) => (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal;
const fact = (page: Page, testId: string) => page.getByTestId('payout').getByTestId(testId).textContent();

/**
 * Fills the new payout's form (a PIX e-mail key at the sandbox account) and asks to review it: the confirmation,
 * showing what will be sent (amount, key, recipient).
 */
async function review(page: Page, payout: { amount: string; key: string; recipient: string; description: string }) {
  await page.goto(`${stack.gateway.httpUrl!}/#/payouts/new`);
  await chooseOption(page, page.getByRole('combobox', { name: /^Conta de provedor/ }), `${ACCOUNT_NAME} (SANDBOX)`);
  await page.getByLabel(/^Valor \(R\$\)/).fill(payout.amount);
  await page.getByLabel(/^Chave PIX/).fill(payout.key);
  await page.getByLabel(/^Nome do destinatário/).fill(payout.recipient);
  await page.getByLabel(/^Descrição/).fill(payout.description);
  await page.getByRole('button', { name: 'Revisar saque' }).click();
  const confirmation = page.getByRole('dialog', { name: 'Confirmar saque' });
  await expect(confirmation.getByTestId('confirm-amount').textContent()).resolves.toBe(`R$ ${payout.amount}`);
  await expect(confirmation.getByTestId('confirm-key').textContent()).resolves.toBe(`${payout.key} (E-mail)`);
  await expect(confirmation.getByTestId('confirm-recipient').textContent()).resolves.toBe(payout.recipient);
  return confirmation;
}

/**
 * Confirms the reviewed payout (nothing asked of the gateway before it, one Withdraw after) and sees it held awaiting
 * another operator's approval, its provider never asked; answers its id.
 */
async function confirmAndSeeHeld(page: Page, confirmation: Locator, withdrawals: unknown[]): Promise<string> {
  expect(withdrawals).toHaveLength(0);
  await confirmation.getByRole('button', { name: 'Confirmar saque' }).click();
  await page.getByRole('heading', { name: 'Saque', exact: true }).waitFor();
  expect(withdrawals).toHaveLength(1);
  const held = new URL(page.url()).hash.split('/').pop()!;
  await expect(fact(page, 'status')).resolves.toBe('Aguardando aprovação');
  await page.getByTestId('awaiting-approval').waitFor();
  await page.getByText('Você solicitou este saque: outro operador precisa aprová-lo.').waitFor();
  expect(await readWithdrawal(held)).toMatchObject({ status: WithdrawStatus.WITHDRAW_STATUS_AWAITING_APPROVAL, withdrawId: '' });
  return held;
}

/** A page signed in as the second operator, at `width` px. */
async function signedInAsSecond(width: number, height: number) {
  const second = await ui.openPage(width, height);
  await second.page.getByRole('textbox', { name: 'E-mail' }).fill(SECOND.email);
  await second.page.getByLabel(/^Senha/).fill(SECOND.password);
  await second.page.getByRole('button', { name: 'Entrar' }).click();
  await second.page.getByTestId('operator').waitFor();
  return second;
}

/** On the held payout's page, the second operator approves it; it shows as sent (PENDING at the provider, its id). */
async function approve(page: Page, payoutId: string) {
  const approvals = callsTo(page, 'ApproveWithdraw');
  await page.goto(`${stack.gateway.httpUrl!}/#/payouts/${payoutId}`);
  await page.getByTestId('awaiting-approval').waitFor();
  await expect(page.getByText('Você solicitou este saque').count()).resolves.toBe(0);
  await page.getByRole('button', { name: 'Aprovar e enviar' }).click();

  await page.getByTestId('payout').getByTestId('provider-id').waitFor();
  await expect(fact(page, 'status')).resolves.toBe('Pendente');
  await expect(fact(page, 'reviewed-by')).resolves.toBe(SECOND.email);
  await expect(page.getByTestId('awaiting-approval').count()).resolves.toBe(0);
  await expect(page.getByTestId('history').textContent()).resolves.toMatch(/Aguardando aprovação.*Pendente/);
  expect(approvals).toHaveLength(1);
  const sent = await readWithdrawal(payoutId);
  expect(sent.status).toBe(WithdrawStatus.WITHDRAW_STATUS_PENDING);
  expect(sent.withdrawId).not.toBe('');
  await expect(fact(page, 'provider-id')).resolves.toBe(sent.withdrawId);
}

it('a payout above the limit: confirmation (nothing sent before it), then held awaiting approval, which its requester cannot approve', async () => {
  const { page, violations } = await ui.signedIn();
  const withdrawals = callsTo(page, 'Withdraw');
  const ownApprovals = callsTo(page, 'ApproveWithdraw');
  const confirmation = await review(page, { amount: '250,00', key: 'maria@example.com', recipient: 'Maria Souza', description: 'Repasse de novembro' });
  await confirmation.getByTestId('confirm-balance').getByText('R$ 19,90 disponível (R$ 0,00 a liberar)').waitFor();
  // More than the provider says is available: said before confirming, not refused (the provider decides).
  await confirmation
    .getByTestId('confirm-over-balance')
    .getByText('O valor é maior que o saldo disponível informado pelo provedor (R$ 19,90): ele pode recusar o saque.')
    .waitFor();
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  // Going back to edit sends nothing; the confirmation opens again with the same request.
  await confirmation.getByRole('button', { name: 'Voltar e corrigir' }).click();
  await confirmation.waitFor({ state: 'hidden' });
  expect(withdrawals).toHaveLength(0);
  await page.getByRole('button', { name: 'Revisar saque' }).click();
  id = await confirmAndSeeHeld(page, confirmation, withdrawals);
  await expect(fact(page, 'destination')).resolves.toBe('maria@example.com (E-mail)');
  await expect(fact(page, 'recipient')).resolves.toBe('Maria Souza');
  await expect(fact(page, 'description')).resolves.toBe('Repasse de novembro');
  await expect(fact(page, 'requested-by')).resolves.toBe(stack.gateway.firstAdmin!.email);
  await expect(page.getByRole('button', { name: 'Aprovar e enviar' }).isDisabled()).resolves.toBe(true);
  expect(ownApprovals).toHaveLength(0);
  await ui.finish(page, violations, 'payout-awaiting-approval');
});

it('a second operator, at 390 px, approves the held payout and it is sent to the provider', async () => {
  expect(id).not.toBe('');
  const second = await signedInAsSecond(390, 844);
  await approve(second.page, id);
  await ui.finish(second.page, second.violations, 'payout-approved-390px');
});

it('the payouts list exports the filtered payouts as saques-YYYY-MM-DD.csv with destination, who asked and who reviewed', async () => {
  const { page, violations } = await ui.signedIn();
  await page.goto(`${stack.gateway.httpUrl!}/#/payouts`);
  await page.locator('[data-testid="payouts-table"] tbody tr').first().waitFor();
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^saques-\d{4}-\d{2}-\d{2}\.csv$/);
  const text = readFileSync((await download.path())!, 'utf8');
  const [header, ...rows] = text
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(header).toBe(
    'ID;Provedor;Conta de provedor;ID no provedor;Forma;Situação;Valor (R$);Chave PIX;Destinatário;Descrição;Solicitado por;Revisado por;Motivo da recusa;Criado em',
  );
  expect(rows).toHaveLength(1);
  const cells = rows[0]!.split(';');
  expect(cells.slice(1, 3)).toEqual(['SANDBOX', accountId]);
  expect(cells.slice(4, 12)).toEqual([
    'PIX',
    'Pendente',
    '250,00',
    'maria@example.com (E-mail)',
    'Maria Souza',
    'Repasse de novembro',
    stack.gateway.firstAdmin!.email,
    SECOND.email,
  ]);
  await ui.finish(page, violations, 'payouts-export');
});

/** The second held payout: asked for at 390 px, approved at 1280. */
let phoneId = '';

it('at 390 px the payout above the limit goes through the same confirmation, axe-clean, and is held awaiting approval', async () => {
  const { page, violations } = await ui.signedIn(390, 844);
  const withdrawals = callsTo(page, 'Withdraw');
  const confirmation = await review(page, { amount: '180,00', key: 'joao@example.com', recipient: 'João Lima', description: 'Repasse do celular' });
  // Read again at the provider: the R$ 19,90 less the first payout's R$ 250,00 (the sandbox lets it go below zero).
  await confirmation.getByTestId('confirm-balance').getByText('-R$ 230,10 disponível (R$ 0,00 a liberar)').waitFor();
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  // The dialog fits the phone: nothing to scroll sideways to reach the confirm button.
  await expect(page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).resolves.toBeLessThanOrEqual(0);
  await screenshot(page, 'payout-confirmation-390px');
  phoneId = await confirmAndSeeHeld(page, confirmation, withdrawals);
  await expect(fact(page, 'recipient')).resolves.toBe('João Lima');
  await ui.finish(page, violations, 'payout-awaiting-approval-390px');
});

it('the second operator, at 1280 px, approves the payout held from the phone and it is sent to the provider', async () => {
  expect(phoneId).not.toBe('');
  const second = await signedInAsSecond(1280, 900);
  await approve(second.page, phoneId);
  await ui.finish(second.page, second.violations, 'payout-approved-1280px');
});
