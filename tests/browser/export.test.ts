import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { CreateTransactionRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { backOfficePages, launchBrowser } from '../support/browser.js';

/**
 * The Transactions page's CSV export: the charges the applied filters select,
 * paged through ListTransactions in the browser, downloaded as a
 * `;`-separated UTF-8 file for Brazilian Excel, with values escaped and
 * formulas defused.
 */

let browser: Browser;
let stack: TestStack;
const ui = backOfficePages(
  () => browser,
  () => stack.gateway,
);

const account = async (name: string) =>
  (
    await stack.client.call(
      'accounts',
      'createProviderAccount',
      CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name, publicKey: 'pk', secretKey: 'sk' }),
    )
  ).providerAccount.id as string;

async function pixCharge(providerAccountId: string, amount: number, orderId: string) {
  const { transaction } = await stack.client.call(
    'gateway',
    'createTransaction',
    CreateTransactionRequest.fromPartial({
      providerAccountId,
      transaction: {
        amount,
        orderId,
        paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX,
        customer: { name: 'Ana', document: '12345678909', email: 'ana@example.com', phone: '11987654321' },
      },
    }),
  );
  return transaction as { id: string; transactionId: string; createdAt: Date };
}

beforeAll(async () => {
  stack = await startTestStack();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

it("exports the filtered charges as transacoes-YYYY-MM-DD.csv: BOM, ';' cells, header from the catalogue, escaped values, amounts in reais; cancel stops it, a failure shows its message", async () => {
  const exportedId = await account('Exportadas');
  const otherId = await account('Fora da exportação');
  const plain = await pixCharge(exportedId, 123456, 'pedido-simples');
  const semicolon = await pixCharge(exportedId, 29, 'pedido;com "aspas"');
  const formula = await pixCharge(exportedId, 5, '=HYPERLINK("http://x")');
  const other = await pixCharge(otherId, 777, 'outra-conta');

  const { page, violations } = await ui.signedIn();
  await page.getByRole('link', { name: 'Transações' }).click();
  await page.getByRole('combobox', { name: /^Conta de provedor/ }).click();
  await page.getByRole('option', { name: 'Exportadas (SANDBOX)' }).click();
  // The list shows the filtered account's three charges, not the other one.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="transactions-table"] tbody tr').length === 3);

  await expect(page.locator(`tr[data-id="${other.id}"]`).count()).resolves.toBe(0);

  // Keyboard: the button is focused and pressed with Enter.
  await page.getByRole('button', { name: 'Exportar CSV' }).focus();
  const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')]);
  expect(download.suggestedFilename()).toMatch(/^transacoes-\d{4}-\d{2}-\d{2}\.csv$/);
  const bytes = readFileSync((await download.path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).split('\r\n');
  expect(lines.pop()).toBe('');
  expect(lines[0]).toBe(
    'ID;Provedor;Conta de provedor;ID no provedor;Pedido;Forma de pagamento;Situação;Valor (R$);Moeda;Criada em;Cliente;E-mail do cliente;Documento do cliente;Descrição;Motivo da recusa;Mensagem da recusa',
  );
  const row = (tx: { id: string; transactionId: string; createdAt: Date }, order: string, amount: string) =>
    [
      tx.id,
      'SANDBOX',
      exportedId,
      tx.transactionId,
      order,
      'PIX',
      'Pendente',
      amount,
      'BRL',
      tx.createdAt.toISOString(),
      'Ana',
      'ana@example.com',
      '123.456.789-09',
      '',
      '',
      '',
    ].join(';');
  // Newest first, as the list; only the filtered account's charges.
  expect(lines.slice(1)).toEqual([
    row(formula, `"'=HYPERLINK(""http://x"")"`, '0,05'),
    row(semicolon, '"pedido;com ""aspas"""', '0,29'),
    row(plain, 'pedido-simples', '1234,56'),
  ]);
  await expect(page.getByTestId('export-progress').count()).resolves.toBe(0);

  // The export's calls (page_size 200) held, then failed: cancel stops it without a file; a failure shows the gateway's message.
  const exportCall = (body: unknown) => (body as { pageSize?: number }).pageSize === 200;
  let downloads = 0;
  page.on('download', () => downloads++);
  const held: Array<() => Promise<void>> = [];
  await page.route('**/gateway.v1.PaymentGatewayService/ListTransactions', (route) =>
    exportCall(route.request().postDataJSON()) ? void held.push(() => route.abort()) : route.continue(),
  );
  await page.getByRole('button', { name: 'Exportar CSV' }).click();
  await expect(page.getByTestId('export-progress').textContent()).resolves.toBe('0 exportadas');
  await page.getByRole('button', { name: 'Cancelar exportação' }).click();
  await page.getByTestId('export-progress').waitFor({ state: 'detached' });
  await expect(page.getByRole('button', { name: 'Exportar CSV' }).isEnabled()).resolves.toBe(true);
  await expect(page.getByRole('alert').count()).resolves.toBe(0);
  for (const release of held) await release();
  await page.unroute('**/gateway.v1.PaymentGatewayService/ListTransactions');
  await page.route('**/gateway.v1.PaymentGatewayService/ListTransactions', (route) =>
    exportCall(route.request().postDataJSON())
      ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ code: 'unavailable', message: 'Banco indisponível' }) })
      : route.continue(),
  );
  await page.getByRole('button', { name: 'Exportar CSV' }).click();
  await expect(page.getByRole('alert').textContent()).resolves.toBe('Banco indisponível');
  await expect(page.getByTestId('export-progress').count()).resolves.toBe(0);
  expect(downloads).toBe(0);
  await ui.finish(page, violations, 'transactions-export');
});
