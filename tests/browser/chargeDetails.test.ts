import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page, Route } from 'playwright-core';
import { CreateTransactionRequest, GetTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod, TransactionStatus, type Transaction } from '../../gen/ts-proto/gateway/v1/types.js';
import { SANDBOX_TEST_CARDS } from '../../server/sandbox/testCards.js';
import { shortEmail } from '../../web/src/format.js';
import { backOfficePages, launchBrowser, screenshot } from '../support/browser.js';
import { sandboxCardId } from '../support/sandboxCard.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { onDatabase } from '../support/postgres.js';
import { SEEDED_CHARGES, SEEDING_TIMEOUT_MS } from '../support/seedCharges.js';

/**
 * Issue 33 §1 in the back-office: "what happened to Maria's payment?" An operator finds her charges by "mari" (each
 * row with its customer's name and e-mail, to tell the many Marias apart; a loader while the search is answered),
 * exports them with their customer, description and decline reason, opens the declined one and sees the customer, the card's last 4 and why it was declined; opens the paid one,
 * refunds part of it and sees the refund as a record with its short id and a copy button (at 1280, and another
 * charge's at 390 px). The list shows short ids with a copy button, whole status badges and no cell cut, at 1280 and at
 * 390 px. A PIX charge shows its QR code, copy-and-paste code and expiry while pending; paid, it shows the payment's
 * end-to-end id and payer among its method details instead.
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
 * Runs `check` while the page's calls to a PaymentGatewayService RPC whose Connect JSON body `matches` are held, then
 * lets them through: what the page shows while it waits for an answer.
 */
async function whileHeld(page: Page, method: string, matches: (body: Record<string, unknown>) => boolean, check: () => Promise<void>) {
  const url = `**/gateway.v1.PaymentGatewayService/${method}`;
  let holding = true;
  const held: Route[] = [];
  await page.route(url, (route) => (holding && matches(route.request().postDataJSON()) ? void held.push(route) : route.continue()));
  try {
    await check();
  } finally {
    holding = false;
    await Promise.all(held.map((route) => route.continue()));
    await page.unroute(url);
  }
}

/** The rows' ids of the charges list, once they are exactly `ids` (within the page's own waiting). */
const listShows = (page: Page, ids: string[]) =>
  page.waitForFunction(
    (expected) =>
      JSON.stringify(Array.from(document.querySelectorAll('[data-testid="transactions-table"] tbody tr'), (row) => row.getAttribute('data-id'))) ===
      JSON.stringify(expected),
    ids,
  );

/**
 * The list, searched for "mari": a page of the charges whose customer's name has "mari" in it, newest first, her two
 * first, each row with its customer's name and e-mail (shortened where long). Read from the database, by the name
 * alone: no seeded e-mail, document, order or id has "mari" in it. While the search is answered, a loader and no row.
 */
async function searchMari(page: Page) {
  const found = await onDatabase(stack.database.url, (client) =>
    client.query<{ id: string; customer_name: string; customer_email: string }>(
      `select id, customer_name, customer_email from transactions where customer_name ilike '%mari%' order by created_at desc, id desc limit ${PAGE_SIZE}`,
    ),
  );
  const expected = found.rows.map((row) => row.id);
  expect(expected.slice(0, 2)).toEqual([made.paid.id, made.declined.id]);
  expect(expected).toHaveLength(PAGE_SIZE);
  await page.getByRole('link', { name: 'Transações', exact: true }).first().click();
  await page.getByTestId('transactions-table').locator('tbody tr').first().waitFor();
  await whileHeld(
    page,
    'ListTransactions',
    (body) => body.query === 'mari',
    async () => {
      await page.getByLabel(SEARCH).fill('mari');
      await page.getByRole('status', { name: 'Carregando…' }).waitFor();
      await expect(page.getByTestId('transactions-table').locator('tbody tr').count()).resolves.toBe(0);
    },
  );
  // Exactly that page once the search is answered (the unfiltered list shows first, João's charge third in it).
  await listShows(page, expected);
  await page.getByTestId('transactions-loading').waitFor({ state: 'detached' });
  const table = page.getByTestId('transactions-table');
  const customers = await table
    .locator('tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [row.querySelector('[data-testid="customer-name"]')?.textContent, row.querySelector('[data-testid="customer-contact"]')?.textContent]),
    );
  expect(customers).toEqual(found.rows.map((row) => [row.customer_name, shortEmail(row.customer_email)]));
  expect(customers[0]).toEqual(['Maria Aparecida Souza', 'maria.souza@example.com']);
  return table;
}

