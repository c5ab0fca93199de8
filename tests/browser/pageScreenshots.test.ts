import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CreateReceiverRequest, CreateTransactionRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { DisputeKind, OpenDisputeRequest } from '../../gen/ts-proto/gateway/v1/dispute_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod, PixKeyType, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { accessibilityViolations, backOfficePages, launchBrowser, screenshot } from '../support/browser.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { SEEDED_CHARGES, SEEDING_TIMEOUT_MS } from '../support/seedCharges.js';

/**
 * Every page of the back-office, at 1280 and 390 px, with something on it: its heading, no accessibility violation
 * of any impact, nothing wider than the window, and a screenshot in test-results/screenshots (page-<width>-<name>.png) for
 * review. The 1280 px run also takes the window's view of the dashboard and of a paid charge, the README's pictures
 * (docs/images/ holds them, compressed). On a gateway seeded with 100,000 charges at accounts of their own
 * (tests/support/seedCharges.ts): the lists and the dashboard as a busy gateway shows them, the suite's own charges
 * the newest.
 */
let browser: Browser;
let stack: TestStack;
const ids = { charge: '', payout: '', receiver: '', dispute: '', account: '' };
const ACCOUNT = 'Sandbox da loja';

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);

beforeAll(async () => {
  stack = await startTestStack({ seededCharges: SEEDED_CHARGES });
  const api = stack.client;
  const { providerAccount } = await api.call(
    'accounts',
    'createProviderAccount',
    CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: ACCOUNT, publicKey: 'pk', secretKey: 'sk-telas' }),
  );
  const providerAccountId = providerAccount.id;
  ids.account = providerAccountId;
  const charge = (key: string, amount: number, extra: Record<string, unknown> = {}) =>
    api.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId,
        idempotencyKey: key,
        omitPixQrImage: true,
        transaction: {
          amount,
          paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
          orderId: key,
          description: 'Assinatura mensal',
          customer: { name: 'Maria Souza', email: 'maria@example.com', document: '52998224725' },
          ...extra,
        },
      }),
    );
  const { transaction } = await charge('pedido-1001', 19_990);
  ids.charge = transaction.id;
  await api.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
  const { dispute } = await api.call(
    'disputes',
    'openDispute',
    OpenDisputeRequest.fromPartial({ transactionId: transaction.id, kind: DisputeKind.DISPUTE_KIND_PIX_INFRACTION, reason: 'Golpe relatado pelo pagador' }),
  );
  ids.dispute = dispute.id;
  await charge('pedido-1002', 4_590);
  await charge('pedido-1003', 12_000, { paymentMethod: PaymentMethod.PAYMENT_METHOD_BILLET });
  const { withdrawal } = await api.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId,
      idempotencyKey: 'saque-1',
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 4321, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
    }),
  );
  ids.payout = withdrawal.id;
  const { receiver } = await api.call(
    'gateway',
    'createReceiver',
    CreateReceiverRequest.fromPartial({ providerAccountId, receiver: { name: 'Loja da Ana', document: '52998224725', email: 'ana@example.com' } }),
  );
  ids.receiver = receiver.id;
  browser = await launchBrowser();
}, SEEDING_TIMEOUT_MS);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** Each page: where it is, and what shows once its data arrived. */
const PAGES: { name: string; hash: () => string; ready: (page: Page) => Promise<unknown> }[] = [
  { name: 'dashboard', hash: () => '#/', ready: (page) => page.getByTestId('chart-status-canvas').waitFor() },
  { name: 'transactions', hash: () => '#/transactions', ready: (page) => page.locator(`[data-id="${ids.charge}"]`).waitFor() },
  { name: 'transaction', hash: () => `#/transactions/${ids.charge}`, ready: (page) => page.getByText('Maria Souza').first().waitFor() },
  { name: 'new-charge', hash: () => '#/transactions/new', ready: (page) => page.getByRole('button', { name: /Criar cobrança/ }).waitFor() },
  { name: 'payouts', hash: () => '#/payouts', ready: (page) => page.locator(`[data-id="${ids.payout}"]`).waitFor() },
  { name: 'payout', hash: () => `#/payouts/${ids.payout}`, ready: (page) => page.getByTestId('payout').waitFor() },
  { name: 'new-payout', hash: () => '#/payouts/new', ready: (page) => page.getByRole('button', { name: 'Revisar saque' }).waitFor() },
  { name: 'receivers', hash: () => '#/receivers', ready: (page) => page.getByText('Loja da Ana').first().waitFor() },
  { name: 'receiver', hash: () => `#/receivers/${ids.receiver}`, ready: (page) => page.getByText('ana@example.com').first().waitFor() },
  { name: 'new-receiver', hash: () => '#/receivers/new', ready: (page) => page.getByRole('button', { name: 'Criar recebedor' }).waitFor() },
  { name: 'accounts', hash: () => '#/accounts', ready: (page) => page.locator('tr', { hasText: ACCOUNT }).waitFor() },
  { name: 'providers', hash: () => '#/providers', ready: (page) => page.locator('[data-provider="SANDBOX"]').waitFor() },
  { name: 'operations', hash: () => '#/operations', ready: (page) => page.getByText('Nenhuma entrega com tentativas esgotadas.').waitFor() },
  { name: 'routes', hash: () => '#/routes', ready: (page) => page.getByText('Nenhuma rota ainda.').waitFor() },
  { name: 'disputes', hash: () => '#/disputes', ready: (page) => page.locator(`tr[data-id="${ids.dispute}"]`).waitFor() },
  { name: 'dispute', hash: () => `#/disputes/${ids.dispute}`, ready: (page) => page.getByRole('heading', { name: 'Disputa', exact: true }).waitFor() },
  {
    name: 'balances',
    hash: () => `#/balances?account=${ids.account}`,
    ready: (page) =>
      page
        .getByTestId('balance-value')
        .getByText(/disponível/)
        .waitFor(),
  },
  { name: 'audit', hash: () => '#/audit', ready: (page) => page.getByText('createProviderAccount').first().waitFor() },
  // By its heading first: the audit trail before it has rows naming the admin too.
  {
    name: 'team',
    hash: () => '#/team',
    ready: async (page) => {
      await page.getByRole('heading', { name: 'Equipe', exact: true }).waitFor();
      await page.locator('tr', { hasText: stack.gateway.firstAdmin!.email }).first().waitFor();
    },
  },
  { name: 'tokens', hash: () => '#/tokens', ready: (page) => page.getByRole('button', { name: 'Criar token' }).waitFor() },
  { name: 'my-account', hash: () => '#/account', ready: (page) => page.getByRole('heading', { name: 'Minha conta', exact: true }).waitFor() },
];

