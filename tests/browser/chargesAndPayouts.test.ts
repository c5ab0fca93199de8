import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import {
  CalculateInstallmentsRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  ProcessWebhookRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus, WebhookOutcome, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { signSandboxPayload, SIGNATURE_HEADER } from '../../server/sandbox/api.js';
import { SANDBOX_TEST_CARDS } from '../../server/sandbox/testCards.js';
import { formatMoney } from '../../web/src/format.js';
import { CreateOperatorRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { backOfficePages, callsTo, chooseOption, launchBrowser, screenshot } from '../support/browser.js';
import type { Driver } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

const ACCOUNT_NAME = 'Charges in the browser';
const WEBHOOK_SECRET = 'whsec-browser-charges';
let browser: Browser;
let stack: TestStack;
let api: Driver;
let accountId: string;

const ui = backOfficePages(
  () => browser,
  () => stack.gateway,
);
const { finish } = ui;

beforeAll(async () => {
  // The sandbox keeps payouts processing (for an hour) until the test notifies the gateway, so a payout's page is seen pending first.
  stack = await startTestStack({ env: { SANDBOX_SETTLE_MS: '3600000' } });
  api = stack.client;
  const { providerAccount } = await api.call(
    'accounts',
    'createProviderAccount',
    CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: ACCOUNT_NAME, publicKey: 'pk', secretKey: 'sk', webhookSecret: WEBHOOK_SECRET }),
  );
  accountId = providerAccount.id;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const readTransaction = async (id: string) => (await api.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }))).transaction;
