import { existsSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { chromium, type Browser } from 'playwright-core';
import { createTestDatabase } from '../support/postgres.js';
import { removeDir, startTestGateway } from '../support/gateway.js';

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

it('an operator signs in, sees providers, accounts and the audit trail over Connect-Web, and signs out; nothing is kept in storage', async () => {
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(gateway.httpUrl!);
  await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Payment gateway back-office');

  const admin = gateway.firstAdmin!;
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert').textContent()).resolves.toBe('wrong e-mail or password');

  await page.getByLabel('Password').fill(admin.password!);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const providers = page.getByTestId('providers-table');
  await providers.waitFor();
  await expect(providers.textContent()).resolves.toContain('SANDBOX');
  await expect(page.getByTestId('operator').textContent()).resolves.toBe(admin.email);
  await expect(page.getByTestId('accounts-table').textContent()).resolves.toContain('Shown in the browser');
  await expect(page.getByTestId('audit-table').textContent()).resolves.toContain('auth/SignIn');
  if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });

  // The session cookie is HttpOnly and the CSRF token lives in memory: scripts and storage hold neither.
  await expect(page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).resolves.toEqual(['', 0, 0]);
  // A reload keeps the session (the cookie) and gets the CSRF token again.
  await page.reload();
  await page.getByTestId('providers-table').waitFor();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.reload();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  expect(violations).toEqual([]);
});
