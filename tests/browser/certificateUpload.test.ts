import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import type { Browser, Locator, Page } from 'playwright-core';
import { CreateOperatorRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { accessibilityViolations, backOfficePages, chooseOption, launchBrowser, signInAs } from '../support/browser.js';
import type { TestCertificates } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { startVolutiMtlsStandIn, type VolutiMtlsStandIn } from '../support/volutiStandIn.js';
import type { BacenPixStandIn } from '../standins/bacenpix.js';
import { clearHttpsAgents } from '../../server/lib/http/tlsAgent.js';

/**
 * The provider-account form takes a client certificate as a file (issue 33 §8): the operator picks the .pem (or .p12,
 * .pfx, .crt, .key) on disk, the back-office asks the gateway for a private upload link (purpose
 * UPLOAD_PURPOSE_CERTIFICATE), sends the file and fills the certificate's address; the account saved with it passes
 * "Testar conexão" through the mTLS handshake of the API Pix stand-in, the gateway reading the private file itself.
 * The file's plain address answers 403. A certificate handed out as two files goes as the .crt in the certificate's
 * upload and the .key in the private key's upload beside it: on saving, the gateway checks the key is the
 * certificate's and joins the two, and the account passes the handshake too; a key of another certificate is refused
 * beside the key's field. At 1280 px in Portuguese and at 390 px in English.
 */
let browser: Browser;
let stack: TestStack;
let standIn: BacenPixStandIn;
let certificates: TestCertificates;
let voluti: VolutiMtlsStandIn;

const CLIENT_ID = 'voluti-upload-form-client';
const CLIENT_SECRET = 'voluti-upload-form-secret';
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
    cashOutUrl: /^URL do certificado de cash-out/,
    cashInFile: 'Arquivo do certificado de cash-in',
    cashOutFile: 'Arquivo do certificado de cash-out',
    badType: 'Envie um certificado .p12, .pfx, .pem, .crt ou .key.',
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
    cashOutUrl: /^Cash-out certificate URL/,
    cashInFile: 'Cash-in certificate file',
    cashOutFile: 'Cash-out certificate file',
    badType: 'Send a .p12, .pfx, .pem, .crt or .key certificate.',
    files: [
      ['Cash-in certificate file', 'Cash-in private key file (.key), if separate'],
      ['Cash-out certificate file', 'Cash-out private key file (.key), if separate'],
    ],
    uploaded: /^Upload (realizado com sucesso!|successful)/,
    mismatch: "This private key is not the uploaded certificate's: upload the key (.key) that goes with this certificate.",
    ok: "Connection works: the provider accepted the account's credentials.",
  },
} as const;

/** Picks a file for one upload field, as an operator does (the file chooser its button opens). */
async function choose(page: Page, label: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  const field = page.getByRole('group', { name: label, exact: true });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), field.getByRole('button', { name: label, exact: true }).click()]);
  await chooser.setFiles(file);
  return field;
}

/** `choose`, for a certificate or key file, then waits for its upload. */
async function upload(page: Page, label: string, name: string, content: string, uploaded: RegExp) {
  const field = await choose(page, label, { name, mimeType: '', buffer: Buffer.from(content) });
  await expect(field.getByRole('status').textContent()).resolves.toMatch(uploaded);
  return field;
}

/** The accounts page's form for a new VOLUTI account, its name, credentials and the stand-in's address filled in. */
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

/**
 * Saves the form, then runs "Testar conexão" on the new account: the stand-in must see the platform's certificate in a
 * handshake of this test's own (a keep-alive agent per client certificate, tlsAgent.ts, would otherwise carry it over
 * another account's connection with the same certificate), and the page must never show a private key.
 */
async function saveAndPassHandshake(page: Page, dialog: Locator, language: 'pt' | 'en', name: string) {
  const text = TEXTS[language];
  await dialog.getByRole('button', { name: text.save }).click();
  await dialog.waitFor({ state: 'detached' });
  clearHttpsAgents();
  const handshakes = standIn.clientCertificates.length;
  await page.getByRole('button', { name: `${text.test} ${name}` }).click();
  await page.getByTestId('connection-result').getByText(text.ok).waitFor();
  // The gateway read the private file(s) through a link of its own and presented them.
  expect(standIn.clientCertificates.slice(handshakes)).toContain('platform-client');
  await expect(page.content()).resolves.not.toContain('PRIVATE KEY');
}

