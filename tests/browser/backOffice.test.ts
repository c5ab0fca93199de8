import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { chromium, type Browser } from 'playwright-core';
import { createTestDatabase } from '../support/postgres.js';
import { removeDir, startTestGateway, TEST_TOKEN } from '../support/gateway.js';

const CHROMIUM = '/usr/bin/chromium';
let browser: Browser;
let gateway: Awaited<ReturnType<typeof startTestGateway>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`browser tests need Debian's chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)`);
  if (!existsSync('web/dist/index.html')) throw new Error('the back-office is not built: npm run build:web (npm test does it first)');
  database = await createTestDatabase();
  gateway = await startTestGateway({ databaseUrl: database.url });
  await gateway.useCases!.accounts.create({ provider: 'SANDBOX', name: 'Shown in the browser', publicKey: 'pk', secretKey: 'sk' });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
});

afterAll(async () => {
  await browser?.close();
  await gateway?.close();
  await database?.drop();
  if (gateway) removeDir(gateway.dataDir);
});

it('the back-office talks Connect-Web to the gateway: providers and accounts with a token, the error without one', async () => {
  const page = await browser.newPage();
  await page.goto(gateway.httpUrl!);
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payment gateway back-office');

  await page.getByLabel('API token').fill('not-the-token');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('alert').textContent()).resolves.toContain('unauthenticated');

  await page.getByLabel('API token').fill(TEST_TOKEN);
  await page.getByRole('button', { name: 'Save' }).click();
  const providers = page.getByTestId('providers-table');
  await providers.waitFor();
  await expect(providers.textContent()).resolves.toContain('SANDBOX');
  await expect(page.getByTestId('accounts-table').textContent()).resolves.toContain('Shown in the browser');
  if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
});