const readWithdrawal = async (id: string) => (await api.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal;

/** The id at the end of the page's address (#/transactions/<id>, #/payouts/<id>). */
const idInAddress = (page: Page) => new URL(page.url()).hash.split('/').pop()!;

/** The gateway's id of the charge the page shows. */
const createdId = async (page: Page) => (await page.getByTestId('transaction-id').textContent())!;

/** No horizontal scrolling: at a phone's width the form fits the screen. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function startCharge(page: Page, method: string, amount: string) {
  await chooseOption(page, page.getByRole('combobox', { name: /^Conta de provedor/ }), `${ACCOUNT_NAME} (SANDBOX)`);
  await page.getByRole('radio', { name: method }).check();
  await page.getByLabel(/^Valor \(R\$\)/).fill(amount);
}

it('new charge at 390 px: a PIX charge in reais is sent in cents, shows its QR code and copy-and-paste code at once, turns APPROVED live when paid on the sandbox, and links to its detail', async () => {
  const { page, violations } = await ui.signedIn(390, 844);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const creates = callsTo(page, 'CreateTransaction');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Transações' }).click();
  await page.getByRole('link', { name: 'Nova cobrança' }).click();
  await page.getByRole('heading', { name: 'Nova cobrança' }).waitFor();

  await startCharge(page, 'PIX', '1.234,29');
  // The methods offered are the account's provider's.
  const methods = page.getByRole('radiogroup', { name: /^Forma de pagamento/ });
  await expect(methods.getByRole('radio').count()).resolves.toBe(3);
  for (const name of ['PIX', 'Cartão de crédito', 'Boleto']) await methods.getByRole('radio', { name }).waitFor();
  await page.getByLabel('Nome', { exact: true }).fill('Ana Souza');
  await page.getByLabel('CPF ou CNPJ', { exact: true }).fill('123.456.789-09');
  await page.getByLabel('Pedido').fill('browser-new-charge-1');
  expect(await fitsWidth(page)).toBe(true);
  await page.getByRole('button', { name: 'Criar cobrança' }).click();

  await page.getByRole('status').getByText('Cobrança criada.').waitFor();
  // 1.234,29 reais left the page as the integer 123429, never as a float.
  expect(creates).toHaveLength(1);
  expect(creates[0]!.transaction).toMatchObject({ amount: '123429', paymentMethod: 'PAYMENT_METHOD_PIX', orderId: 'browser-new-charge-1' });
  const id = await createdId(page);
  const stored = await readTransaction(id);
  expect([stored.amount, stored.status]).toEqual([123429, TransactionStatus.TRANSACTION_STATUS_PENDING]);
  await expect(page.getByTestId('amount').textContent()).resolves.toBe('R$ 1.234,29');
  await expect(page.getByTestId('pix-code').inputValue()).resolves.toBe(stored.pixCode);
  await expect(page.getByRole('img', { name: 'QR Code do PIX' }).getAttribute('src')).resolves.toBe(stored.pixQrCode);
  await page.getByRole('button', { name: 'Copiar: PIX copia e cola' }).click();
  await page.waitForFunction(async (code) => (await navigator.clipboard.readText()) === code, stored.pixCode);
  expect(await fitsWidth(page)).toBe(true);

  // The transactions list, open in another tab of the same session, shows it pending.
  const list = await page.context().newPage();
  await list.goto(`${stack.gateway.httpUrl!}/#/transactions`);
  const row = list.locator(`[data-id="${id}"]`);
  await expect(row.getByTestId('status').textContent()).resolves.toBe('Pendente');

  // The sandbox pays it and notifies the gateway; the page and the list hear it through WatchEvents, without a reload.
  await page.getByRole('button', { name: 'Simular pagamento' }).click();
  await page.getByTestId('transaction').getByText('Aprovada').waitFor();
  await page.getByRole('button', { name: 'Simular pagamento' }).waitFor({ state: 'detached' });
  await row.getByTestId('status').getByText('Aprovada').waitFor();
  await list.close();

  await page.getByRole('link', { name: 'Abrir a transação' }).click();
  await page.getByRole('heading', { name: 'Transação' }).waitFor();
  expect(idInAddress(page)).toBe(id);
  await expect(page.getByTestId('history').textContent()).resolves.toContain('Aprovada');
  await finish(page, violations, 'new-charge-pix-390px');
});

it('new charge: a boleto shows its digitable line and link at once, on its page too (where the sandbox pays it); an amount the gateway refuses is marked beside its field', async () => {
  const { page, violations } = await ui.signedIn();
  await page.goto(`${stack.gateway.httpUrl!}/#/transactions/new`);
  await startCharge(page, 'Boleto', '100.000.000.000.000,00');
  await page.getByRole('button', { name: 'Criar cobrança' }).click();
  // Beyond what the gateway computes with: its field violation (google.rpc.BadRequest) goes beside the amount, as the
  // rule it broke in Portuguese (issue 33 §8).
  const amount = page.getByLabel(/^Valor \(R\$\)/);
  await page.getByText('Valor inválido.', { exact: true }).first().waitFor();
  await expect(amount.getAttribute('aria-invalid')).resolves.toBe('true');

  await amount.fill('250,00');
  await page.getByRole('button', { name: 'Criar cobrança' }).click();
  await page.getByRole('status').getByText('Cobrança criada.').waitFor();
  const stored = await readTransaction(await createdId(page));
  expect([stored.amount, stored.paymentMethod]).toEqual([25000, PaymentMethod.PAYMENT_METHOD_BILLET]);
  expect(stored.billetCode).toMatch(/^\d{47}$/);
  await expect(page.getByTestId('billet-code').inputValue()).resolves.toBe(stored.billetCode);
  await expect(page.getByRole('link', { name: 'Abrir o boleto' }).getAttribute('href')).resolves.toBe(stored.billetUrl);
  await page.getByRole('button', { name: 'Copiar: Linha digitável' }).waitFor();
  // The transaction's own page shows the same line and its due date (expires_at, dd/mm/aaaa where the browser is), and pays it on the sandbox too.
  await page.getByRole('link', { name: 'Abrir a transação' }).click();
  await expect(page.getByTestId('billet-code').inputValue()).resolves.toBe(stored.billetCode);
  expect(stored.expiresAt).toBeInstanceOf(Date);
  const dueDate = page.locator('dt:text-is("Vencimento") + dd');
  const timeZone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const day = new Intl.DateTimeFormat('pt-BR', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).format(stored.expiresAt);
  expect(day).toMatch(/^\d{2}\/\d{2}\/\d{4}$/);
  await expect(dueDate.textContent()).resolves.toMatch(new RegExp(`^${day}(?!\\d)`));
  await expect(dueDate.locator('time').getAttribute('datetime')).resolves.toBe(stored.expiresAt!.toISOString());
  await page.getByRole('button', { name: 'Simular pagamento' }).click();
  await page.getByTestId('transaction').getByText('Aprovada').waitFor();
  await finish(page, violations, 'new-charge-boleto');
});

it('new charge by card: the card is tokenised and saved (CreateCardToken, CreateCardId), the installments offered are CalculateInstallments options, and the charge goes with the card id and the chosen installments; the card number stays out of the page and of storage', async () => {
  const { page, violations } = await ui.signedIn();
  const tokens = callsTo(page, 'CreateCardToken');
  const cards = callsTo(page, 'CreateCardId');
  const creates = callsTo(page, 'CreateTransaction');
  const quotes = callsTo(page, 'CalculateInstallments');
  await page.goto(`${stack.gateway.httpUrl!}/#/transactions/new`);
  await startCharge(page, 'Cartão de crédito', '100,00');
  await page.getByLabel(/^Número do cartão/).fill(SANDBOX_TEST_CARDS.approved);
  await page.getByLabel(/^Nome impresso no cartão/).fill('ANA SOUZA');
  await page.getByLabel(/^Mês de validade/).fill('12');
  await page.getByLabel(/^Ano de validade/).fill('30');
  await page.getByLabel(/^Código de segurança/).fill('123');

  const { options } = await api.call(
    'gateway',
    'calculateInstallments',
    CalculateInstallmentsRequest.fromPartial({ providerAccountId: accountId, amount: 10000 }),
  );
  const four = options.find((option: { installmentNumber: number }) => option.installmentNumber === 4)!;
  const fourLabel = `4× ${formatMoney(four.installmentValue)} (total ${formatMoney(four.finalValue)})`;
  await page.getByRole('combobox', { name: 'Parcelas' }).click();
  await page.getByRole('option', { name: fourLabel }).waitFor();
  await expect(page.getByRole('option').count()).resolves.toBe(options.length);
  await page.getByRole('option', { name: fourLabel }).click();
  // The quote carries the card's BIN (its first six digits: a provider may quote per card), never more of the card.
  expect(quotes.at(-1)).toEqual({ providerAccountId: accountId, amount: '10000', cardBin: SANDBOX_TEST_CARDS.approved.replace(/\D/g, '').slice(0, 6) });
  await screenshot(page, 'new-charge-card-form');
  await page.getByRole('button', { name: 'Criar cobrança' }).click();

  await page.getByRole('status').getByText('Cobrança criada.').waitFor();
  expect([tokens.length, cards.length, creates.length]).toEqual([1, 1, 1]);
  expect(tokens[0]!.card.cardNumber).toBe(SANDBOX_TEST_CARDS.approved);
  const stored = await readTransaction(await createdId(page));
  expect(creates[0]!.transaction).toMatchObject({
    paymentMethod: 'PAYMENT_METHOD_CREDIT_CARD',
    amount: '10000',
    installments: 4,
    cardId: expect.stringMatching(/^card_/),
  });
  expect([stored.status, stored.installments, stored.amount]).toEqual([TransactionStatus.TRANSACTION_STATUS_APPROVED, 4, 10000]);
  await page.getByTestId('transaction').getByText('Aprovada').waitFor();
  await expect(page.getByTestId('installments').textContent()).resolves.toBe('4');
  await expect(page.content()).resolves.not.toContain(SANDBOX_TEST_CARDS.approved);
  await finish(page, violations, 'new-charge-card');
});

it('payout form at 390 px: a CPF key is inferred as CPF while typed and sent as one; the payout page shows its history and turns APPROVED live', async () => {
  const { page, violations } = await ui.signedIn(390, 844);
  const withdrawals = callsTo(page, 'Withdraw');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Saques' }).click();
  await page.getByRole('link', { name: 'Novo saque' }).click();
  await page.getByRole('heading', { name: 'Novo saque' }).waitFor();

  // The account from the list; then by keyboard: each field in turn, and Enter sends.
  const account = page.getByRole('combobox', { name: /^Conta de provedor/ });
  await account.click();
  await page.getByRole('option', { name: `${ACCOUNT_NAME} (SANDBOX)` }).click();
  await expect(account.inputValue()).resolves.toBe(`${ACCOUNT_NAME} (SANDBOX)`);
  await account.focus();
  await page.keyboard.press('Tab');
  await page.keyboard.type('12,34');
  await page.keyboard.press('Tab');
  const key = page.getByLabel(/^Chave PIX/);
  await expect(key.evaluate((input) => input === document.activeElement)).resolves.toBe(true);
  await page.keyboard.type('fulano@example.com');
  await expect(page.getByTestId('pix-key-type').textContent()).resolves.toBe('E-mail');
  await key.fill('');
  await page.keyboard.type('123.456.789-09');
  await expect(page.getByTestId('pix-key-type').textContent()).resolves.toBe('CPF');
  expect(await fitsWidth(page)).toBe(true);
  await page.keyboard.press('Enter');

  // Enter opens the confirmation; nothing is sent before it is confirmed.
  const confirmation = page.getByRole('dialog', { name: 'Confirmar saque' });
  await expect(confirmation.getByTestId('confirm-amount').textContent()).resolves.toBe('R$ 12,34');
  await expect(confirmation.getByTestId('confirm-key').textContent()).resolves.toBe('123.456.789-09 (CPF)');
  await expect(confirmation.getByTestId('confirm-recipient').textContent()).resolves.toBe('não informado');
  expect(withdrawals).toHaveLength(0);
  await confirmation.getByRole('button', { name: 'Confirmar saque' }).click();

  await page.getByRole('heading', { name: 'Saque', exact: true }).waitFor();
  expect(withdrawals).toHaveLength(1);
  expect(withdrawals[0]!.withdraw).toMatchObject({
    paymentMethod: 'WITHDRAW_METHOD_PIX',
    amount: '1234',
    pixKey: '123.456.789-09',
    pixType: 'PIX_KEY_TYPE_CPF',
  });
  const id = idInAddress(page);
  const payout = page.getByTestId('payout');
  await expect(payout.getByTestId('status').textContent()).resolves.toBe('Pendente');
  await expect(page.getByTestId('amount').textContent()).resolves.toBe('R$ 12,34');
  await expect(page.getByTestId('history').locator('tbody tr').count()).resolves.toBe(1);

  // The sandbox's signed notification that the payout was paid: the page follows it without a reload.
  const withdrawal = await readWithdrawal(id);
  const body = JSON.stringify({ id: 'evt_browser_payout', type: 'withdrawal.paid', data: { id: withdrawal.withdrawId, status: 'paid', amount: 1234 } });
  const { notification } = await api.call(
    'gateway',
    'processWebhook',
    ProcessWebhookRequest.fromPartial({
      providerAccountId: accountId,
      body: Buffer.from(body),
      headers: { [SIGNATURE_HEADER]: signSandboxPayload(WEBHOOK_SECRET, Math.floor(Date.now() / 1000), body) },
    }),
  );
  // Stored for the sidecar's workers, or already applied by them: never refused.
  expect([WebhookOutcome.WEBHOOK_OUTCOME_RECEIVED, WebhookOutcome.WEBHOOK_OUTCOME_APPLIED]).toContain(notification.outcome);
  await payout.getByText('Aprovado').waitFor();
  await page.getByTestId('history').locator('tbody tr').nth(1).getByText('Aprovado').waitFor();
  await expect(page.getByTestId('history').textContent()).resolves.toMatch(/Pendente.*API.*Aprovado.*Webhook/);
  expect((await readWithdrawal(id)).status).toBe(WithdrawStatus.WITHDRAW_STATUS_APPROVED);

  // The list links each payout to its page.
  await page.getByRole('link', { name: 'Voltar aos saques' }).click();
  await page.getByRole('link', { name: id }).click();
  await page.getByTestId('payout').getByText('Aprovado').waitFor();
  await finish(page, violations, 'payout-390px');
});

it('payout form: a key that is not well formed for its inferred type is refused beside the field and nothing is sent; an amount the gateway refuses is marked beside its field', async () => {
  const { page, violations } = await ui.signedIn();
  const withdrawals = callsTo(page, 'Withdraw');
  await page.goto(`${stack.gateway.httpUrl!}/#/payouts/new`);
  await chooseOption(page, page.getByRole('combobox', { name: /^Conta de provedor/ }), `${ACCOUNT_NAME} (SANDBOX)`);
  await page.getByLabel(/^Valor \(R\$\)/).fill('10,00');
  const key = page.getByLabel(/^Chave PIX/);

  // Inferred CPF (11 digits), but the check digits are wrong.
  await key.fill('123.456.789-00');
  await expect(page.getByTestId('pix-key-type').textContent()).resolves.toBe('CPF');
  await page.getByRole('button', { name: 'Revisar saque' }).click();
  const refusal = 'CPF inválido: confira os dígitos. Um celular se escreve com +55 na frente.';
  await page.getByText(refusal).waitFor();
  await expect(key.getAttribute('aria-invalid')).resolves.toBe('true');
  const describedBy = (await key.getAttribute('aria-describedby'))!.split(' ');
  await expect(page.locator(describedBy.map((id) => `[id="${id}"]`).join(',')).allTextContents()).resolves.toContain(refusal);

  // Not a UUID: a random key (EVP) it cannot be.
  await key.fill('minha-chave');
  await expect(page.getByTestId('pix-key-type').textContent()).resolves.toBe('Chave aleatória');
  await page.getByRole('button', { name: 'Revisar saque' }).click();
  await page.getByText('Chave inválida: uma chave aleatória tem o formato 123e4567-e89b-42d3-a456-426614174000.').waitFor();

  // A mobile written with +55 is a phone; the gateway then refuses an amount beyond its range, beside the amount.
  await key.fill('+55 11 98765-4321');
  await expect(page.getByTestId('pix-key-type').textContent()).resolves.toBe('Celular');
  await page.getByLabel(/^Valor \(R\$\)/).fill('100.000.000.000.000,00');
  await page.getByRole('button', { name: 'Revisar saque' }).click();
  await page.getByRole('dialog', { name: 'Confirmar saque' }).getByRole('button', { name: 'Confirmar saque' }).click();
  await page.getByText('Valor inválido.', { exact: true }).first().waitFor();
  await expect(page.getByLabel(/^Valor \(R\$\)/).getAttribute('aria-invalid')).resolves.toBe('true');
  // Only that last request left the page: the refused keys were never sent.
  expect(withdrawals.map((call) => call.withdraw.pixType)).toEqual(['PIX_KEY_TYPE_PHONE']);
  await finish(page, violations, 'payout-refused');
});

it('roles: an operator (payouts:write, no payments:write) is offered the payout form but not the charge form, whose address leads back to the list', async () => {
  const email = 'operator.charges@example.com';
  const password = 'operator-password-0123';
  await api.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ email, role: 'operator', password }));
  const { page, violations } = await ui.openPage();
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByLabel(/^Senha/).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.getByTestId('operator').getByText(email).waitFor();

  await page.getByRole('link', { name: 'Saques' }).click();
  await page.getByRole('link', { name: 'Novo saque' }).click();
  await page.getByRole('heading', { name: 'Novo saque' }).waitFor();

  await page.getByRole('link', { name: 'Transações' }).click();
  await page.getByTestId('transactions-table').waitFor();
  await expect(page.getByRole('link', { name: 'Nova cobrança' }).count()).resolves.toBe(0);
  await page.goto(`${stack.gateway.httpUrl!}/#/transactions/new`);
  await page.getByTestId('transactions-table').waitFor();
  expect(new URL(page.url()).hash).toBe('#/transactions');
  await expect(page.getByRole('heading', { name: 'Nova cobrança' }).count()).resolves.toBe(0);
  await finish(page, violations, 'operator-role');
});