/** A refused save: the form stays open, and no account of that name is listed. */
async function expectNothingSaved(page: Page, dialog: Locator, name: string) {
  await expect(dialog.isVisible()).resolves.toBe(true);
  await expect(page.locator('tr', { hasText: name }).count()).resolves.toBe(0);
}

it.each([
  [1280, 'pt'],
  [390, 'en'],
] as const)('at %i px (%s) an admin uploads the certificate files in the account form and the account passes the mTLS handshake', async (width, language) => {
  const text = TEXTS[language];
  const { page, violations } = await pages.signedIn(width, 900);
  const name = `Voluti ${width}`;
  const dialog = await openForm(page, language, name);

  // A file that is no certificate is refused before any link is asked for; the address stays empty.
  const refused = await choose(page, text.cashInFile, { name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('not a certificate') });
  await refused.getByText(text.badType).waitFor();
  await expect(dialog.getByLabel(text.cashInUrl).inputValue()).resolves.toBe('');

  const pem = Buffer.from(certificates.clientPem);
  for (const [label, address, fileName] of [
    [text.cashInFile, text.cashInUrl, 'cash-in.pem'],
    [text.cashOutFile, text.cashOutUrl, 'cash-out.crt'],
  ] as const) {
    // Browsers give certificate files no type, or one of several: the form sends the type the extension gives.
    const field = await choose(page, label, { name: fileName, mimeType: '', buffer: pem });
    await expect(field.getByRole('status').textContent()).resolves.toMatch(/^Upload realizado com sucesso!/);
    await expect(field.getByTestId('uploaded-name').textContent()).resolves.toContain(fileName);
    const url = await dialog.getByLabel(address).inputValue();
    expect(url).toMatch(new RegExp(`/uploads/certificates/[0-9a-f-]{36}/${fileName.replace('.', '\\.')}$`));
    // Private: its plain address answers 403 to anyone, the page offers no link to it.
    expect((await fetch(url)).status).toBe(403);
    await expect(field.getByRole('link').count()).resolves.toBe(0);
  }
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await saveAndPassHandshake(page, dialog, language, name);
  await pages.finish(page, violations, `accounts-certificate-upload-${width}px`);
});

it('an admin who uploads a .crt without its key is told, when saving, to send its key too', async () => {
  const text = TEXTS.pt;
  const { page, violations } = await pages.signedIn(1280, 900);
  const dialog = await openForm(page, 'pt', 'Voluti com .crt sozinho');
  for (const label of [text.cashInFile, text.cashOutFile]) await upload(page, label, 'voluti.crt', certificates.clientCert, text.uploaded);
  await dialog.getByRole('button', { name: text.save }).click();
  await dialog
    .getByText(
      'O arquivo do certificado não tem o certificado e a chave privada juntos (um .crt sem o seu .key não serve): envie um único arquivo PEM com os dois, o .key no campo da chave privada, ou um .p12/.pfx.',
    )
    .waitFor();
  await expectNothingSaved(page, dialog, 'Voluti com .crt sozinho');
  await pages.finish(page, violations, 'accounts-certificate-without-key');
});

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
  await saveAndPassHandshake(page, dialog, language, name);
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
  await expectNothingSaved(page, dialog, 'Voluti com chave trocada');
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await pages.finish(page, violations, 'accounts-certificate-key-mismatch');
});

it('an operator sees the accounts but no form, so no certificate upload, and the permission both need', async () => {
  const operator = { email: 'operadora-certificados@example.com', password: 'uma senha longa de operadora' };
  await stack.client.call('access', 'createOperator', CreateOperatorRequest.fromPartial({ ...operator, role: 'operator' }));
  const { page, violations } = await pages.openPage(1280, 900);
  await signInAs(page, operator.email, operator.password);
  await page.getByTestId('operator').waitFor();
  await page.goto(`${stack.gateway.httpUrl}/#/accounts`);
  await expect(page.getByTestId('role-note').textContent()).resolves.toBe(
    'Seu papel não permite criar, editar, excluir nem testar contas de provedor (exige accounts:admin).',
  );
  await expect(page.getByRole('button', { name: /^(Nova conta|Editar)/ }).count()).resolves.toBe(0);
  await expect(page.getByRole('group', { name: /^Arquivo do certificado/ }).count()).resolves.toBe(0);
  await pages.finish(page, violations, 'accounts-operator-no-certificate-upload');
});
