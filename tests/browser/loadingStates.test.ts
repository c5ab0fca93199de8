import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CreateTransactionRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CloseDisputeRequest, DisputeKind, DisputeStatus, OpenDisputeRequest } from '../../gen/ts-proto/gateway/v1/dispute_service.js';
import { PaymentMethod, PixKeyType, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { backOfficePages, launchBrowser } from '../support/browser.js';
import { failureOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { sandboxCardId } from '../support/sandboxCard.js';

/**
 * Issue 33 §1, §6 and §8 in the back-office, at 1280 and 390 px: every list and record page shows a spinner named
 * "Carregando…" while its first answer is held back (an empty table or a bare title is not "nothing there"), and only
 * until the answer arrives; the payouts list shows short ids with a copy button; the audit trail's detail opens in its
 * row without a hover. Axe- and CSP-clean; screenshots in test-results/.
 */
let browser: Browser;
let stack: TestStack;
let payout: string;
let dispute: string;
/** What the gateway answered when the closed dispute was closed again: that refusal's audit detail. */
let refusal: string;

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);

beforeAll(async () => {
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
  const account = (
    await stack.client.call('accounts', 'createProviderAccount', { provider: 'SANDBOX', name: 'Loja', publicKey: 'pk', secretKey: 'sk-carregando' })
  ).providerAccount.id;
  payout = (
    await stack.client.call(
      'gateway',
      'withdraw',
      WithdrawRequest.fromPartial({
        providerAccountId: account,
        idempotencyKey: 'carregando-saque-1',
        withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 4321, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
      }),
    )
  ).withdrawal.id;
  const cardId = await sandboxCardId(stack.client, account);
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId: account,
      transaction: { amount: 9900, paymentMethod: PaymentMethod.PAYMENT_METHOD_CREDIT_CARD, cardId, customer: { name: 'Ana Souza', document: '39053344705' } },
    }),
  );
  dispute = (
    await stack.client.call(
      'disputes',
      'openDispute',
      OpenDisputeRequest.fromPartial({ transactionId: transaction.id, kind: DisputeKind.DISPUTE_KIND_CHARGEBACK, reason: 'Fraude' }),
    )
  ).dispute.id;
  const close = (outcome: DisputeStatus) => stack.client.call('disputes', 'closeDispute', CloseDisputeRequest.fromPartial({ disputeId: dispute, outcome }));
  await close(DisputeStatus.DISPUTE_STATUS_WON);
  refusal = `dispute ${dispute} is closed: it takes no more evidence or changes`;
  await expect(failureOf(close(DisputeStatus.DISPUTE_STATUS_LOST))).resolves.toEqual({ code: 'FAILED_PRECONDITION', message: refusal });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/**
 * Opens `path` with the answers of `rpc` held back: the page's spinner shows while they are, and is gone once they
 * are let through and `shown` (what the answer puts on the page) is there.
 */
async function loaderWhileHeld(page: Page, path: string, rpc: string, shown: (page: Page) => Promise<unknown>) {
  const pattern = `**/gateway.v1.${rpc}`;
  const held: Array<() => Promise<void>> = [];
  let arrived!: () => void;
  const first = new Promise<void>((resolve) => (arrived = resolve));
  let released = false;
  await page.route(pattern, (route) => {
    if (released) return route.continue();
    held.push(() => route.continue());
    arrived();
  });
  await page.goto(`${stack.gateway.httpUrl}/#${path}`);
  // The page asked, and has no answer yet: its spinner says so.
  await first;
  const loader = page.getByRole('main').getByRole('status', { name: 'Carregando…' });
  await loader.waitFor();
  released = true;
  for (const release of held) await release();
  await page.unroute(pattern);
  await shown(page);
  await loader.waitFor({ state: 'detached' });
}

