import { afterAll, beforeAll, expect, it } from '@jest/globals';
import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { CreateTransactionRequest, RefoundTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { SimulatePaymentRequest } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { SANDBOX_TEST_CARDS } from '../../server/sandbox/testCards.js';
import { grpcDriver, type Driver } from '../support/clients.js';
import { createTestDatabase } from '../support/postgres.js';
import { removeDir, startTestGateway, TEST_TOKEN } from '../support/gateway.js';
import { accessibilityViolations, backOfficePages, launchBrowser } from '../support/browser.js';
import { sandboxCardId } from '../support/sandboxCard.js';

/**
 * Issue 33 §2 in the back-office: the dashboard's headline is the net volume (approved less refunds and chargebacks),
 * not the amount of every charge created; gross, refunded and charged-back parts under it, and conversion (approved
 * over approved and declined) per payment method and provider, in Portuguese and English, at 1280 and 390 px.
 *
 * On a gateway of its own: a PIX charge of R$ 100,00 paid and R$ 25,00 refunded, one of R$ 50,00 paid and refunded
 * whole, a card charge of R$ 45,00 approved then charged back (the sandbox has no chargeback: written to the
 * database, status and event, as a provider's notification would leave it), a declined card charge of R$ 50,00 and a pending PIX of
 * R$ 30,00. Created: R$ 275,00; approved: R$ 195,00; kept: R$ 75,00.
 *
 * Not on the seeded gateway (tests/support/seedCharges.ts) the other browser suites walk: the dashboard sums every
 * account's charges and has no account filter, and these exact totals are of an empty gateway's five charges. The
 * dashboard on 100,000 charges is walked by pageScreenshots and transferSizes.
 */

let browser: Browser;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let api: Driver;

const { signedIn, finish } = backOfficePages(
  () => browser,
  () => gateway,
);

beforeAll(async () => {
  database = await createTestDatabase();
  gateway = await startTestGateway({ databaseUrl: database.url });
  api = grpcDriver(gateway.grpcAddress!, TEST_TOKEN);
  const { providerAccount } = await api.call(
    'accounts',
    'createProviderAccount',
    CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: 'Volume', publicKey: 'pk', secretKey: 'sk' }),
  );
  const accountId: string = providerAccount.id;
  const charge = async (amount: number, paymentMethod = PaymentMethod.PAYMENT_METHOD_PIX, cardId?: string) =>
    (
      await api.call(
        'gateway',
        'createTransaction',
        CreateTransactionRequest.fromPartial({
          providerAccountId: accountId,
          transaction: { amount, paymentMethod, cardId, customer: { name: 'Ana', document: '12345678909', email: 'ana@example.com', phone: '11987654321' } },
        }),
      )
    ).transaction as { id: string; status: TransactionStatus };
  const paid = async (amount: number) => {
    const made = await charge(amount);
    await api.call('sandbox', 'simulatePayment', SimulatePaymentRequest.fromPartial({ id: made.id }));
    return made.id;
  };
  const refund = (id: string, amount: number, idempotencyKey: string) =>
    api.call('gateway', 'refoundTransaction', RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id, amount, idempotencyKey }));

  await refund(await paid(10_000), 2500, 'volume-partial');
  await refund(await paid(5000), 0, 'volume-full');
  const card = await charge(4500, PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, await sandboxCardId(api, accountId));
  expect(card.status).toBe(TransactionStatus.TRANSACTION_STATUS_APPROVED);
  const declined = await charge(5000, PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, await sandboxCardId(api, accountId, SANDBOX_TEST_CARDS.declined));
  expect(declined.status).toBe(TransactionStatus.TRANSACTION_STATUS_REJECTED);
  expect((await charge(3000)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);
  const db = new pg.Client({ connectionString: database.url });
  await db.connect();
  try {
    // The status and its event, as the state machine writes them: the chargeback counts on the day of the move.
    await db.query(`update transactions set status = 'CHARGEBACK' where id = $1`, [card.id]);
    await db.query(
      `insert into status_events (subject, subject_id, provider_account_id, status, source, occurred_at)
       select 'TRANSACTION', id, provider_account_id, 'CHARGEBACK', 'WEBHOOK', now() from transactions where id = $1`,
      [card.id],
    );
  } finally {
    await db.end();
  }
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  api?.close();
  await gateway?.close();
  await database?.drop();
  if (gateway) removeDir(gateway.dataDir);
});

