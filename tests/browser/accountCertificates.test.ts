import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { generate } from 'selfsigned';
import { clearHttpsAgents, trustCertificateAuthority } from '../../server/lib/http/index.js';
import { accessibilityViolations, backOfficePages, chooseOption, launchBrowser } from '../support/browser.js';
import { startFileServer, testCertificates, type FileServer } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { startBacenPixStandIn, type BacenPixStandIn } from '../standins/bacenpix.js';

/**
 * The provider-account form's client certificates (issue 33 §8): a provider of the BACEN API Pix family declares the
 * addresses of its cash-in and cash-out certificates (ListProviders.certificate_fields), the form asks for them (and
 * not for a provider that uses none), the account is saved with them and "Testar conexão" passes the mTLS handshake of
 * the API Pix stand-in with that certificate; a certificate the PSP does not trust is refused in the handshake. The
 * address's query (a presigned link's signature) is never shown back.
 */
let browser: Browser;
let stack: TestStack;
let standIn: BacenPixStandIn;
let files: FileServer;
let untrust: () => void;

const CLIENT_ID = 'voluti-form-client';
const CLIENT_SECRET = 'voluti-form-secret';
const CHAVE = 'c873834c-ed18-4e63-8e5d-90190392b744';
const SIGNATURE = 'X-Amz-Signature=segredo-do-link';

const pages = backOfficePages(
  () => browser,
  () => stack.gateway,
);

