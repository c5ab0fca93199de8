import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from '@jest/globals';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = 'test-results/screenshots';

/** Headless Chromium for the back-office's tests; refuses to start without the browser or the built app. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`browser tests need Debian's chromium at ${CHROMIUM} (apt-get install chromium; .ci/run installs it)`);
  if (!existsSync('web/dist/index.html')) throw new Error('the back-office is not built: npm run build:web (npm test does it first)');
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** axe-core's browser build, evaluated in pages (the page's CSP refuses inline scripts, not the test's own evaluation). */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** What axe-core says of one rule's failures. */
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; any: { data?: { fgColor?: string; bgColor?: string; contrastRatio?: number } | null }[] }[];
}

/** For a contrast failure, the colours and their ratio: what to change. */
const contrastOf = (node: AxeViolation['nodes'][number]) => {
  const data = node.any.find((check) => check.data?.contrastRatio)?.data;
  return data ? ` (${data.fgColor} on ${data.bgColor}: ${data.contrastRatio}:1)` : '';
};

/**
 * Every accessibility violation axe-core finds in the page as it is now (WCAG 2.1 A and AA and axe's best practices),
 * whatever its impact, one line each: rule, impact, what it asks and where. "Axe clean" means none: a moderate or minor
 * one (a missing landmark, a skipped heading level) is still a page a screen-reader user walks worse.
 */
export async function accessibilityViolations(page: Page): Promise<string[]> {
  // A dialog or a notification still fading in or out has the colours of its transition (a title at 3 % of its
  // contrast): finite transitions and animations end first; a spinner's, which never ends, is not waited for.
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => Number.isFinite(animation.effect?.getComputedTiming().endTime ?? Infinity))
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  // Evaluated as a script that answers nothing: its last value would be axe itself, for Playwright to serialize.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(`${AXE_SOURCE};\nundefined`);
  const violations = await page.evaluate(() =>
    (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }).axe.run(document, {
      resultTypes: ['violations'],
      // axe would fetch the page's stylesheets again (for one best-practice rule); a page whose gateway is gone by then would keep it waiting.
      preload: false,
      iframes: false,
    }),
  );
  return (violations.violations as AxeViolation[]).flatMap((violation) =>
    violation.nodes.map((node) => `${violation.id} (${violation.impact}): ${violation.help} at ${node.target.join(' ')}${contrastOf(node)}`),
  );
}

/** Last: Playwright hides the caret with a <style> of its own, which the CSP reports. */
/**
 * Opens a select and picks `option` once it is there. Its options load with the page's queries: a dropdown opened
 * before they arrived (a busy machine) shows none, and one that closes again before the click (focus moving while the
 * page settles) loses its options, so the select is opened again until the option is seen and clicked, and the select
 * then shows it.
 */
export async function chooseOption(page: Page, select: Locator, option: string): Promise<void> {
  const choice = page.getByRole('option', { name: option });
  for (let attempt = 1; ; attempt += 1) {
    try {
      if (!(await choice.isVisible())) await select.click();
      await choice.click({ timeout: 3_000 });
      if ((await select.inputValue()) === option) return;
    } catch (error) {
      if (attempt === 5) throw error;
    }
    if (attempt === 5) throw new Error(`the select shows "${await select.inputValue()}" after choosing "${option}"`);
    // Closed again if it was open and empty, so that the next click opens it with its options.
    if (await page.getByRole('listbox').isVisible()) await page.keyboard.press('Escape');
  }
}

/** The Connect JSON body of each call the page makes to one PaymentGatewayService RPC from now on, in order. */
export function callsTo(page: Page, method: string): Record<string, any>[] {
  const bodies: Record<string, any>[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith(`/gateway.v1.PaymentGatewayService/${method}`)) bodies.push(request.postDataJSON());
  });
  return bodies;
}

/** The whole page, or (`fullPage` false) what the window shows, e.g. for the README's picture of the dashboard. */
export const screenshot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage, caret: 'initial' });

interface BackOffice {
  httpUrl?: string;
  firstAdmin?: { email: string; password?: string };
}

/**
 * Pages at a running gateway's back-office, signed in as its first admin when
 * asked. Both are read when a page opens (they exist only after beforeAll).
 */
export function backOfficePages(browser: () => Browser, gateway: () => BackOffice) {
  /** A new page at the back-office (`path` after the address, e.g. `?lang=en`) that records CSP violations. */
  async function openPage(width = 1280, height = 900, path = ''): Promise<{ page: Page; violations: string[] }> {
    const page = await (await browser().newContext({ viewport: { width, height } })).newPage();
    page.setDefaultTimeout(10_000);
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(`${message.text()} ${JSON.stringify(message.location())}`);
    });
    await page.goto(`${gateway().httpUrl!}/${path}`);
    return { page, violations };
  }

  /** Fills the sign-in form with the first admin's e-mail and a password, and submits it. */
  async function submitSignIn(page: Page, password = gateway().firstAdmin!.password!) {
    await page.getByRole('textbox', { name: 'E-mail' }).fill(gateway().firstAdmin!.email);
    await page.getByLabel(/^(Senha|Password)/).fill(password);
    await page.getByRole('button', { name: /^(Entrar|Sign in)$/ }).click();
  }

  /** A new page signed in as the first admin. */
  async function signedIn(width?: number, height?: number, path?: string): Promise<{ page: Page; violations: string[] }> {
    const opened = await openPage(width, height, path);
    await submitSignIn(opened.page);
    await opened.page.getByTestId('operator').waitFor();
    return opened;
  }

  /**
   * Nothing in scripts' reach or storage, no CSP violation, no accessibility violation of any impact (axe-core);
   * and a screenshot of the page for review.
   */
  async function finish(page: Page, violations: string[], name: string) {
    await expect(page.evaluate(() => [document.cookie, localStorage.length, sessionStorage.length])).resolves.toEqual(['', 0, 0]);
    expect(violations).toEqual([]);
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await screenshot(page, name);
    await page.context().close();
  }

  return { openPage, submitSignIn, signedIn, finish };
}

/** Follows a navigation link, through the menu button where the navigation is behind it (390 px). */
export async function followNavLink(page: Page, link: string): Promise<void> {
  const menu = page.getByRole('button', { name: 'Menu' });
  if (await menu.isVisible()) await menu.click();
  await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
}

/** Fills the Portuguese sign-in form with an operator's e-mail and password, and submits it. */
export async function signInAs(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByLabel(/^Senha/).fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
}
