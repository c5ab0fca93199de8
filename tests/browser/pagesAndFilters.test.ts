import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Locator, Page } from 'playwright-core';
import { CreateTransactionRequest, ListProvidersRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { accessibilityViolations, backOfficePages, callsTo, chooseOption, launchBrowser } from '../support/browser.js';
import type { Driver } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * The document's language and title follow the catalogue; the Transactions list pages with "load more" and filters
 * by provider; the Providers page filters by payment method; the pages that had no check at a phone's width fit it.
 */
let browser: Browser;
let stack: TestStack;
let api: Driver;
let providers: { id: string; paymentMethods: PaymentMethod[]; specGroup: string }[];
/** The charges of the paging account: one more than a page (PAGE_SIZE, 25). */
const PAGED = 26;
const PAGED_ACCOUNT = 'Conta paginada';
let firstCharge: string;

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);

beforeAll(async () => {
  stack = await startTestStack();
  api = stack.client;
  const { providerAccount } = await api.call(
    'accounts',
    'createProviderAccount',
    CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: PAGED_ACCOUNT, publicKey: 'pk', secretKey: 'sk' }),
  );
  for (let i = 0; i < PAGED; i += 1) {
    const { transaction } = await api.call(
      'gateway',
      'createTransaction',
      CreateTransactionRequest.fromPartial({
        providerAccountId: providerAccount.id,
        idempotencyKey: `paged-${i}`,
        transaction: { amount: 100 + i, orderId: `paged-${i}`, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX },
      }),
    );
    firstCharge ??= transaction.id;
  }
  ({ providers } = await api.call('gateway', 'listProviders', ListProvidersRequest.fromPartial({})));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** Waits until the table shows `count` rows. */
const rowsShown = (rows: Locator, count: number) => eventually(async () => (await rows.count()) === count, 10_000, `${count} rows`);

/** No horizontal scrolling: the page fits the window's width. */
const fitsWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

it('the document says its language and title in the chosen language: Portuguese by default, English after the switch or with ?lang=en', async () => {
  const served = await (await fetch(`${stack.gateway.httpUrl}/`)).text();
  expect(served).toMatch(/<html lang="pt-BR">/);
  expect(served).toContain('<title>Back-office do gateway de pagamentos</title>');
  const document = (page: Page) => page.evaluate(() => [window.document.documentElement.lang, window.document.title]);

  const { page, violations } = await pages.openPage();
  await page.getByRole('button', { name: 'Entrar' }).waitFor();
  await expect(document(page)).resolves.toEqual(['pt-BR', 'Back-office do gateway de pagamentos']);
  await page.getByRole('radiogroup', { name: 'Idioma' }).getByText('EN').click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await expect(document(page)).resolves.toEqual(['en', 'Payment gateway back-office']);
  await page.getByRole('radiogroup', { name: 'Language' }).getByText('PT').click();
  await expect(document(page)).resolves.toEqual(['pt-BR', 'Back-office do gateway de pagamentos']);
  await pages.finish(page, violations, 'document-language');

  const english = await pages.openPage(1280, 900, '?lang=en');
  await english.page.getByRole('button', { name: 'Sign in' }).waitFor();
  await expect(document(english.page)).resolves.toEqual(['en', 'Payment gateway back-office']);
  await pages.finish(english.page, english.violations, 'document-language-en');
});

it('transactions: "load more" brings the next page; the provider filter offers the registered providers and sends the chosen one', async () => {
  const { page, violations } = await pages.signedIn();
  const lists = callsTo(page, 'ListTransactions');
  await page.getByRole('link', { name: 'Transações' }).click();
  await chooseOption(page, page.getByRole('combobox', { name: 'Conta de provedor' }), `${PAGED_ACCOUNT} (SANDBOX)`);
  const rows = page.getByTestId('transactions-table').locator('tbody tr');
  await rowsShown(rows, 25);
  await expect(page.locator(`tr[data-id="${firstCharge}"]`).count()).resolves.toBe(0);
  await page.getByRole('button', { name: 'Carregar mais' }).click();
  await page.locator(`tr[data-id="${firstCharge}"]`).waitFor();
  await expect(rows.count()).resolves.toBe(PAGED);
  await page.getByRole('button', { name: 'Carregar mais' }).waitFor({ state: 'detached' });

  const providerSelect = page.getByRole('combobox', { name: 'Provedor', exact: true });
  await providerSelect.click();
  await expect(page.getByRole('listbox').getByRole('option').allTextContents()).resolves.toEqual(providers.map((p) => p.id));
  await page.keyboard.press('Escape');
  // One whose name is in no other's (the options are found by a part of their name).
  const other = providers.find((p) => p.id !== 'SANDBOX' && !providers.some((q) => q !== p && q.id.toLowerCase().includes(p.id.toLowerCase())))!.id;
  await chooseOption(page, providerSelect, other);
  await page.getByText('Nada encontrado.').waitFor();
  expect(lists.at(-1)).toMatchObject({ provider: other });
  await chooseOption(page, providerSelect, 'SANDBOX');
  await rowsShown(rows, 25);
  expect(lists.at(-1)).toMatchObject({ provider: 'SANDBOX' });
  await pages.finish(page, violations, 'transactions-provider-filter');
});