beforeAll(async () => {
  const certificates = await testCertificates();
  // A throwaway self-signed certificate no PSP trusts, made here.
  const stranger = await generate([{ name: 'commonName', value: 'not-the-platform' }], { keyType: 'ec', algorithm: 'sha256' });
  files = await startFileServer({
    '/platform/cash-in.pem': certificates.clientPem,
    '/platform/cash-out.pem': certificates.clientPem,
    '/platform/stranger.pem': `${stranger.cert}${stranger.private}`,
  });
  standIn = await startBacenPixStandIn({
    name: 'VOLUTI',
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    chave: CHAVE,
    token: { body: 'json', answer: 'oauth' },
    payouts: { idempotencyKey: /^[a-zA-Z0-9]{1,50}$/ },
    certificates,
  });
  // The gateway runs in this process: its provider clients trust the stand-in's throwaway CA from here on.
  untrust = trustCertificateAuthority(certificates.ca);
  stack = await startTestStack({ env: { WEBHOOK_WORKERS: '0' } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  untrust?.();
  clearHttpsAgents();
  await standIn?.close();
  await files?.close();
});

const CASH_IN = /^(URL do certificado de cash-in|Cash-in certificate URL)/;
const CASH_OUT = /^(URL do certificado de cash-out|Cash-out certificate URL)/;

/** Fills the new-account form for VOLUTI against the stand-in, with these certificate addresses, and saves it. */
async function createVoluti(page: Page, name: string, certificate: { cashIn: string; cashOut: string }): Promise<void> {
  await page.getByRole('button', { name: 'Nova conta' }).click();
  const dialog = page.getByRole('dialog');
  await chooseOption(page, dialog.getByRole('combobox', { name: /^Provedor/ }), 'VOLUTI');
  await dialog.getByLabel(CASH_IN).waitFor();
  await dialog.getByRole('textbox', { name: 'Nome' }).fill(name);
  await dialog.getByLabel(/^clientId/).fill(CLIENT_ID);
  await dialog.getByLabel(/^chave/).fill(CHAVE);
  await dialog.getByLabel(/^clientSecret/).fill(CLIENT_SECRET);
  await dialog.getByRole('textbox', { name: 'URL base' }).fill(standIn.url);
  await dialog.getByLabel(CASH_IN).fill(certificate.cashIn);
  await dialog.getByLabel(CASH_OUT).fill(certificate.cashOut);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await dialog.getByRole('button', { name: 'Salvar' }).click();
  await dialog.waitFor({ state: 'detached' });
}

async function testConnection(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Testar conexão ${name}` }).click();
}

it('asks a BACEN API Pix provider for its certificates, saves them, and "Testar conexão" passes the mTLS handshake with them', async () => {
  const { page, violations } = await pages.signedIn(1280, 900);
  await page.goto(`${stack.gateway.httpUrl}/#/accounts`);

  // A provider with no client certificate: no certificate field.
  await page.getByRole('button', { name: 'Nova conta' }).click();
  const dialog = page.getByRole('dialog');
  await chooseOption(page, dialog.getByRole('combobox', { name: /^Provedor/ }), 'PAGUESAFE');
  await dialog.getByRole('textbox', { name: 'URL base' }).waitFor();
  await expect(dialog.getByLabel(CASH_IN).count()).resolves.toBe(0);
  await expect(dialog.getByLabel(CASH_OUT).count()).resolves.toBe(0);
  await dialog.getByRole('button', { name: 'Cancelar' }).click();
  await dialog.waitFor({ state: 'detached' });

  await createVoluti(page, 'Voluti com certificado', {
    cashIn: `${files.url('/platform/cash-in.pem')}?${SIGNATURE}`,
    cashOut: files.url('/platform/cash-out.pem'),
  });
  const handshakes = standIn.clientCertificates.length;
  await testConnection(page, 'Voluti com certificado');
  await page.getByTestId('connection-result').getByText('Conexão bem-sucedida: o provedor aceitou as credenciais da conta.').waitFor();
  // The stand-in saw the platform's certificate, fetched from the address the form saved (its query included).
  expect(standIn.clientCertificates.slice(handshakes)).toContain('platform-client');
  expect(files.hits['/platform/cash-in.pem']).toBeGreaterThan(0);

  // Editing shows the address without its query, and nowhere else on the page is it.
  await page.getByRole('button', { name: 'Editar Voluti com certificado' }).click();
  await expect(page.getByRole('dialog').getByLabel(CASH_IN).inputValue()).resolves.toBe(files.url('/platform/cash-in.pem'));
  await expect(page.content()).resolves.not.toContain('segredo-do-link');
  await page.getByRole('dialog').getByRole('button', { name: 'Salvar' }).click();
  await page.getByRole('dialog').waitFor({ state: 'detached' });
  // Saved unchanged: the stored address (with its query) still reaches the certificate.
  await testConnection(page, 'Voluti com certificado');
  await page
    .getByTestId('connection-result')
    .getByText(/^Conexão bem-sucedida/)
    .waitFor();

  // A certificate the PSP does not trust: refused in the handshake, never a success.
  const refused = standIn.refusedHandshakes;
  await createVoluti(page, 'Voluti com certificado estranho', {
    cashIn: files.url('/platform/stranger.pem'),
    cashOut: files.url('/platform/stranger.pem'),
  });
  await testConnection(page, 'Voluti com certificado estranho');
  await page
    .getByTestId('connection-result')
    .getByText(/^Não foi possível falar com o provedor/)
    .waitFor();
  expect(standIn.refusedHandshakes).toBeGreaterThan(refused);
  await pages.finish(page, violations, 'accounts-certificates');
});

it('at 390 px and in English, the certificate fields say what they take', async () => {
  const { page, violations } = await pages.signedIn(390, 844);
  await page.goto(`${stack.gateway.httpUrl}/#/accounts`);
  await page.getByText('EN', { exact: true }).click();
  await page.getByRole('button', { name: 'New account' }).click();
  const dialog = page.getByRole('dialog');
  await chooseOption(page, dialog.getByRole('combobox', { name: /^Provider/ }), 'VOLUTI');
  await dialog.getByLabel(CASH_IN).waitFor();
  await expect(dialog.getByText(/^The provider's client certificate \(mTLS\): the address of a PEM file/).count()).resolves.toBe(2);
  await expect(dialog.getByLabel(/^certificatePassphrase/).count()).resolves.toBe(1);
  await expect(accessibilityViolations(page)).resolves.toEqual([]);
  await pages.finish(page, violations, 'accounts-certificates-390px');
});