/** The list's cells whose content is wider than the cell (cut, or spilling over the next one): none, at any width. */
const cutCells = (page: Page) =>
  page
    .getByTestId('transactions-table')
    .locator('td, td *')
    .evaluateAll((cells) => cells.filter((cell) => cell.scrollWidth > cell.clientWidth + 1).map((cell) => cell.textContent));

it('finds Maria\'s charges by "mari", shows the declined one whole, and refunds part of the paid one as a record', async () => {
  const { page, violations } = await pages.signedIn(1280, 900);
  const table = await searchMari(page);
  const declinedRow = table.locator(`tr[data-id="${made.declined.id}"]`);
  // A short id, with the whole one copied and named.
  await expect(declinedRow.getByRole('link', { name: made.declined.id }).textContent()).resolves.toBe(made.declined.id.slice(0, 8));
  await declinedRow.getByRole('button', { name: `Copiar: ID ${made.declined.id.slice(0, 8)}` }).waitFor();
  await badgesWholeWithHersFirst(page);
  await expect(cutCells(page)).resolves.toEqual([]);
  await screenshot(page, 'charge-search-1280');

  await declinedRow.getByRole('link', { name: made.declined.id }).click();
  const facts = page.getByTestId('transaction');
  await expect(facts.getByTestId('card').textContent()).resolves.toBe('Visa terminado em 9995');
  // The category, the provider's code and its own text (the sandbox's, for its insufficient-funds card).
  await expect(facts.getByTestId('decline-reason').textContent()).resolves.toBe(
    'Saldo ou limite insuficiente (código do provedor: insufficient_funds) — Saldo insuficiente na conta',
  );
  await expect(facts.getByTestId('decline-message').textContent()).resolves.toBe(' — Saldo insuficiente na conta');
  await expect(facts.getByTestId('description').textContent()).resolves.toBe('Assinatura anual');
  await expect(page.getByTestId('customer').textContent()).resolves.toBe('NomeMaria Aparecida SouzaE-mailmaria.souza@example.comDocumento123.456.789-09');
  await expect(page.getByTestId('items').locator('tbody tr').allTextContents()).resolves.toEqual(['Plano anual1R$ 129,90R$ 129,90']);
  await page.getByText('Nenhum estorno.').waitFor();
  await screenshot(page, 'charge-declined-1280');

  await page.getByRole('link', { name: 'Voltar às transações' }).click();
  // A loader, and no facts yet, until the charge arrives.
  await whileHeld(
    page,
    'GetTransaction',
    (body) => body.id === made.paid.id,
    async () => {
      await page.goto(`${stack.gateway.httpUrl!}/#/transactions/${made.paid.id}`);
      await page.getByRole('status', { name: 'Carregando…' }).waitFor();
      await expect(page.getByTestId('transaction').count()).resolves.toBe(0);
    },
  );
  await page.getByTestId('transaction-loading').waitFor({ state: 'detached' });
  await expect(page.getByTestId('transaction').getByTestId('card').textContent()).resolves.toBe('Visa terminado em 1111');
  await refundPart(page, '30,00', 'R$ 99,90');
  await pages.finish(page, violations, 'charge-refunded-1280');
});