it('transactions: the filters live in the address, so a reload shows the same list; days are typed and shown as dd/mm/aaaa', async () => {
  const { page, violations } = await pages.signedIn();
  const lists = callsTo(page, 'ListTransactions');
  await page.getByRole('link', { name: 'Transações' }).click();
  await chooseOption(page, page.getByRole('combobox', { name: 'Conta de provedor' }), `${PAGED_ACCOUNT} (SANDBOX)`);
  const from = page.getByRole('textbox', { name: 'Criadas a partir de' });
  await expect(from.getAttribute('placeholder')).resolves.toBe('dd/mm/aaaa');
  const today = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  const iso = `${today.getFullYear()}-${pad(today.getMonth() + 1)}-${pad(today.getDate())}`;
  // Typed as digits only: the slashes come by themselves.
  await from.pressSequentially(`${pad(today.getDate())}${pad(today.getMonth() + 1)}${today.getFullYear()}`);
  await expect(from.inputValue()).resolves.toBe(`${pad(today.getDate())}/${pad(today.getMonth() + 1)}/${today.getFullYear()}`);
  await page.getByRole('searchbox', { name: /^Busca/ }).fill('paged-7');
  await eventually(async () => lists.at(-1)?.query === 'paged-7', 10_000, 'the search sent');
  expect(lists.at(-1)).toMatchObject({ providerAccountId: expect.any(String), query: 'paged-7', createdFrom: expect.any(String) });
  await eventually(async () => new URL(page.url()).hash.includes('q=paged-7'), 10_000, 'the search in the address');
  expect(new URL(page.url()).hash).toContain(`from=${iso}`);

  // A reload (or the link, shared) brings the same filters and the same list back.
  await page.reload();
  await expect(page.getByRole('textbox', { name: 'Criadas a partir de' }).inputValue()).resolves.toBe(formatted(iso));
  await expect(page.getByRole('searchbox', { name: /^Busca/ }).inputValue()).resolves.toBe('paged-7');
  await rowsShown(page.getByTestId('transactions-table').locator('tbody tr'), 1);

  // A day that does not exist is said so, and filters nothing.
  const field = page.getByRole('textbox', { name: 'Criadas até' });
  await field.pressSequentially('31022026');
  await page.getByText('Data inválida: use dd/mm/aaaa').waitFor();
  expect(new URL(page.url()).hash).not.toContain('to=');
  await pages.finish(page, violations, 'transactions-filters-in-address');
});

/** An ISO day as the page shows it. */
const formatted = (iso: string) => iso.split('-').reverse().join('/');

it('providers: the payment method filter keeps the providers that offer it, and a reload keeps the filters', async () => {
  const { page, violations } = await pages.signedIn();
  await page.getByRole('link', { name: 'Provedores' }).click();
  const rows = page.locator('[data-testid="providers-table"] tbody tr');
  await rowsShown(rows, providers.length);
  await chooseOption(page, page.getByRole('combobox', { name: 'Forma de pagamento' }), 'Boleto');
  const billet = providers.filter((p) => p.paymentMethods.includes(PaymentMethod.PAYMENT_METHOD_BILLET)).map((p) => p.id);
  expect(billet.length).toBeGreaterThan(0);
  expect(billet.length).toBeLessThan(providers.length);
  await rowsShown(rows, billet.length);
  await expect(rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-provider')))).resolves.toEqual(billet);

  // The filters are in the address, as the other lists': a reload shows the same providers.
  const group = providers.find((p) => p.paymentMethods.includes(PaymentMethod.PAYMENT_METHOD_BILLET))!.specGroup;
  await chooseOption(page, page.getByRole('combobox', { name: 'Grupo de especificação' }), group);
  const both = providers.filter((p) => p.specGroup === group && p.paymentMethods.includes(PaymentMethod.PAYMENT_METHOD_BILLET)).map((p) => p.id);
  await rowsShown(rows, both.length);
  expect(new URL(page.url()).hash).toMatch(/method=.*group=|group=.*method=/);
  await page.reload();
  await rowsShown(rows, both.length);
  await expect(rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-provider')))).resolves.toEqual(both);
  await expect(page.getByRole('combobox', { name: 'Forma de pagamento' }).inputValue()).resolves.toBe('Boleto');
  await pages.finish(page, violations, 'providers-method-filter');
});

it('at 390 px the dashboard, a transaction, the provider accounts and the providers fit the width, with no serious accessibility violation', async () => {
  const { page, violations } = await pages.signedIn(390, 844);
  const visit = async (hash: string, heading: string, ready: () => Promise<unknown>) => {
    await page.evaluate((to) => (window.location.hash = to), hash);
    await page.getByRole('heading', { name: heading, exact: true }).waitFor();
    await ready();
    await expect(fitsWidth(page)).resolves.toBe(true);
    // Each page visited, not only the last (finish checks that one).
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
  };
  await visit('#/', 'Painel', () => page.getByTestId('chart-status-canvas').waitFor());
  await visit(`#/transactions/${firstCharge}`, 'Transação', () => page.getByTestId('transaction').waitFor());
  await visit('#/accounts', 'Contas de provedor', () => page.locator('tr', { hasText: PAGED_ACCOUNT }).waitFor());
  await visit('#/providers', 'Provedores', () => page.locator('[data-provider="SANDBOX"]').waitFor());
  await pages.finish(page, violations, 'narrow-pages');
});
