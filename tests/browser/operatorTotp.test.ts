import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { base32Decode, totpCode } from '../../server/lib/totp.js';
import { accessibilityViolations, backOfficePages, followNavLink, signInAs, launchBrowser, screenshot } from '../support/browser.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { SEEDED_CHARGES, SEEDING_TIMEOUT_MS } from '../support/seedCharges.js';

/**
 * Issue 33 §6, "invite an operator who signs in with 2FA", at a desktop's and a phone's width: an admin invites an
 * operator, who signs in, turns on two-step verification under "Minha conta" (the codes computed here as an
 * authenticator app would), signs out, and signs in again with a code.
 * It runs on a gateway seeded with 100,000 charges at accounts of their own (tests/support/seedCharges.ts); the
 * second gateway, which only refuses an admin without 2FA, on none.
 */
let browser: Browser;
let stack: TestStack;

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);

beforeAll(async () => {
  stack = await startTestStack({ seededCharges: SEEDED_CHARGES });
  browser = await launchBrowser();
}, SEEDING_TIMEOUT_MS);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

it.each([1280, 390])(
  'at %i px an invited operator turns on two-step verification and signs in with a code',
  async (width) => {
    const email = `duas-etapas-${width}@example.com`;
    const admin = await pages.signedIn(width, 844);
    await followNavLink(admin.page, 'Equipe');
    await admin.page.getByRole('button', { name: 'Convidar operador' }).click();
    const dialog = admin.page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await dialog.getByRole('button', { name: 'Convidar' }).click();
    const password = (await dialog.getByTestId('initial-password').textContent())!;
    await dialog.getByRole('button', { name: 'Concluir' }).click();
    await admin.page.context().close();

    const invited = await pages.openPage(width, 844);
    const page = invited.page;
    await signInAs(page, email, password);
    await page.getByTestId('operator').waitFor();
    await followNavLink(page, 'Minha conta');
    await page.getByText('Desativada. Com ela, entrar pede também um código do aplicativo autenticador do seu celular.').waitFor();
    await page.getByRole('button', { name: 'Ativar', exact: true }).click();
    await page.getByRole('img', { name: 'QR code da verificação em duas etapas' }).waitFor();
    const secret = base32Decode((await page.getByTestId('totp-secret').textContent())!);
    const code = page.getByLabel(/^Código de 6 dígitos/);
    await code.fill(totpCode(secret, Date.now() - 120_000));
    await page.getByRole('button', { name: 'Confirmar e ativar' }).click();
    await page.getByText('Código incorreto ou já usado. Espere o próximo código e tente de novo.').waitFor();
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await screenshot(page, `two-step-enrolling-${width}px`);
    await code.fill(totpCode(secret, Date.now()));
    await page.getByRole('button', { name: 'Confirmar e ativar' }).click();
    await page.getByText('Verificação em duas etapas ativada.').waitFor();
    await page.getByText('Ativada: entrar pede um código do aplicativo autenticador.').waitFor();
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await screenshot(page, `two-step-on-${width}px`);

    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) await menu.click();
    await page.getByRole('button', { name: 'Sair' }).click();
    await signInAs(page, email, password);
    await page.getByRole('alert').getByText('Digite o código de 6 dígitos do seu aplicativo autenticador.').waitFor();
    const signInCode = page.getByLabel(/^Código de 6 dígitos/);
    await signInCode.fill('000000' === totpCode(secret, Date.now() + 30_000) ? '111111' : '000000');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.getByRole('alert').getByText('Código incorreto ou já usado. Espere o próximo código e tente de novo.').waitFor();
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await screenshot(page, `sign-in-two-step-${width}px`);
    // The confirmation spent the current step: the authenticator's next code signs in.
    await signInCode.fill(totpCode(secret, Date.now() + 30_000));
    await page.getByRole('button', { name: 'Entrar' }).click();
    await expect(page.getByTestId('operator').textContent()).resolves.toBe(email);
    await pages.finish(page, invited.violations, `signed-in-two-step-${width}px`);

    // A lost phone: an admin turns it off from the team's page, and the password alone signs in again.
    const again = await pages.signedIn(width, 844);
    await followNavLink(again.page, 'Equipe');
    const row = again.page.getByTestId('team-table').locator(`[data-email="${email}"]`);
    await row.getByText('Duas etapas', { exact: true }).waitFor();
    await row.getByRole('button', { name: `Desativar verificação em duas etapas: ${email}` }).click();
    await row.getByText('Duas etapas', { exact: true }).waitFor({ state: 'detached' });
    await pages.finish(again.page, again.violations, `team-two-step-reset-${width}px`);
    const lostPhone = await pages.openPage(width, 844);
    await signInAs(lostPhone.page, email, password);
    await expect(lostPhone.page.getByTestId('operator').textContent()).resolves.toBe(email);
    await lostPhone.page.context().close();
  },
  // Three password hashes (scrypt, on purpose slow) and four axe runs on a shared 2-core machine.
  150_000,
);

it('with OPERATOR_TOTP_REQUIRED_FOR_ADMINS an admin without it is told to turn it on, and may use the back-office once it is', async () => {
  const strict = await startTestStack({ env: { OPERATOR_TOTP_REQUIRED_FOR_ADMINS: 'true' } });
  try {
    const strictPages = backOfficePages(
      () => browser,
      () => strict.gateway,
    );
    const { page, violations } = await strictPages.signedIn(1280, 844);
    const required = page.getByText('Administradores precisam ativar a verificação em duas etapas antes de usar o back-office.');
    await required.waitFor();
    await followNavLink(page, 'Equipe');
    await page.getByText('Ative a verificação em duas etapas em Minha conta antes de continuar: ela é obrigatória para administradores.').waitFor();
    await followNavLink(page, 'Minha conta');
    await page.getByRole('button', { name: 'Ativar', exact: true }).click();
    const secret = base32Decode((await page.getByTestId('totp-secret').textContent())!);
    await page.getByLabel(/^Código de 6 dígitos/).fill(totpCode(secret, Date.now()));
    await page.getByRole('button', { name: 'Confirmar e ativar' }).click();
    await page.getByText('Verificação em duas etapas ativada.').waitFor();
    await required.waitFor({ state: 'detached' });
    await followNavLink(page, 'Equipe');
    await page.getByTestId('team-table').locator(`[data-email="${strict.gateway.firstAdmin!.email}"]`).waitFor();
    await strictPages.finish(page, violations, 'two-step-required-admin-1280px');
  } finally {
    await strict.close();
  }
}, 150_000);