it.each([[1280], [390]])('at %i px each list and record page shows a spinner until its answer arrives, and then its data', async (width) => {
  const { page, violations } = await pages.signedIn(width, 900);
  await loaderWhileHeld(page, '/payouts', 'PaymentGatewayService/ListWithdrawals', (p) => p.locator(`[data-id="${payout}"]`).waitFor());
  await loaderWhileHeld(page, `/payouts/${payout}`, 'PaymentGatewayService/GetWithdraw', (p) => p.getByTestId('payout').waitFor());
  await loaderWhileHeld(page, '/receivers', 'PaymentGatewayService/ListReceivers', (p) => p.getByText('Nada encontrado.').waitFor());
  await loaderWhileHeld(page, '/disputes', 'DisputeService/ListDisputes', (p) => p.locator(`[data-id="${dispute}"]`).waitFor());
  await loaderWhileHeld(page, `/disputes/${dispute}`, 'DisputeService/GetDispute', (p) => p.getByTestId('dispute-status').getByText('Ganha').waitFor());
  await loaderWhileHeld(page, '/audit', 'AccessService/ListAuditEvents', (p) => p.getByTestId('audit-table').locator('tbody tr').first().waitFor());
  await loaderWhileHeld(page, '/team', 'AccessService/ListOperators', (p) => p.locator(`[data-email="${stack.gateway.firstAdmin!.email}"]`).waitFor());
  await loaderWhileHeld(page, '/tokens', 'AccessService/ListServiceTokens', (p) => p.getByTestId('tokens-table').waitFor());
  await pages.finish(page, violations, `loading-${width}`);
});

it.each([[1280], [390]])('at %i px the payouts list shows the short id, links the full one and copies it', async (width) => {
  const { page, violations } = await pages.signedIn(width, 900, '#/payouts');
  const row = page.locator(`[data-id="${payout}"]`);
  const link = row.getByRole('link', { name: payout, exact: true });
  await expect(link.textContent()).resolves.toBe(payout.slice(0, 8));
  const copy = row.getByRole('button', { name: `Copiar: ID ${payout.slice(0, 8)}` });
  // The id and its button on one line, whole: the table scrolls sideways at a phone's width rather than cut them.
  const [linkBox, copyBox] = [await link.boundingBox(), await copy.boundingBox()];
  expect(Math.abs(linkBox!.y + linkBox!.height / 2 - (copyBox!.y + copyBox!.height / 2))).toBeLessThan(4);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await copy.click();
  await row.getByRole('button', { name: `Copiado: ID ${payout.slice(0, 8)}` }).waitFor();
  await expect(page.evaluate(() => navigator.clipboard.readText())).resolves.toBe(payout);
  await link.click();
  await page.getByTestId('payout').waitFor();
  expect(page.url()).toContain(`#/payouts/${payout}`);
  await pages.finish(page, violations, `payouts-short-id-${width}`);
});

it.each([[1280], [390]])("at %i px an audit event's detail opens in its row, without hovering, within the page's width", async (width) => {
  const { page, violations } = await pages.signedIn(width, 900, `#/audit?resource=${dispute}`);
  const rows = page.getByTestId('audit-table').locator('tbody tr');
  const row = rows.filter({ hasText: 'FAILED_PRECONDITION' });
  await row.waitFor();
  const detail = row.getByTestId('audit-detail');
  await expect(detail.isVisible()).resolves.toBe(false);
  await row.getByText('FAILED_PRECONDITION', { exact: true }).click();
  await expect(detail.textContent()).resolves.toBe(refusal);
  await expect(detail.isVisible()).resolves.toBe(true);
  // Wrapped within the page's width, yet not squeezed by the other columns into a word a line; the outcome on one line.
  const box = (await detail.boundingBox())!;
  expect(box.width).toBeLessThan(width * 0.75);
  expect(box.width).toBeGreaterThan(200);
  const summary = (await row.locator('summary').boundingBox())!;
  expect(summary.height).toBeLessThan(30);
  // The OK event has no detail to open: its outcome is plain text.
  await expect(rows.filter({ hasText: 'OpenDispute' }).locator('details').count()).resolves.toBe(0);
  await pages.finish(page, violations, `audit-detail-${width}`);
});
