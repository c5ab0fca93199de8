import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { backOfficePages, followNavLink, launchBrowser } from '../support/browser.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 33 §8 in the back-office: bad input the browser lets through is refused by the gateway with the rule it broke
 * (a BadRequest violation's reason), and the form says that rule beside the field in the UI's language, not the
 * gateway's English. An e-mail whose local part is longer than 64 characters passes the browser's own check of an
 * e-mail field but not the gateway's.
 */
let browser: Browser;
let stack: TestStack;

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);

beforeAll(async () => {
  stack = await startTestStack();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const LONG_LOCAL_PART = `${'x'.repeat(65)}@example.com`;

it.each([
  ['Portuguese', '', 'Equipe', 'Convidar operador', 'Convidar', 'Informe um endereço de e-mail válido.'],
  ['English', '?lang=en', 'Team', 'Invite operator', 'Invite', 'Enter a valid e-mail address.'],
])('the team invitation in %s says a bad e-mail in that language beside the field', async (_language, path, team, open, submit, text) => {
  const { page, violations } = await pages.signedIn(1280, 900, path);
  await followNavLink(page, team);
  await page.getByRole('button', { name: open }).click();
  const dialog = page.getByRole('dialog');
  const email = dialog.getByRole('textbox', { name: 'E-mail' });
  await email.fill(LONG_LOCAL_PART);
  await dialog.getByRole('button', { name: submit, exact: true }).click();
  await dialog.getByText(text).waitFor();
  await expect(email.getAttribute('aria-invalid')).resolves.toBe('true');
  await expect(dialog.getByText('email must be an e-mail address').count()).resolves.toBe(0);
  await expect(page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).resolves.toEqual(['', 0, 0]);
  expect(violations).toEqual([]);
  await page.context().close();
});
