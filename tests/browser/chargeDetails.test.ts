import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod, TransactionStatus, type Transaction } from '../../gen/ts-proto/gateway/v1/types.js';
import { SANDBOX_TEST_CARDS } from '../../server/sandbox/testCards.js';
import { backOfficePages, launchBrowser, screenshot } from '../support/browser.js';
import { sandboxCardId } from '../support/sandboxCard.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { onDatabase } from '../support/postgres.js';
import { SEEDED_CHARGES, SEEDING_TIMEOUT_MS } from '../support/seedCharges.js';

/**
 * Issue 33 §1 in the back-office: "what happened to Maria's payment?" An operator finds her charges by "mari",
 * opens the declined one and sees the customer, the card's last 4 and why it was declined; opens the paid one,
 * refunds part of it and sees the refund as a record (at 1280, and another charge's at 390 px). The list shows short
 * ids with a copy button and whole status badges, at 1280 and at 390 px. A PIX charge paid shows the payment's end-to-end id and payer among its method details.
 * It runs on a gateway seeded with 100,000 charges (tests/support/seedCharges.ts), a tenth of them a Maria's or a
 * Mariana's: "mari" finds thousands, her own two first (they are the newest).
 */
let browser: Browser;
let stack: TestStack;
let accountId: string;
const made = {} as Record<'declined' | 'paid' | 'other' | 'phone', Transaction>;

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);

type Asked = NonNullable<CreateTransactionRequest['transaction']>;

async function charge(transaction: Partial<Asked>): Promise<Transaction> {
  return (await stack.client.call('gateway', 'createTransaction', CreateTransactionRequest.fromPartial({ providerAccountId: accountId, transaction })))
    .transaction;
}

async function cardCharge(name: string, email: string, cardNumber: string, amount: number): Promise<Transaction> {
  const cardId = await sandboxCardId(stack.client, accountId, cardNumber);
  return charge({
    amount,
    paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD,
    installments: 2,
    cardId,
    customer: { name, email, document: '12345678909', phone: '11987654321' },
    description: 'Assinatura anual',
    items: [{ id: 'plano', title: 'Plano anual', unitPrice: amount, quantity: 1, tangible: false }],
  });
}

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' }, seededCharges: SEEDED_CHARGES });
  const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
    provider: 'SANDBOX',
    name: 'Loja',
    publicKey: 'pk',
    secretKey: 'sk-charge-details',
  });
  accountId = providerAccount.id;
  made.other = await cardCharge('João Pereira', 'joao@example.com', SANDBOX_TEST_CARDS.approved, 1500);
  made.declined = await cardCharge('Maria Aparecida Souza', 'maria.souza@example.com', SANDBOX_TEST_CARDS.insufficientFunds, 12990);
  made.paid = await cardCharge('Maria Aparecida Souza', 'maria.souza@example.com', SANDBOX_TEST_CARDS.approved, 12990);
  // Refunded in part on a phone: not a Maria's, so that "mari" still finds her two first.
  made.phone = await cardCharge('Paulo Gomes', 'paulo.gomes@example.com', SANDBOX_TEST_CARDS.approved, 7990);
  expect([made.declined.status, made.paid.status, made.phone.status]).toEqual([
    TransactionStatus.TRANSACTION_STATUS_REJECTED,
    TransactionStatus.TRANSACTION_STATUS_APPROVED,
    TransactionStatus.TRANSACTION_STATUS_APPROVED,
  ]);
  browser = await launchBrowser();
}, SEEDING_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** The back-office's page of a list (web/src/ui.tsx). */
const PAGE_SIZE = 25;
const SEARCH = 'Busca (nome, e-mail, documento, pedido ou id, ou parte deles)';

/** Every status badge in the list shows its whole label: none is cut or narrower than its text. */
async function badgesWhole(page: Page): Promise<string[]> {
  return page
    .getByTestId('transactions-table')
    .getByTestId('status')
    .evaluateAll((badges) =>
      badges.map((badge) => {
        const label = (badge.querySelector('.mantine-Badge-label') ?? badge) as HTMLElement;
        const cut = label.scrollWidth > label.clientWidth || badge.getBoundingClientRect().width < label.scrollWidth;
        return `${label.textContent}${cut ? ' (cut)' : ''}`;
      }),
    );
}

/** Her two charges' badges first, and every badge of the page whole. */
async function badgesWholeWithHersFirst(page: Page) {
  const badges = await badgesWhole(page);
  expect(badges.slice(0, 2)).toEqual(['Aprovada', 'Recusada']);
  expect(badges.filter((badge) => badge.endsWith('(cut)'))).toEqual([]);
  expect(badges).toHaveLength(PAGE_SIZE);
}

