import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CreateReceiverRequest, GetWithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { accessibilityViolations, backOfficePages, callsTo, chooseOption, launchBrowser } from '../support/browser.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { IUGU_BASE_PATH, startIuguStandIn, type IuguStandIn } from '../standins/iugu.js';
import { startPagarmeStandIn, type PagarmeStandIn } from '../standins/pagarme.js';

/**
 * Payouts other than PIX from the back-office (issue 33 §5): the form offers what the account's provider pays out
 * by (ListProviders' withdraw methods). IUGU pays to the bank account registered on the Iugu account, so its payout
 * names no destination and the confirmation says where the money goes; PAGARMEBAAS pays out from a recipient, named
 * by its id at Pagar.me. Each is confirmed, sent to its provider's stand-in and shown with its destination.
 */
const IUGU_ACCOUNT = '70CA234077134ED0BF2E0E46B0EDC36F';
const IUGU_TOKEN = 'B8D3F4E25A6C4D1E9F0A7B3C2D1E0F9A8B7C6D5E4F3A2B1C0D9E8F7A6B5C4D3E';
const PAGARME_SECRET = 'sk_test_standin_pagarme';
const PAGARME_PUBLIC = 'pk_test_standin_pagarme';

let browser: Browser;
let stack: TestStack;
let iugu: IuguStandIn;
let pagarme: PagarmeStandIn;
let recipientId = '';

const ui = backOfficePages(
  () => browser,
  () => stack.gateway,
);

beforeAll(async () => {
  stack = await startTestStack();
  iugu = await startIuguStandIn({ accountId: IUGU_ACCOUNT, apiToken: IUGU_TOKEN });
  pagarme = await startPagarmeStandIn({ secretKey: PAGARME_SECRET, publicKey: PAGARME_PUBLIC });
  const account = async (provider: string, baseUrl: string, publicKey: string, secretKey: string) =>
    (await stack.client.call('accounts', 'createProviderAccount', { provider, name: `Saques ${provider}`, publicKey, secretKey, baseUrl })).providerAccount;
  await account('IUGU', iugu.baseUrl, IUGU_ACCOUNT, IUGU_TOKEN);
  const pagarmeAccount = await account('PAGARME', pagarme.baseUrl, PAGARME_PUBLIC, PAGARME_SECRET);
  await account('PAGARMEBAAS', pagarme.baseUrl, PAGARME_PUBLIC, PAGARME_SECRET);
  iugu.fund(IUGU_ACCOUNT, 50_000);
  // A Pagar.me recipient (made here through the PAGARME account) whose money the PAGARMEBAAS account pays out.
  const { receiver } = await stack.client.call(
    'gateway',
    'createReceiver',
    CreateReceiverRequest.fromPartial({
      providerAccountId: pagarmeAccount.id,
      receiver: {
        name: 'Loja Central',
        document: '11.222.333/0001-81',
        email: 'financeiro@loja.example',
        bankAccount: { bankCode: '001', branchNumber: '1234', accountNumber: '99887', accountDigit: '6', accountType: 'checking' },
      },
    }),
  );
  recipientId = receiver.receiverId;
  pagarme.fund(recipientId, 30_000);
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await pagarme?.close();
  await iugu?.close();
});

