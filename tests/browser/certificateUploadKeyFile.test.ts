import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { accessibilityViolations, backOfficePages, chooseOption, launchBrowser } from '../support/browser.js';
import type { TestCertificates } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { startVolutiMtlsStandIn, type VolutiMtlsStandIn } from '../support/volutiStandIn.js';
import type { BacenPixStandIn } from '../standins/bacenpix.js';
import { clearHttpsAgents } from '../../server/lib/http/tlsAgent.js';

/**
 * The provider-account form takes a client certificate handed out as two files (issue 33 §8): the .crt in the
 * certificate's upload and the .key in the private key's upload beside it, both sent to the gateway's store as
 * certificates. On saving, the gateway checks the key is the certificate's and joins the two; the account then passes
 * "Testar conexão" through the mTLS handshake of the API Pix stand-in. A key of another certificate is refused beside
 * the key's field. At 1280 px in Portuguese and at 390 px in English.
 */
let browser: Browser;
let stack: TestStack;
let standIn: BacenPixStandIn;
let certificates: TestCertificates;
let voluti: VolutiMtlsStandIn;

const CLIENT_ID = 'voluti-keyfile-form-client';
const CLIENT_SECRET = 'voluti-keyfile-form-secret';
const CHAVE = 'c873834c-ed18-4e63-8e5d-90190392b744';

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);

beforeAll(async () => {
  voluti = await startVolutiMtlsStandIn({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, chave: CHAVE });
  ({ standIn, certificates } = voluti);
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await voluti?.close();
});

const TEXTS = {
  pt: {
    newAccount: 'Nova conta',
    provider: /^Provedor/,
    name: 'Nome',
    baseUrl: 'URL base',
    save: 'Salvar',
    test: 'Testar conexão',
    cashInUrl: /^URL do certificado de cash-in/,
    files: [
      ['Arquivo do certificado de cash-in', 'Arquivo da chave privada de cash-in (.key), se separada'],
      ['Arquivo do certificado de cash-out', 'Arquivo da chave privada de cash-out (.key), se separada'],
    ],
    uploaded: /^Upload realizado com sucesso!/,
    mismatch: 'Esta chave privada não é a do certificado enviado: envie a chave (.key) que acompanha este certificado.',
    ok: 'Conexão bem-sucedida: o provedor aceitou as credenciais da conta.',
  },
  en: {
    newAccount: 'New account',
    provider: /^Provider/,
    name: 'Name',
    baseUrl: 'Base URL',
    save: 'Save',
    test: 'Test connection',
    cashInUrl: /^Cash-in certificate URL/,
    files: [
      ['Cash-in certificate file', 'Cash-in private key file (.key), if separate'],
      ['Cash-out certificate file', 'Cash-out private key file (.key), if separate'],
    ],
    uploaded: /^Upload (realizado com sucesso!|successful)/,
    mismatch: "This private key is not the uploaded certificate's: upload the key (.key) that goes with this certificate.",
    ok: "Connection works: the provider accepted the account's credentials.",
  },
} as const;

/** Picks a file for one upload field, as an operator does (the file chooser its button opens), and waits for its upload. */
async function upload(page: Page, label: string, name: string, content: string, uploaded: RegExp) {
  const field = page.getByRole('group', { name: label, exact: true });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), field.getByRole('button', { name: label, exact: true }).click()]);
  await chooser.setFiles({ name, mimeType: '', buffer: Buffer.from(content) });
  await expect(field.getByRole('status').textContent()).resolves.toMatch(uploaded);
  return field;
}

async function openForm(page: Page, language: 'pt' | 'en', name: string) {
  const text = TEXTS[language];
  await page.goto(`${stack.gateway.httpUrl}/#/accounts`);
  if (language === 'en') await page.getByText('EN', { exact: true }).click();
  await page.getByRole('button', { name: text.newAccount }).click();
  const dialog = page.getByRole('dialog');
  await chooseOption(page, dialog.getByRole('combobox', { name: text.provider }), 'VOLUTI');
  await dialog.getByLabel(text.cashInUrl).waitFor();
  await dialog.getByRole('textbox', { name: text.name, exact: true }).fill(name);
  await dialog.getByLabel(/^clientId/).fill(CLIENT_ID);
  await dialog.getByLabel(/^chave/).fill(CHAVE);
  await dialog.getByLabel(/^clientSecret/).fill(CLIENT_SECRET);
  await dialog.getByRole('textbox', { name: text.baseUrl }).fill(standIn.url);
  return dialog;
}

it.each([
  [1280, 'pt'],
  [390, 'en'],
] as const)('at %i px (%s) an admin uploads a .crt and its .key as two files and the account passes the mTLS handshake', async (width, language) => {
  const text = TEXTS[language];
  const { page, violations } = await pages.signedIn(width, 900);
  const name = `Voluti .crt e .key ${width}`;
  const dialog = await openForm(page, language, name);
  for (const [certificateLabel, keyLabel] of text.files) {
    await upload(page, certificateLabel, 'voluti.crt', certificates.clientCert, text.uploaded);
    await upload(page, keyLabel, 'voluti.key', certificates.clientKey, text.uploaded);
  }
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await dialog.getByRole('button', { name: text.save }).click();
  await dialog.waitFor({ state: 'detached' });

  // A keep-alive agent per client certificate would carry this test over another account's handshake: closed first.
  clearHttpsAgents();
  const handshakes = standIn.clientCertificates.length;
  await page.getByRole('button', { name: `${text.test} ${name}` }).click();
  await page.getByTestId('connection-result').getByText(text.ok).waitFor();
  expect(standIn.clientCertificates.slice(handshakes)).toContain('platform-client');
  await expect(page.content()).resolves.not.toContain('PRIVATE KEY');
  await pages.finish(page, violations, `accounts-certificate-key-file-${width}px`);
});

it('an admin who uploads a key of another certificate is told so beside the key, and nothing is saved', async () => {
  const text = TEXTS.pt;
  const { page, violations } = await pages.signedIn(1280, 900);
  const dialog = await openForm(page, 'pt', 'Voluti com chave trocada');
  const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const [certificateLabel, keyLabel] = text.files[0];
  await upload(page, certificateLabel, 'voluti.crt', certificates.clientCert, text.uploaded);
  const keyField = await upload(page, keyLabel, 'outra.key', other, text.uploaded);
  // Cash-out as one file holding both: only the cash-in pair is wrong.
  await upload(page, text.files[1][0], 'voluti.pem', certificates.clientPem, text.uploaded);
  await dialog.getByRole('button', { name: text.save }).click();
  await keyField.getByText(text.mismatch).waitFor();
  await expect(dialog.isVisible()).resolves.toBe(true);
  await expect(page.locator('tr', { hasText: 'Voluti com chave trocada' }).count()).resolves.toBe(0);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await pages.finish(page, violations, 'accounts-certificate-key-mismatch');
});