it("exports her charges with their customer, description and decline reason and text, after the list's own columns", async () => {
  const { page, violations } = await pages.signedIn(1280, 900);
  await page.getByRole('link', { name: 'Transações', exact: true }).first().click();
  // Her whole e-mail: her two charges only (a whole e-mail is searched as itself, through its own index).
  await page.getByLabel(SEARCH).fill('maria.souza@example.com');
  await listShows(page, [made.paid.id, made.declined.id]);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
  const lines = readFileSync((await download.path())!, 'utf8')
    .slice(1)
    .split('\r\n');
  expect(lines.pop()).toBe('');
  const columns = lines.map((line) => line.split(';'));
  expect(columns[0]!.slice(10)).toEqual(['Cliente', 'E-mail do cliente', 'Documento do cliente', 'Descrição', 'Motivo da recusa', 'Mensagem da recusa']);
  expect(columns.slice(1).map((row) => [row[0], ...row.slice(10)])).toEqual([
    [made.paid.id, 'Maria Aparecida Souza', 'maria.souza@example.com', '123.456.789-09', 'Assinatura anual', '', ''],
    [
      made.declined.id,
      'Maria Aparecida Souza',
      'maria.souza@example.com',
      '123.456.789-09',
      'Assinatura anual',
      'Saldo ou limite insuficiente (código do provedor: insufficient_funds)',
      'Saldo insuficiente na conta',
    ],
  ]);
  await pages.finish(page, violations, 'charge-export-1280');
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
  // Its short id, the whole one in its title and copied by the button beside it.
  const id = record.getByTestId('short-id');
  const whole = (await id.getAttribute('title'))!;
  expect(whole).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  await expect(id.textContent()).resolves.toBe(whole.slice(0, 8));
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await record.getByRole('button', { name: `Copiar: Estorno ${whole.slice(0, 8)}` }).click();
  await page.waitForFunction(async (value) => (await navigator.clipboard.readText()) === value, whole);
  await record.getByRole('button', { name: `Copiado: Estorno ${whole.slice(0, 8)}` }).waitFor();
  const cells = await record.locator('td').allTextContents();
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
  // The customer column, as every other, is whole: the table scrolls sideways inside its frame, not the page.
  await expect(cutCells(page)).resolves.toEqual([]);
  await expect(page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).resolves.toBeLessThanOrEqual(0);
  await screenshot(page, 'charge-search-390');

  await table.locator(`tr[data-id="${made.declined.id}"]`).getByRole('link', { name: made.declined.id }).click();
  const reason = page.getByTestId('transaction').getByTestId('decline-reason');
  await expect(reason.textContent()).resolves.toBe('Saldo ou limite insuficiente (código do provedor: insufficient_funds) — Saldo insuficiente na conta');
  // The whole text is on the narrow page too: it wraps inside its cell rather than running off the page.
  await expect(page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).resolves.toBeLessThanOrEqual(0);
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

/** What a PIX charge's page shows of how to pay it: the QR image, the copy-and-paste code, the expiry. */
const payable = async (page: Page) => ({
  qr: await page.getByTestId('pix-qr').count(),
  code: await page.getByTestId('pix-code').count(),
  expiry: await page
    .getByTestId('transaction')
    .locator('dt', { hasText: /^(Expira em|Expires)$/ })
    .count(),
});

it('a PIX charge shows its QR code, code and expiry while pending; paid, none of them but its end-to-end id and payer among the method details: in Portuguese at 1280, in English at 390 px', async () => {
  const pending = await charge({
    amount: 4990,
    paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
    customer: { name: 'Carlos Lima', email: 'carlos@example.com', document: '52998224725', phone: '11987654321' },
  });
  expect(pending.expiresAt).toBeInstanceOf(Date);
  const wide = await pages.signedIn(1280, 900);
  await wide.page.goto(`${stack.gateway.httpUrl!}/#/transactions/${pending.id}`);
  await wide.page.getByTestId('pix-qr').waitFor();
  await expect(payable(wide.page)).resolves.toEqual({ qr: 1, code: 1, expiry: 1 });

  // Carlos pays it on the sandbox, as the provider's read reports it (notifications wait: no webhook workers here).
  await stack.client.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: pending.id }));
  const pix = (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: pending.id, refresh: true }))).transaction;
  expect(pix.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  expect(pix.pixEndToEndId).toMatch(/^E99999999\d{12}[a-zA-Z0-9]{11}$/);
  // The gateway still answers the code and the QR image; the page no longer offers them.
  expect([pix.pixCode, pix.pixQrCode]).toEqual([expect.stringMatching(/\S/), expect.stringMatching(/^data:image\//)]);
  const shown = (page: Page) =>
    page
      .getByTestId('transaction')
      .locator('dt')
      .evaluateAll((terms) =>
        terms.map(
          (term) => `${term.textContent}: ${term.nextElementSibling?.querySelector('[data-testid]')?.textContent ?? term.nextElementSibling?.textContent}`,
        ),
      );

  await wide.page.reload();
  await wide.page.getByTestId('pix-end-to-end-id').waitFor();
  await expect(payable(wide.page)).resolves.toEqual({ qr: 0, code: 0, expiry: 0 });
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
  await expect(payable(narrow.page)).resolves.toEqual({ qr: 0, code: 0, expiry: 0 });
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