const fact = (page: Page, testId: string) => page.getByTestId('payout').getByTestId(testId).textContent();
const readWithdrawal = async (id: string) => (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal;

it("IUGU: a payout to the account's registered bank account names no destination and says where the money goes", async () => {
  const { page, violations } = await ui.signedIn();
  const withdrawals = callsTo(page, 'Withdraw');
  await page.goto(`${stack.gateway.httpUrl!}/#/payouts/new`);
  await chooseOption(page, page.getByRole('combobox', { name: /^Conta de provedor/ }), 'Saques IUGU (IUGU)');
  await page.getByTestId('payout-bank-domicile').getByText('Para a conta bancária cadastrada no provedor IUGU').waitFor();
  // Neither a PIX key nor a recipient is asked: Iugu refuses a payout that names one.
  await expect(page.getByLabel(/^Chave PIX/).count()).resolves.toBe(0);
  await expect(page.getByLabel(/^Nome do destinatário/).count()).resolves.toBe(0);
  await page.getByLabel(/^Valor \(R\$\)/).fill('123,45');
  await page.getByRole('button', { name: 'Revisar saque' }).click();

  const confirmation = page.getByRole('dialog', { name: 'Confirmar saque' });
  await expect(confirmation.getByTestId('confirm-amount').textContent()).resolves.toBe('R$ 123,45');
  await expect(confirmation.getByTestId('confirm-destination').textContent()).resolves.toMatch(/^Para a conta bancária cadastrada no provedor IUGU/);
  await confirmation
    .getByTestId('confirm-balance')
    .getByText(/R\$ 500,00/)
    .waitFor();
  // Within what the provider says is available: no warning.
  await expect(confirmation.getByTestId('confirm-over-balance').count()).resolves.toBe(0);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  expect(withdrawals).toHaveLength(0);
  await confirmation.getByRole('button', { name: 'Confirmar saque' }).click();

  await page.getByRole('heading', { name: 'Saque', exact: true }).waitFor();
  expect(withdrawals).toHaveLength(1);
  const id = new URL(page.url()).hash.split('/').pop()!;
  await expect(fact(page, 'destination')).resolves.toMatch(/^Para a conta bancária cadastrada no provedor IUGU/);
  expect(await readWithdrawal(id)).toMatchObject({
    status: WithdrawStatus.WITHDRAW_STATUS_PENDING,
    amount: 12_345,
    paymentMethod: WithdrawMethod.WITHDRAW_METHOD_BANK_ACCOUNT,
  });
  const sent = iugu.received.filter((request) => request.path === `${IUGU_BASE_PATH}/accounts/${IUGU_ACCOUNT}/request_withdraw`);
  expect(sent.map((request) => request.body)).toEqual([{ amount: 123.45 }]);
  await ui.finish(page, violations, 'payout-bank-domicile');
});

it('PAGARMEBAAS, at 390 px: a payout from a recipient named by its id, refused without one', async () => {
  const { page, violations } = await ui.signedIn(390, 844);
  const withdrawals = callsTo(page, 'Withdraw');
  await page.goto(`${stack.gateway.httpUrl!}/#/payouts/new`);
  await chooseOption(page, page.getByRole('combobox', { name: /^Conta de provedor/ }), 'Saques PAGARMEBAAS (PAGARMEBAAS)');
  const receiver = page.getByRole('combobox', { name: /^ID do recebedor no provedor/ });
  await receiver.waitFor();
  await page.getByLabel(/^Valor \(R\$\)/).fill('80,00');
  await page.getByRole('button', { name: 'Revisar saque' }).click();
  // The field is required: the browser keeps the form from being submitted, and nothing opens or is sent.
  await expect(receiver.evaluate((input: HTMLInputElement) => input.validity.valueMissing)).resolves.toBe(true);
  await expect(page.getByRole('dialog', { name: 'Confirmar saque' }).count()).resolves.toBe(0);
  expect(withdrawals).toHaveLength(0);

  await receiver.fill(recipientId);
  await page.getByRole('button', { name: 'Revisar saque' }).click();
  const confirmation = page.getByRole('dialog', { name: 'Confirmar saque' });
  await expect(confirmation.getByTestId('confirm-destination').textContent()).resolves.toBe(recipientId);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await confirmation.getByRole('button', { name: 'Confirmar saque' }).click();

  await page.getByRole('heading', { name: 'Saque', exact: true }).waitFor();
  expect(withdrawals).toHaveLength(1);
  const id = new URL(page.url()).hash.split('/').pop()!;
  await expect(fact(page, 'destination')).resolves.toBe(`Recebedor ${recipientId}`);
  expect(await readWithdrawal(id)).toMatchObject({ paymentMethod: WithdrawMethod.WITHDRAW_METHOD_RECEIVER, amount: 8_000 });
  expect(pagarme.received.filter((request) => request.path.endsWith(`/recipients/${recipientId}/withdrawals`)).map((request) => request.body)).toEqual([
    { amount: 8_000 },
  ]);
  await ui.finish(page, violations, 'payout-recipient');
});
