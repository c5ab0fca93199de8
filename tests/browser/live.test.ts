import { createServer, type Server, type Socket } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CreateReceiverRequest, WithdrawRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import {
  CreateProviderAccountRequest,
  DeleteProviderAccountRequest,
  UpdateProviderAccountRequest,
} from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { PixKeyType, WithdrawMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { backOfficePages, launchBrowser } from '../support/browser.js';
import type { Driver } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * The back-office follows changes made elsewhere (through the API) without a reload: receivers and provider accounts
 * as well as charges and payouts, whose events the dashboard's feed shows. The pages reach the gateway through a
 * loopback TCP relay that the test can cut, as a network outage or a gateway restart would: after it, the page
 * shows what changed during the outage, even when the stream had seen no event before it dropped.
 */
let browser: Browser;
let stack: TestStack;
let api: Driver;
let accountId: string;
let relay: Relay;

/** A TCP relay to the gateway's Connect port; `cut` drops every connection and refuses new ones until `restore`. */
interface Relay {
  url: string;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

async function startRelay(target: URL): Promise<Relay> {
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((socket) => {
    if (!open) return socket.destroy();
    const upstream = connect(Number(target.port), target.hostname);
    for (const [one, other] of [
      [socket, upstream],
      [upstream, socket],
    ] as const) {
      sockets.add(one);
      one.pipe(other);
      one.on('error', () => other.destroy());
      one.on('close', () => {
        sockets.delete(one);
        other.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const pages = backOfficePages(
  () => browser,
  () => ({ httpUrl: relay.url, firstAdmin: stack.gateway.firstAdmin }),
);

beforeAll(async () => {
  stack = await startTestStack();
  api = stack.client;
  accountId = (
    await api.call(
      'accounts',
      'createProviderAccount',
      CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: 'Conta ao vivo', publicKey: 'pk', secretKey: 'sk' }),
    )
  ).providerAccount.id;
  relay = await startRelay(new URL(stack.gateway.httpUrl!));
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  relay?.cut();
  await relay?.close();
  await stack?.close();
});

const createReceiver = async (name: string) =>
  (
    await api.call(
      'gateway',
      'createReceiver',
      CreateReceiverRequest.fromPartial({ providerAccountId: accountId, receiver: { name, document: '52998224725', email: 'ao.vivo@example.com' } }),
    )
  ).receiver as { id: string };

/** Marks the page's document: the mark is gone after a reload. */
const mark = (page: Page) => page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
const stillMarked = (page: Page) => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded === true);

it('receivers and provider accounts created, changed and deleted through the API appear on open pages without a reload', async () => {
  const { page, violations } = await pages.signedIn();
  await page.getByRole('link', { name: 'Recebedores' }).click();
  await page.getByRole('heading', { name: 'Recebedores' }).waitFor();
  await page.getByText('Nada encontrado.').waitFor();
  await mark(page);
  const receiver = await createReceiver('Recebedor ao vivo');
  await page.locator(`[data-id="${receiver.id}"]`).getByText('Recebedor ao vivo').waitFor();

  await page.getByRole('link', { name: 'Contas de provedor' }).click();
  await page.locator(`tr[data-id="${accountId}"]`).waitFor();
  const { providerAccount } = await api.call(
    'accounts',
    'createProviderAccount',
    CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: 'Criada pela API', publicKey: 'pk', secretKey: 'sk' }),
  );
  const row = page.locator(`tr[data-id="${providerAccount.id}"]`);
  await row.getByText('Criada pela API').waitFor();
  await api.call('accounts', 'updateProviderAccount', UpdateProviderAccountRequest.fromPartial({ id: providerAccount.id, name: 'Renomeada pela API' }));
  await row.getByText('Renomeada pela API').waitFor();
  await api.call('accounts', 'deleteProviderAccount', DeleteProviderAccountRequest.fromPartial({ id: providerAccount.id }));
  await row.waitFor({ state: 'detached' });
  await expect(stillMarked(page)).resolves.toBe(true);
  await pages.finish(page, violations, 'live-receivers-accounts');
});

it('after the stream drops before any event and comes back, a receiver created during the outage is listed without a reload', async () => {
  const { page, violations } = await pages.signedIn();
  await page.getByRole('link', { name: 'Recebedores' }).click();
  await page.getByTestId('receivers-table').locator('tbody tr').first().waitFor();
  await mark(page);
  relay.cut();
  const created = await createReceiver('Criado durante a queda');
  // Longer than the page's wait before reconnecting: at least one reconnection fails meanwhile.
  await new Promise((resolve) => setTimeout(resolve, 3_000));
  relay.restore();
  await page.locator(`[data-id="${created.id}"]`).getByText('Criado durante a queda').waitFor({ timeout: 15_000 });
  await expect(stillMarked(page)).resolves.toBe(true);
  await pages.finish(page, violations, 'live-after-outage');
});

it("dashboard: the live feed shows payouts' status changes too, linking to the payout", async () => {
  const { page, violations } = await pages.signedIn();
  await page.getByRole('heading', { name: 'Painel' }).waitFor();
  // The stream is open once the page has been signed in for a moment; the payout comes after.
  await page.getByText('Aguardando eventos…').waitFor();
  const { withdrawal } = await api.call(
    'gateway',
    'withdraw',
    WithdrawRequest.fromPartial({
      providerAccountId: accountId,
      idempotencyKey: 'live-feed-payout',
      withdraw: { paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX, amount: 1234, pixKey: 'ana@example.com', pixType: PixKeyType.PIX_KEY_TYPE_EMAIL },
    }),
  );
  const link = page.getByTestId('feed').getByRole('link', { name: withdrawal.id }).first();
  await link.waitFor();
  const row = page
    .getByTestId('feed')
    .locator('tr')
    .filter({ has: page.getByRole('link', { name: withdrawal.id }) })
    .first();
  await expect(row.textContent()).resolves.toMatch(/Saque/);
  // A payout's status (masculine in Portuguese, unlike a charge's): pending, or already paid by the sandbox.
  await expect(row.getByTestId('status').textContent()).resolves.toMatch(/^(Pendente|Aprovado)$/);
  await link.click();
  await page.getByRole('heading', { name: 'Saque' }).waitFor();
  expect(new URL(page.url()).hash).toBe(`#/payouts/${withdrawal.id}`);
  await pages.finish(page, violations, 'live-feed-payout');
});
