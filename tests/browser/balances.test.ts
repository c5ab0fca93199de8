import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { CreateTransactionRequest, RefoundTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { CreateRouteRequest, RoutingStrategy } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { backOfficePages, followNavLink, launchBrowser } from '../support/browser.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { SEEDED_CHARGES, SEEDING_TIMEOUT_MS } from '../support/seedCharges.js';

/**
 * "Saldo e extrato" (issue 33 §4): the account's balance read at its provider (the sandbox's PSP) or said to be
 * unavailable where the provider has no balance read, and the gateway's statement per São Paulo day with its CSV
 * (the fee the charge's route declares included), the account and the days in the address; at 1280 and 390 px,
 * axe-clean. On a gateway seeded with 100,000 charges at accounts of their own (tests/support/seedCharges.ts): the
 * statement is the chosen account's alone, and the account list holds the seeded ones too.
 */

let browser: Browser;
let stack: TestStack;
let sandboxId: string;
let noBalanceId: string;
/** The São Paulo day the paid charge was made on. */
let today: string;

const ui = backOfficePages(
  () => browser,
  () => stack.gateway,
);

const saoPauloDay = (date: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(date);
const account = async (provider: string, name: string) =>
  (
    await stack.client.call(
      'accounts',
      'createProviderAccount',
      CreateProviderAccountRequest.fromPartial({ provider, name, publicKey: 'pk', secretKey: `sk-${name.length}` }),
    )
  ).providerAccount.id as string;

beforeAll(async () => {
  stack = await startTestStack({ seededCharges: SEEDED_CHARGES });
  sandboxId = await account('SANDBOX', 'Conta com saldo');
  noBalanceId = await account('PAGUESAFE', 'Conta sem saldo');
  // The charge goes by a route whose target declares R$ 0,99 + 1,99 % for PIX: 99 + 39.6 cents, R$ 1,39.
  const fees = [{ paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, fixed: 99, percentBps: 199 }];
  await stack.client.call(
    'routes',
    'createRoute',
    CreateRouteRequest.fromPartial({
      name: 'pix-com-tarifa',
      rules: [
        {
          paymentMethods: [PaymentMethod.PAYMENT_METHOD_PIX],
          strategy: RoutingStrategy.ROUTING_STRATEGY_LOWEST_COST,
          targets: [{ providerAccountId: sandboxId, weight: 0, fees }],
        },
      ],
    }),
  );
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      route: 'pix-com-tarifa',
      transaction: {
        amount: 1990,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
        customer: { name: 'Ana', document: '12345678909', email: 'ana@example.com' },
      },
    }),
  );
  await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
  await stack.client.call(
    'gateway',
    'refoundTransaction',
    RefoundTransactionRequest.fromPartial({ providerAccountId: sandboxId, id: transaction.id, amount: 500 }),
  );
  today = saoPauloDay(new Date());
  browser = await launchBrowser();
}, SEEDING_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

it("shows the sandbox account's balance and its day's statement (a paid charge, part refunded, its declared fee), and exports the statement as extrato-YYYY-MM-DD.csv", async () => {
  const { page, violations } = await ui.signedIn();
  await page.goto(`${stack.gateway.httpUrl!}/#/balances?account=${sandboxId}&from=${today}&to=${today}`);
  await page.getByRole('heading', { name: 'Saldo e extrato' }).waitFor();
  await page.getByTestId('balance-value').getByText('R$ 14,90 disponível (R$ 0,00 a liberar)').waitFor();
  const row = page.getByTestId('statement-day');
  await row.waitFor();
  await expect(row.locator('td').allTextContents()).resolves.toEqual([
    today.split('-').reverse().join('/'),
    '1',
    'R$ 19,90',
    'R$ 5,00',
    'R$ 0,00',
    'R$ 0,00',
    'R$ 14,90',
    'R$ 1,39',
    '0',
    '1',
  ]);
  await page.getByTestId('fees-note').getByText('O líquido não desconta tarifas.', { exact: false }).waitFor();
  await expect(page.getByTestId('statement-total').textContent()).resolves.toContain('Total');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^extrato-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync((await download.path())!)
    .toString('utf8')
    .slice(1)
    .split('\r\n');
  expect(lines).toEqual([
    'Dia;Cobranças pagas;Valor das cobranças;Estornos;Chargebacks;Saques;Líquido;Tarifas;Cobranças com tarifa do provedor;Cobranças com tarifa da rota',
    `${today};1;19,90;5,00;0,00;0,00;14,90;1,39;0;1`,
    'Total;1;19,90;5,00;0,00;0,00;14,90;1,39;0;1',
    '',
  ]);
  await ui.finish(page, violations, 'balances');
});

it('at 390 px, from the menu: a provider without a balance read says so, and an empty period says nothing was recorded, in both languages', async () => {
  const { page, violations } = await ui.signedIn(390, 844);
  await followNavLink(page, 'Saldo e extrato');
  await page.getByRole('heading', { name: 'Saldo e extrato' }).waitFor();
  await page.getByText('Escolha uma conta para ver o saldo informado pelo provedor.').waitFor();
  await page.goto(`${stack.gateway.httpUrl!}/#/balances?account=${noBalanceId}&from=2026-01-01&to=2026-01-31`);
  await page.getByTestId('balance-value').getByText('indisponível para este provedor').waitFor();
  await page.getByText('Nada registrado neste período.').waitFor();
  await expect(page.getByTestId('statement-day').count()).resolves.toBe(0);
  // The English catalogue says the same.
  await page.getByRole('radiogroup', { name: 'Idioma' }).getByText('EN').click();
  await page.getByRole('heading', { name: 'Balance and statement' }).waitFor();
  await page.getByTestId('balance-value').getByText('unavailable for this provider').waitFor();
  await page.getByText('Nothing recorded in this period.').waitFor();
  await page.getByTestId('fees-note').getByText('Net does not take fees off.', { exact: false }).waitFor();
  await ui.finish(page, violations, 'balances-390');
});