const text = (page: Page, testId: string) => page.getByTestId(testId).textContent();
/** A conversion table's rows, each as its cells' texts. */
const rows = (page: Page, testId: string) =>
  page
    .getByTestId(testId)
    .locator('tbody tr')
    .evaluateAll((trs) => trs.map((tr) => Array.from(tr.children, (cell) => cell.textContent)));

it('dashboard: the headline is the net volume, not the gross, with its parts, and conversion per payment method and provider', async () => {
  const { page, violations } = await signedIn();
  await page.getByRole('heading', { name: 'Painel' }).waitFor();
  await page.getByTestId('stat-volume-parts').waitFor();
  await expect(text(page, 'stat-volume')).resolves.toBe('R$ 75,00');
  await expect(page.getByText('Volume líquido', { exact: true }).first().isVisible()).resolves.toBe(true);
  await expect(text(page, 'stat-gross')).resolves.toBe('R$ 195,00');
  await expect(text(page, 'stat-refunded')).resolves.toBe('-R$ 75,00');
  await expect(text(page, 'stat-chargeback')).resolves.toBe('-R$ 45,00');
  // What the figure means: each amount on the day the money moved, as the statement counts it.
  await expect(text(page, 'stat-volume-meaning')).resolves.toBe(
    'Cada valor conta no dia em que o dinheiro se moveu, como no extrato: vendas aprovadas no dia em que foram criadas; estornos e chargebacks no dia em que aconteceram, mesmo de vendas de antes do período. Quantidades e conversão são das cobranças criadas no período.',
  );
  // The amount of every charge created is still said, as what it is, beside the count.
  await expect(text(page, 'stat-count')).resolves.toBe('5');
  await expect(text(page, 'stat-count-detail')).resolves.toBe('R$ 275,00 em cobranças criadas, em qualquer situação (pagas ou não).');
  // 3 approved (one refunded whole, one charged back) of 4 decided: the pending charge is not a refusal.
  await expect(text(page, 'stat-approval')).resolves.toBe('75%');
  await expect(text(page, 'stat-approval-detail')).resolves.toMatch(/^3 aprovadas de 4 decididas\./);

  await expect(page.getByTestId('conversion-method').locator('thead th').allTextContents()).resolves.toEqual([
    'Forma de pagamento',
    'Aprovadas',
    'Recusadas',
    'Pendentes',
    'Conversão',
    'Volume líquido',
  ]);
  await expect(rows(page, 'conversion-method')).resolves.toEqual([
    ['PIX', '2', '0', '1', '100%', 'R$ 75,00'],
    ['Cartão de crédito', '1', '1', '0', '50%', 'R$ 0,00'],
  ]);
  await expect(rows(page, 'conversion-provider')).resolves.toEqual([['SANDBOX', '3', '1', '1', '75%', 'R$ 75,00']]);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);

  await page.getByText('EN', { exact: true }).click();
  await page.getByRole('heading', { name: 'Dashboard' }).waitFor();
  await page.getByText('Net volume', { exact: true }).first().waitFor();
  await expect(text(page, 'stat-volume')).resolves.toBe('R$ 75,00');
  await expect(page.getByTestId('stat-volume-parts').locator('dt').allTextContents()).resolves.toEqual(['Approved (gross)', 'Refunded', 'Charged back']);
  await expect(text(page, 'stat-volume-meaning')).resolves.toBe(
    'Each amount counts on the day the money moved, as in the statement: approved sales on the day they were created; refunds and chargebacks on the day they happened, even of sales from before the period. Counts and conversion are of the charges created in the period.',
  );
  await expect(text(page, 'stat-approval-detail')).resolves.toMatch(/^3 approved of 4 decided\./);
  await expect(page.getByTestId('conversion-provider').locator('thead th').allTextContents()).resolves.toEqual([
    'Provider',
    'Approved',
    'Declined',
    'Pending',
    'Conversion',
    'Net volume',
  ]);
  await expect(rows(page, 'conversion-method')).resolves.toEqual([
    ['PIX', '2', '0', '1', '100%', 'R$ 75,00'],
    ['Credit card', '1', '1', '0', '50%', 'R$ 0,00'],
  ]);
  await finish(page, violations, 'dashboard-net-volume');
});

it('dashboard at 390 px: the net volume and the conversion tables fit the width, with no serious accessibility violation', async () => {
  const { page, violations } = await signedIn(390, 844);
  await page.getByTestId('stat-volume-parts').waitFor();
  await expect(text(page, 'stat-volume')).resolves.toBe('R$ 75,00');
  await page.getByTestId('conversion-provider').waitFor();
  await expect(page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).resolves.toBe(true);
  await finish(page, violations, 'dashboard-net-volume-390px');
});
