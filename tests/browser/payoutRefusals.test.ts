import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { GetWithdrawRequest, ListWithdrawalsRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { PixKeyType, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { SANDBOX_FAILING_PIX_KEY, SANDBOX_FAILURE_REASON, SANDBOX_REFUSAL_MESSAGE, SANDBOX_REFUSED_PIX_KEY } from '../../server/sandbox/api.js';
import { backOfficePages, launchBrowser } from '../support/browser.js';
import { eventually } from '../support/eventually.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * A refused payout's page says why (issue 33 §5): one the provider refused when asked (kept REJECTED with the
 * provider's text, no provider id) and one it refused later (the reason its notification gave), at 1280 and 390 px;
 * the refused-at-once payout is listed and exported with its reason.
 */

const ACCOUNT_NAME = 'Saques recusados';
let browser: Browser;
let stack: TestStack;
let refusedAtOnce = { id: '', reason: '' };
let refusedLater = '';

const ui = backOfficePages(
  () => browser,
  () => stack.gateway,
);

const payout = (providerAccountId: string, pixKey: string) =>
  stack.client.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId,
      idempotencyKey: `browser-${pixKey}`,
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 4200, pixKey, pixType: PixKeyType.PIX_KEY_TYPE_EMAIL, name: 'Carla Dias' },
    }),
  );
const readWithdrawal = async (id: string) => (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id }))).withdrawal;

beforeAll(async () => {
  stack = await startTestStack();
  const { providerAccount } = await stack.client.call(
    'accounts',
    'createProviderAccount',
    CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: ACCOUNT_NAME, publicKey: 'pk', secretKey: 'sk', webhookSecret: 'whsec-browser' }),
  );
  const refused = (await payout(providerAccount.id, SANDBOX_REFUSED_PIX_KEY).then(
    () => undefined,
    (error: { details: string }) => error,
  ))!;
  // The id is in the ErrorInfo's metadata; the one REJECTED payout of the account is it.
  const { withdrawals } = await stack.client.call(
    'gateway',
    'listWithdrawals',
    ListWithdrawalsRequest.fromPartial({ providerAccountId: providerAccount.id, pageSize: 10 }),
  );
  refusedAtOnce = { id: withdrawals[0]!.id, reason: withdrawals[0]!.refusalReason };
  expect(refused.details).toBe(refusedAtOnce.reason);
  expect(refusedAtOnce.reason).toContain(SANDBOX_REFUSAL_MESSAGE);
  refusedLater = (await payout(providerAccount.id, SANDBOX_FAILING_PIX_KEY)).withdrawal.id;
  // The sandbox's signed notification settles it REJECTED, with its reason (notification workers run in this stack).
  await eventually(async () => (await readWithdrawal(refusedLater)).status === WithdrawStatus.WITHDRAW_STATUS_REJECTED, 15_000, 'the refusal notification');
  browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const fact = (page: Page, testId: string) => page.getByTestId('payout').getByTestId(testId).textContent();

async function seeRefused(page: Page, id: string, reason: string) {
  await page.goto(`${stack.gateway.httpUrl!}/#/payouts/${id}`);
  await page.getByTestId('payout').getByTestId('refusal-reason').waitFor();
  await expect(fact(page, 'status')).resolves.toBe('Recusado');
  await expect(fact(page, 'refusal-reason')).resolves.toBe(reason);
}

it('at 1280 px, a payout refused when asked shows the provider’s text, and is listed and exported with it', async () => {
  const { page, violations } = await ui.signedIn(1280, 900);
  await seeRefused(page, refusedAtOnce.id, refusedAtOnce.reason);
  // Nothing was made at the provider: no provider id is shown.
  await expect(page.getByTestId('payout').getByTestId('provider-id').count()).resolves.toBe(0);
  await expect(fact(page, 'recipient')).resolves.toBe('Carla Dias');

  await page.goto(`${stack.gateway.httpUrl!}/#/payouts`);
  const rows = page.locator('[data-testid="payouts-table"] tbody tr');
  await rows.first().waitFor();
  await expect(rows.count()).resolves.toBe(2);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
  const lines = readFileSync((await download.path())!, 'utf8')
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  const header = lines[0]!.split(';');
  const exported = lines
    .slice(1)
    .map((line) => line.split(';'))
    .find((cells) => cells[0] === refusedAtOnce.id)!;
  expect(exported[header.indexOf('Situação')]).toBe('Recusado');
  expect(exported[header.indexOf('Motivo da recusa')]).toBe(refusedAtOnce.reason);
  expect(exported[header.indexOf('ID no provedor')]).toBe('');
  await ui.finish(page, violations, 'payout-refused-at-once');
});

it('at 390 px, a payout refused later shows the reason its provider gave', async () => {
  const { page, violations } = await ui.signedIn(390, 844);
  await seeRefused(page, refusedLater, SANDBOX_FAILURE_REASON);
  await expect(page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).resolves.toBeLessThanOrEqual(0);
  await ui.finish(page, violations, 'payout-refused-later-390px');
});