/**
 * The list, searched for "mari": a page of the charges whose customer's name has "mari" in it, newest first, her two
 * first. Read from the database, by the name alone: no seeded e-mail, document, order or id has "mari" in it.
 */
async function searchMari(page: Page) {
  const found = await onDatabase(stack.database.url, (client) =>
    client.query<{ id: string }>(`select id from transactions where customer_name ilike '%mari%' order by created_at desc, id desc limit ${PAGE_SIZE}`),
  );
  const expected = found.rows.map((row) => row.id);
  expect(expected.slice(0, 2)).toEqual([made.paid.id, made.declined.id]);
  expect(expected).toHaveLength(PAGE_SIZE);
  await page.getByRole('link', { name: 'Transações', exact: true }).first().click();
  await page.getByLabel(SEARCH).fill('mari');
  // Exactly that page once the search is answered (the unfiltered list shows first, João's charge third in it, and
  // nothing while it loads), within the page's own waiting.
  await page.waitForFunction(
    (ids) =>
      JSON.stringify(Array.from(document.querySelectorAll('[data-testid="transactions-table"] tbody tr'), (row) => row.getAttribute('data-id'))) ===
      JSON.stringify(ids),
    expected,
  );
  const table = page.getByTestId('transactions-table');
  return table;
}

it('finds Maria\'s charges by "mari", shows the declined one whole, and refunds part of the paid one as a record', async () => {
  const { page, violations } = await pages.signedIn(1280, 900);
  const table = await searchMari(page);
  const declinedRow = table.locator(`tr[data-id="${made.declined.id}"]`);
  // A short id, with the whole one copied and named.
  await expect(declinedRow.getByRole('link', { name: made.declined.id }).textContent()).resolves.toBe(made.declined.id.slice(0, 8));
  await declinedRow.getByRole('button', { name: `Copiar: ID ${made.declined.id.slice(0, 8)}` }).waitFor();
  await badgesWholeWithHersFirst(page);
  await screenshot(page, 'charge-search-1280');

  await declinedRow.getByRole('link', { name: made.declined.id }).click();
  const facts = page.getByTestId('transaction');
  await expect(facts.getByTestId('card').textContent()).resolves.toBe('Visa terminado em 9995');
  await expect(facts.getByTestId('decline-reason').textContent()).resolves.toBe('Saldo ou limite insuficiente (código do provedor: insufficient_funds)');
  await expect(facts.getByTestId('description').textContent()).resolves.toBe('Assinatura anual');
  await expect(page.getByTestId('customer').textContent()).resolves.toBe('NomeMaria Aparecida SouzaE-mailmaria.souza@example.comDocumento123.456.789-09');
  await expect(page.getByTestId('items').locator('tbody tr').allTextContents()).resolves.toEqual(['Plano anual1R$ 129,90R$ 129,90']);
  await page.getByText('Nenhum estorno.').waitFor();
  await screenshot(page, 'charge-declined-1280');

  await page.getByRole('link', { name: 'Voltar às transações' }).click();
  await page.goto(`${stack.gateway.httpUrl!}/#/transactions/${made.paid.id}`);
  await expect(page.getByTestId('transaction').getByTestId('card').textContent()).resolves.toBe('Visa terminado em 1111');
  await refundPart(page, '30,00', 'R$ 99,90');
  await pages.finish(page, violations, 'charge-refunded-1280');
});

/**
 * On the open charge's page: refunds `amount` (typed as R$ dd,dd) in part, confirmed, and sees it as the one record
 * of the refunds table (short id, amount, day, who, status, provider's id), the refunded and refundable sums updated.
 */
async function refundPart(page: Page, amount: string, refundable: string) {
  await page.getByLabel('Parcial').check();
  await page.getByLabel('Valor a estornar (R$)').fill(amount);
  await page.getByRole('button', { name: 'Estornar', exact: true }).click();
  await page.getByRole('button', { name: `Estornar R$ ${amount}` }).click();
  const record = page.getByTestId('refunds').locator('tbody tr');
  await record.waitFor();
  const cells = await record.locator('td').allTextContents();
  expect(cells[0]).toMatch(/^[0-9a-f]{8}$/);
  expect(cells.slice(1)).toEqual([
    `R$ ${amount}`,
    expect.stringMatching(/\d{2}\/\d{2}\/\d{4}/),
    stack.gateway.firstAdmin!.email,
    'Concluído',
    expect.stringMatching(/\S/),
  ]);
  await expect(page.getByTestId('refunded').textContent()).resolves.toBe(`R$ ${amount}`);
  await expect(page.getByTestId('refundable').textContent()).resolves.toBe(refundable);
}

