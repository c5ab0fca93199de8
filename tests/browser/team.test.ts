import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { accessibilityViolations, backOfficePages, followNavLink, signInAs, chooseOption, launchBrowser, screenshot } from '../support/browser.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { SEEDED_CHARGES, SEEDING_TIMEOUT_MS } from '../support/seedCharges.js';

/**
 * Issue 33 §6 in the back-office, at a desktop's and a phone's width: an admin invites an operator, who signs in with
 * the first password shown once and changes it under "My account"; the team's controls follow the role.
 * It runs on a gateway seeded with 100,000 charges at accounts of their own (tests/support/seedCharges.ts).
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
  'at %i px an admin invites an operator, disables, enables, demotes and resets them; they sign in and change their password',
  async (width) => {
    const email = `convidada-${width}@example.com`;
    const admin = await pages.signedIn(width, 844);
    await followNavLink(admin.page, 'Equipe');
    const table = admin.page.getByTestId('team-table');
    // The admin's own row offers nothing, and says why.
    const own = table.locator(`[data-email="${stack.gateway.firstAdmin!.email}"]`);
    await expect(own.getByRole('button', { name: /^Desativar/ }).isDisabled()).resolves.toBe(true);
    await own.getByText('É a sua conta: troque a sua senha em "Minha conta".').waitFor();

    await admin.page.getByRole('button', { name: 'Convidar operador' }).click();
    const dialog = admin.page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await dialog.getByRole('button', { name: 'Convidar' }).click();
    const firstPassword = (await dialog.getByTestId('initial-password').textContent())!;
    expect(firstPassword).toMatch(/^[\w-]{24}$/);
    await dialog.getByText('Copie agora: não será mostrado de novo.').waitFor();
    await expect(accessibilityViolations(admin.page)).resolves.toEqual([]);
    await screenshot(admin.page, `team-invited-${width}px`);
    await dialog.getByRole('button', { name: 'Concluir' }).click();
    const row = table.locator(`[data-email="${email}"]`);
    await row.getByText('Ativo').waitFor();
    // Disabled and enabled again; made a viewer; given a new made-up password, which replaces the first.
    await row.getByRole('button', { name: `Desativar: ${email}` }).click();
    await row.getByText('Desativado').waitFor();
    await row.getByRole('button', { name: `Reativar: ${email}` }).click();
    await row.getByText('Ativo').waitFor();
    await chooseOption(admin.page, row.getByLabel(`Papel: ${email}`), 'Leitor');
    await row.getByRole('button', { name: `Redefinir senha: ${email}` }).click();
    await dialog.getByRole('button', { name: 'Redefinir senha' }).click();
    const resetPassword = (await dialog.getByTestId('generated-password').textContent())!;
    expect(resetPassword).toMatch(/^[\w-]{24}$/);
    await dialog.getByRole('button', { name: 'Concluir' }).click();
    await pages.finish(admin.page, admin.violations, `team-${width}px`);

    const invited = await pages.openPage(width, 844);
    const page = invited.page;
    await signInAs(page, email, firstPassword);
    await page.getByRole('alert').getByText('E-mail ou senha incorretos.').waitFor();
    await signInAs(page, email, resetPassword);
    await expect(page.getByTestId('operator').textContent()).resolves.toBe(email);
    await page.getByText('(viewer)').waitFor();
    // A viewer does not manage the team: no link to it.
    if (width === 390) await page.getByRole('button', { name: 'Menu' }).click();
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Equipe' }).count()).resolves.toBe(0);
    if (width === 390) await page.getByRole('button', { name: 'Menu' }).click();
    await followNavLink(page, 'Minha conta');

    const current = page.getByLabel(/^Senha atual/);
    const next = page.getByLabel(/^Senha nova/);
    const again = page.getByLabel(/^Repita a senha nova/);
    await current.fill('not the current password');
    await next.fill('a password of my own');
    await again.fill('a password of my own');
    await page.getByRole('button', { name: 'Trocar a senha' }).click();
    // The gateway's rule (WRONG_PASSWORD) in the page's language, not its English message.
    await page.getByText('Esta não é a sua senha atual.').waitFor();
    await expect(page.getByText("current_password is not the operator's current password").count()).resolves.toBe(0);

    await current.fill(resetPassword);
    await again.fill('a different password');
    await page.getByRole('button', { name: 'Trocar a senha' }).click();
    await page.getByText('As duas senhas novas não são iguais.').waitFor();
    await again.fill('a password of my own');
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await screenshot(page, `my-account-${width}px`);
    await page.getByRole('button', { name: 'Trocar a senha' }).click();

    await page.getByText('Senha trocada. Todas as sessões terminaram: entre com a senha nova.').waitFor();
    await signInAs(page, email, resetPassword);
    await page.getByRole('alert').getByText('E-mail ou senha incorretos.').waitFor();
    await signInAs(page, email, 'a password of my own');
    await expect(page.getByTestId('operator').textContent()).resolves.toBe(email);
    await pages.finish(page, invited.violations, `my-account-changed-${width}px`);
  },
  // Five password hashes (scrypt, on purpose slow) and two axe runs on a shared 2-core machine.
  150_000,
);

it.each([1280, 390])(
  'at %i px an admin creates a token limited to an account, sees its secret once and its last use, and revokes it after confirming',
  async (width) => {
    const name = `checkout-${width}`;
    const { providerAccount } = await stack.client.call('accounts', 'createProviderAccount', {
      provider: 'SANDBOX',
      name: `Conta ${width}`,
      publicKey: 'pk',
      secretKey: 'sk',
    });
    const { page, violations } = await pages.signedIn(width, 844);
    await followNavLink(page, 'Tokens de serviço');
    await page.getByRole('button', { name: 'Criar token' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: /^Nome/ }).fill(name);
    // A multiple choice: its dropdown is opened, the option taken, and the dropdown closed by clicking the dialog's title.
    for (const [label, option] of [
      [/^Permissões/, 'accounts:read'],
      [/^Contas de provedor/, `Conta ${width} (SANDBOX)`],
    ] as const) {
      await dialog.getByLabel(label).click({ force: true });
      await page.getByRole('option', { name: option }).click();
      await dialog.getByRole('heading', { name: 'Criar token' }).click();
    }
    await dialog.getByRole('button', { name: 'Criar', exact: true }).click();
    const secret = (await dialog.getByTestId('token-secret').textContent())!;
    expect(secret).toMatch(/^gwt_[\w-]{43}$/);
    await expect(accessibilityViolations(page)).resolves.toEqual([]);
    await screenshot(page, `token-created-${width}px`);
    await dialog.getByRole('button', { name: 'Concluir' }).click();

    const row = page.getByTestId('tokens-table').locator(`[data-name="${name}"]`);
    await row.getByText(`Conta ${width}`).waitFor();
    await expect(row.getByTestId('last-used').textContent()).resolves.toBe('Nunca');
    // The service uses it; the list shows when.
    const me = await stack.client.call('access', 'whoAmI', {}, secret);
    expect(me).toMatchObject({ kind: 'service', name, permissions: ['accounts:read'], providerAccountIds: [providerAccount.id] });
    await page.reload();
    await row.getByTestId('last-used').locator('time').waitFor();

    await row.getByRole('button', { name: `Revogar: ${name}` }).click();
    await dialog.getByText(`Revogar o token ${name}? As chamadas com ele são recusadas a partir de agora; não há como desfazer.`).waitFor();
    await dialog.getByRole('button', { name: 'Revogar' }).click();
    await row.waitFor({ state: 'detached' });
    await expect(stack.client.call('access', 'whoAmI', {}, secret)).rejects.toMatchObject({ code: 16 });
    await page.getByRole('switch', { name: 'Mostrar revogados' }).check({ force: true });
    await row.getByText('Revogado').waitFor();
    await pages.finish(page, violations, `tokens-${width}px`);
  },
  90_000,
);

it.each([1280, 390])('at %i px the audit trail filters by who, action and day, and exports what it selects as CSV', async (width) => {
  const { page, violations } = await pages.signedIn(width, 844);
  // A refused sign-in of another e-mail: in the trail, but not among the admin's events.
  await fetch(`${stack.gateway.httpUrl}/auth/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'someone-else@example.com', password: 'not a password' }),
  });
  await followNavLink(page, 'Trilha de auditoria');
  const table = page.getByTestId('audit-table');
  await table.getByText('someone-else@example.com').first().waitFor();
  const today = new Date();
  const day = `${String(today.getDate()).padStart(2, '0')}/${String(today.getMonth() + 1).padStart(2, '0')}/${today.getFullYear()}`;
  await page.getByRole('textbox', { name: /^Quem/ }).fill(stack.gateway.firstAdmin!.email.toUpperCase());
  await page.getByRole('textbox', { name: /^Ação/ }).fill('auth/SignIn');
  await page.getByLabel(/^A partir de/).fill(day);
  await page.getByLabel(/^Até/).fill(day);
  // The filters apply once typing pauses: every row shown is then the admin's sign-in.
  await page.waitForFunction((email) => {
    const rows = Array.from(document.querySelectorAll('[data-testid="audit-table"] tbody tr'));
    return rows.length > 0 && rows.every((row) => row.children[1]?.textContent === email && row.children[2]?.textContent === 'auth/SignIn');
  }, stack.gateway.firstAdmin!.email);
  const rows = table.locator('tbody tr');
  await expect(rows.first().textContent()).resolves.toContain('auth/SignIn');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Exportar CSV' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^auditoria-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = readFileSync((await download.path())!, 'utf8')
    .slice(1)
    .split('\r\n')
    .filter(Boolean);
  expect(lines[0]).toBe('Quando;Tipo;ID de quem;Quem;Ação;Recurso;Origem;Resultado;Detalhe');
  expect(lines.length - 1).toBe(await rows.count());
  for (const line of lines.slice(1)) expect(line.split(';').slice(3, 5)).toEqual([stack.gateway.firstAdmin!.email, 'auth/SignIn']);
  await pages.finish(page, violations, `audit-${width}px`);
});