/** No Mantine loader left on the page: every query it started has answered. */
const settled = (page: Page) => page.waitForFunction(() => document.querySelectorAll('.mantine-Loader-root').length === 0);
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

async function visitEveryPage(width: number, height: number): Promise<void> {
  const signIn = await pages.openPage(width, height);
  await signIn.page.getByRole('button', { name: 'Entrar' }).waitFor();
  await screenshot(signIn.page, `page-${width}-sign-in`);
  await signIn.page.context().close();

  const { page, violations } = await pages.signedIn(width, height);
  for (const { name, hash, ready } of PAGES) {
    await page.evaluate((to) => (window.location.hash = to), hash());
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await ready(page);
    await settled(page);
    await expect(fitsWidth(page).then((fits) => (fits ? name : `${name} is wider than ${width} px`))).resolves.toBe(name);
    await expect(accessibilityViolations(page).then((found) => found.map((violation) => `${name}: ${violation}`))).resolves.toEqual([]);
    await screenshot(page, `page-${width}-${name}`);
    if (width === 1280 && (name === 'dashboard' || name === 'transaction')) await screenshot(page, `readme-${name}`, false);
  }
  await pages.finish(page, violations, `page-${width}-last`);
}

it('every page at 1280 px: its heading and data, no accessibility violation, a screenshot', async () => {
  await visitEveryPage(1280, 900);
}, 120_000);

it('every page at 390 px: the same, each fitting the width', async () => {
  await visitEveryPage(390, 844);
}, 120_000);