it('at 390 px the list keeps short ids and whole badges (the table scrolls), and the charge page its facts', async () => {
  const { page, violations } = await pages.signedIn(390, 844);
  await page.getByRole('button', { name: 'Menu' }).click();
  const table = await searchMari(page);
  await badgesWholeWithHersFirst(page);
  await expect(table.locator(`tr[data-id="${made.paid.id}"]`).getByRole('link', { name: made.paid.id }).textContent()).resolves.toBe(made.paid.id.slice(0, 8));
  await screenshot(page, 'charge-search-390');

  await table.locator(`tr[data-id="${made.declined.id}"]`).getByRole('link', { name: made.declined.id }).click();
  await expect(page.getByTestId('transaction').getByTestId('decline-reason').textContent()).resolves.toContain('Saldo ou limite insuficiente');
  await expect(page.getByTestId('customer').textContent()).resolves.toContain('Maria Aparecida Souza');
  await pages.finish(page, violations, 'charge-declined-390');
});

it('at 390 px an operator refunds part of a paid charge and sees the refund as a record, the page within the width', async () => {
  const { page, violations } = await pages.signedIn(390, 844);
  await page.goto(`${stack.gateway.httpUrl!}/#/transactions/${made.phone.id}`);
  await expect(page.getByTestId('transaction').getByTestId('card').textContent()).resolves.toBe('Visa terminado em 1111');
  await refundPart(page, '20,00', 'R$ 59,90');
  // The refunds table scrolls inside its frame: the page itself is no wider than the phone.
  await expect(page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).resolves.toBeLessThanOrEqual(0);
  await pages.finish(page, violations, 'charge-refunded-390');
});

/** A PIX charge Carlos paid on the sandbox, as the provider's read reports it (notifications wait: no webhook workers here). */
async function paidPixCharge(): Promise<Transaction> {
  const transaction = await charge({
    amount: 4990,
    paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
    customer: { name: 'Carlos Lima', email: 'carlos@example.com', document: '52998224725', phone: '11987654321' },
  });
  await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: transaction.id }));
  const paid = (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transaction.id, refresh: true }))).transaction;
  expect(paid.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  return paid;
}

it('a PIX charge paid shows its end-to-end id and payer among the method details: in Portuguese at 1280, in English at 390 px', async () => {
  const pix = await paidPixCharge();
  expect(pix.pixEndToEndId).toMatch(/^E99999999\d{12}[a-zA-Z0-9]{11}$/);
  const shown = (page: Page) =>
    page
      .getByTestId('transaction')
      .locator('dt')
      .evaluateAll((terms) =>
        terms.map(
          (term) => `${term.textContent}: ${term.nextElementSibling?.querySelector('[data-testid]')?.textContent ?? term.nextElementSibling?.textContent}`,
        ),
      );

  const wide = await pages.signedIn(1280, 900);
  await wide.page.goto(`${stack.gateway.httpUrl!}/#/transactions/${pix.id}`);
  await wide.page.getByTestId('pix-end-to-end-id').waitFor();
  await expect(shown(wide.page)).resolves.toEqual(
    expect.arrayContaining([
      `ID fim a fim (E2E): ${pix.pixEndToEndId}`,
      'Pagador: Carlos Lima',
      'Documento do pagador: 529.982.247-25',
      'Banco do pagador: Banco Sandbox · ISPB 99999999',
    ]),
  );
  await wide.page.getByRole('button', { name: 'Copiar: ID fim a fim (E2E)' }).waitFor();
  await pages.finish(wide.page, wide.violations, 'charge-pix-payer-1280');

  const narrow = await pages.signedIn(390, 844, '?lang=en');
  await narrow.page.goto(`${stack.gateway.httpUrl!}/?lang=en#/transactions/${pix.id}`);
  await narrow.page.getByTestId('pix-end-to-end-id').waitFor();
  await expect(shown(narrow.page)).resolves.toEqual(
    expect.arrayContaining([
      `End-to-end ID (E2E): ${pix.pixEndToEndId}`,
      'Payer: Carlos Lima',
      "Payer's document: 529.982.247-25",
      "Payer's bank: Banco Sandbox · ISPB 99999999",
    ]),
  );
  // The 32-character id stays inside a 390 px page.
  const overflow = await narrow.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await pages.finish(narrow.page, narrow.violations, 'charge-pix-payer-390');
});
