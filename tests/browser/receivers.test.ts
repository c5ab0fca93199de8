import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Locator, Page } from 'playwright-core';
import { GetReceiverRequest, ListProvidersRequest, ListReceiversRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { Operation, ReceiverStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import type { Driver } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { backOfficePages, chooseOption, launchBrowser, screenshot } from '../support/browser.js';

/**
 * The back-office's receivers: created in the browser with verification
 * documents uploaded straight to the embedded object store (real PUTs, read
 * back from their public URLs), listed, found and opened; documents opened
 * through links the gateway signs (and, with private uploads, only so); an
 * upload the store refuses shows the specification's failure message; usable
 * at 390 px.
 */

let browser: Browser;
let stack: TestStack;
/** The gateway the pages open: the stack's, or another one for a while. */
let gateway: TestStack['gateway'];
let api: Driver;
/** A SANDBOX account (it creates receivers) and an account at a provider that does not. */
let sandboxAccountId: string;
let otherProvider: string;

const SUCCESS = 'Upload realizado com sucesso!';
const FAILURE = 'Houve um erro ao tentar realizar o upload, contate o suporte';

const pages = backOfficePages(
  () => browser,
  () => gateway,
);

beforeAll(async () => {
  stack = await startTestStack();
  gateway = stack.gateway;
  api = stack.client;
  const account = async (provider: string, name: string) =>
    (await api.call('accounts', 'createProviderAccount', CreateProviderAccountRequest.fromPartial({ provider, name, publicKey: 'pk', secretKey: 'sk' })))
      .providerAccount.id as string;
  sandboxAccountId = await account('SANDBOX', 'Sandbox recebedores');
  const { providers } = await api.call('gateway', 'listProviders', ListProvidersRequest.fromPartial({}));
  otherProvider = providers.find((p: { operations: Operation[] }) => !p.operations.includes(Operation.OPERATION_CREATE_RECEIVER)).id;
  await account(otherProvider, 'Sem recebedores');
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('selfie com o documento'), Buffer.from([0xff, 0xd9])]);
const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n`);

/** Chooses a file (its bytes, or a path) for one upload field, as an operator does (the file chooser its button opens). */
async function choose(page: Page, label: string, file: { name: string; mimeType: string; buffer: Buffer } | string): Promise<Locator> {
  const field = page.getByRole('group', { name: label, exact: true });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), field.getByRole('button', { name: label, exact: true }).click()]);
  await chooser.setFiles(file);
  return field;
}

/** Uploads a file and waits for the success message; answers the uploaded file's public URL. */
async function upload(page: Page, label: string, file: { name: string; mimeType: string; buffer: Buffer }): Promise<string> {
  const field = await choose(page, label, file);
  await expect(field.getByRole('status').textContent()).resolves.toMatch(new RegExp(`^${SUCCESS}`));
  // The bar followed the PUT's progress events to the end.
  await expect(field.getByRole('progressbar').getAttribute('aria-valuenow')).resolves.toBe('100');
  return (await field.getByRole('link').getAttribute('href'))!;
}

/**
 * Clicks a document of the receiver's page and follows the tab it opens: the link the tab went to (a presigned GET of
 * the store: its address, and whether it is signed) and the document as read through it.
 */
async function openDocument(page: Page, name: string) {
  const [tab] = await Promise.all([
    page.waitForEvent('popup'),
    page
      .getByTestId('documents')
      .getByRole('button', { name: new RegExp(`: ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) })
      .click(),
  ]);
  await tab.waitForURL((url) => url.protocol === 'http:');
  const url = new URL(tab.url());
  await tab.close();
  return {
    address: `${url.origin}${decodeURIComponent(url.pathname)
      .split('/')
      .map((part) => encodeURIComponent(part))
      .join('/')}`,
    signed: url.searchParams.has('X-Amz-Signature'),
    read: await read(url.toString()),
  };
}

/** The object as anyone reads it from its public URL: bytes and headers. */
async function read(url: string) {
  const response = await fetch(url);
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    cacheControl: response.headers.get('cache-control'),
    body: Buffer.from(await response.arrayBuffer()),
  };
}

it('creates a CNPJ receiver with its documents uploaded to the object store; the gateway refusal of a field is shown beside it; the list shows the new receiver and its page opens', async () => {
  const { page, violations } = await pages.signedIn();
  await page.getByRole('link', { name: 'Recebedores' }).click();
  await page.getByRole('heading', { name: 'Recebedores' }).waitFor();
  await page.getByRole('link', { name: 'Novo recebedor' }).click();
  // The list's own account filter has the same label: until the form's page is shown, the locator below would find it.
  await page.getByRole('heading', { name: 'Novo recebedor' }).waitFor();

  // Only accounts whose provider creates receivers are offered.
  const accountSelect = page.getByRole('combobox', { name: /^Conta de provedor/ });
  await chooseOption(page, accountSelect, 'Sandbox recebedores (SANDBOX)');
  // Every option of this select.
  await accountSelect.click();
  await page.getByRole('option', { name: 'Sandbox recebedores (SANDBOX)' }).waitFor();
  await expect(page.getByRole('listbox').getByRole('option').allTextContents()).resolves.toEqual(['Sandbox recebedores (SANDBOX)']);
  await page.keyboard.press('Escape');

  // Sent without a name: the gateway's field violation is shown beside the field, its rule (REQUIRED) in Portuguese.
  const name = page.getByRole('textbox', { name: /^Nome/ });
  await page.getByRole('button', { name: 'Criar recebedor' }).click();
  await page.getByText('Obrigatório.', { exact: true }).waitFor();
  await expect(name.getAttribute('aria-invalid')).resolves.toBe('true');
  const describedBy = (await name.getAttribute('aria-describedby'))!.split(' ');
  await expect(page.locator(describedBy.map((id) => `[id="${id}"]`).join(',')).allTextContents()).resolves.toContain('Obrigatório.');
  await expect(page.getByText('receiver.name is required').count()).resolves.toBe(0);

  await name.fill('Loja Um Ltda');
  // A CNPJ: shown formatted, and its social contract is asked for.
  await expect(page.getByRole('group', { name: 'Contrato social' }).count()).resolves.toBe(0);
  await page.getByRole('textbox', { name: /^CPF ou CNPJ/ }).fill('11222333000181');
  await page.getByText('CNPJ: 11.222.333/0001-81').waitFor();
  await page.getByRole('textbox', { name: 'E-mail', exact: true }).fill('financeiro@lojaum.example');
  await page.getByRole('textbox', { name: 'Descrição' }).fill('Loja de bairro');
  await page.getByRole('textbox', { name: 'ID do usuário' }).fill('seller-42');
  await page.getByRole('textbox', { name: 'Faturamento mensal (R$)' }).fill('12.345,67');
  await page.getByRole('textbox', { name: 'Código do banco' }).fill('341');
  await page.getByRole('textbox', { name: 'Agência', exact: true }).fill('1234');
  await page.getByRole('textbox', { name: 'Dígito da agência' }).fill('5');
  await page.getByRole('textbox', { name: 'Conta', exact: true }).fill('67890');
  await page.getByRole('textbox', { name: 'Dígito da conta' }).fill('1');
  await page.getByRole('combobox', { name: 'Tipo de conta' }).click();
  await page.getByRole('option', { name: 'Conta corrente' }).click();
  await page.getByRole('textbox', { name: 'Chave PIX' }).fill('financeiro@lojaum.example');
  await page.getByRole('textbox', { name: 'CEP' }).fill('01001000');
  await page.getByRole('textbox', { name: 'Logradouro' }).fill('Praça da Sé');
  await page.getByRole('textbox', { name: 'Número' }).fill('100');
  await page.getByRole('textbox', { name: 'Bairro' }).fill('Sé');
  await page.getByRole('textbox', { name: 'Cidade' }).fill('São Paulo');
  await page.getByRole('textbox', { name: 'UF' }).fill('SP');

  // Checked in the browser before a link is asked for: another type, more than 10 MiB.
  const refused = await choose(page, 'Foto do documento', { name: 'rg.gif', mimeType: 'image/gif', buffer: Buffer.from('GIF89a') });
  await refused.getByText('Envie um PDF, JPEG ou PNG.').waitFor();
  // A path: Chromium reads it itself, instead of 10 MiB crossing the DevTools protocol.
  const large = join(gateway.dataDir, 'rg.pdf');
  writeFileSync(large, Buffer.alloc(10 * 1024 * 1024 + 1));
  await choose(page, 'Foto do documento', large);
  await refused.getByText('O arquivo passa de 10 MiB.').waitFor();
  await expect(refused.getByRole('status').count()).resolves.toBe(0);

  const files = {
    documentPhotoUrl: { label: 'Foto do documento', file: { name: 'rg frente.png', mimeType: 'image/png', buffer: PNG }, type: 'image/png' },
    selfieWithDocumentUrl: { label: 'Foto com o documento (selfie)', file: { name: 'selfie.jpg', mimeType: 'image/jpeg', buffer: JPEG }, type: 'image/jpeg' },
    // Named .pdf, so sent as a PDF whatever type the system gave it.
    addressProofUrl: {
      label: 'Comprovante de endereço',
      file: { name: 'conta de luz.PDF', mimeType: 'application/octet-stream', buffer: pdf('conta de luz') },
      type: 'application/pdf',
    },
    balanceSheetUrl: {
      label: 'Balanço patrimonial',
      file: { name: 'balanço 2025.pdf', mimeType: 'application/pdf', buffer: pdf('balanço') },
      type: 'application/pdf',
    },
    socialContractUrl: {
      label: 'Contrato social',
      file: { name: 'contrato.pdf', mimeType: 'application/pdf', buffer: pdf('contrato social') },
      type: 'application/pdf',
    },
  };
  const urls: Record<string, string> = {};
  for (const [field, { label, file, type }] of Object.entries(files)) {
    urls[field] = await upload(page, label, file);
    expect(urls[field]!.startsWith(`${gateway.objectStoreUrl}/`)).toBe(true);
    // Stored as sent, public, with the type and the one-year immutable cache header the PUT carried.
    expect(await read(urls[field]!)).toEqual({ status: 200, contentType: type, cacheControl: 'public, max-age=31536000, immutable', body: file.buffer });
  }

  await page.getByRole('button', { name: 'Criar recebedor' }).click();
  await page.getByRole('heading', { name: 'Recebedor', exact: true }).waitFor();
  const facts = page.getByTestId('receiver');
  await expect(facts.getByTestId('document').textContent()).resolves.toBe('11.222.333/0001-81');
  await expect(facts.getByTestId('status').textContent()).resolves.toBe('Ativo');
  await expect(facts.textContent()).resolves.toContain('R$ 12.345,67');
  await expect(page.getByTestId('bank-account').textContent()).resolves.toBe(
    'Código do banco341Agência1234-5Conta67890-1Tipo de contaConta correnteChave PIXfinanceiro@lojaum.example',
  );
  await expect(page.getByTestId('address').textContent()).resolves.toBe('LogradouroPraça da Sé, 100BairroSéCidadeSão Paulo / SPCEP01001-000');
  const opens = page.getByTestId('documents').getByRole('button');
  await expect(opens.allTextContents()).resolves.toEqual(['rg frente.png', 'selfie.jpg', 'conta de luz.PDF', 'balanço 2025.pdf', 'contrato.pdf']);
  await expect(page.getByTestId('documents').textContent()).resolves.toMatch(/^Foto do documentoImagem.*Comprovante de endereçoPDF/);
  // A document opens in a new tab through a link the gateway signs for it (CreateDocumentReadLink), not at its address.
  const opened = await openDocument(page, 'rg frente.png');
  expect(opened.address).toBe(urls.documentPhotoUrl);
  expect(opened.read).toMatchObject({ status: 200, contentType: 'image/png', cacheControl: 'private, no-store', body: PNG });

  // The gateway has the uploaded files' public URLs as the receiver's documents.
  const receiverId = await facts.locator('dt:text-is("ID no provedor") + dd').textContent();
  const { receiver } = await api.call(
    'gateway',
    'getReceiver',
    GetReceiverRequest.fromPartial({ providerAccountId: sandboxAccountId, receiverId: receiverId! }),
  );
  expect(receiver).toMatchObject({ name: 'Loja Um Ltda', status: ReceiverStatus.RECEIVER_STATUS_ACTIVE, monthlyRevenue: 1234567, documents: urls });

  // The list has it (refetched after the creation), found by its document typed with punctuation, and it opens.
  await page.getByRole('link', { name: '← Voltar aos recebedores' }).click();
  const row = page.locator(`[data-id="${receiver.id}"]`);
  await expect(row.textContent()).resolves.toContain('11.222.333/0001-81');
  await page.getByLabel('Busca (id, id no provedor, documento ou e-mail)').fill('00000000-0000-0000-0000-000000000000');
  await page.getByText('Nada encontrado.').waitFor();
  await page.getByLabel('Busca (id, id no provedor, documento ou e-mail)').fill('11.222.333/0001-81');
  await row.getByRole('link', { name: 'Loja Um Ltda' }).click();
  await expect(page.getByTestId('receiver').getByTestId('document').textContent()).resolves.toBe('11.222.333/0001-81');
  await pages.finish(page, violations, 'receiver-detail');
});

it('at 390 px, in English, the form fits the screen and creates a CPF receiver with one upload; the upload texts stay the specification’s', async () => {
  const { page, violations } = await pages.signedIn(390, 844, '?lang=en');
  await page.getByRole('button', { name: 'Menu' }).click();
  await page.getByRole('link', { name: 'Receivers' }).click();
  await page.getByRole('link', { name: 'New receiver' }).click();
  await page.getByRole('heading', { name: 'New receiver' }).waitFor();
  await chooseOption(page, page.getByRole('combobox', { name: /^Provider account/ }), 'Sandbox recebedores (SANDBOX)');
  await page.getByRole('textbox', { name: /^Name/ }).fill('Maria Souza');
  await page.getByRole('textbox', { name: /^CPF or CNPJ/ }).fill('529.982.247-25');
  await page.getByText('CPF: 529.982.247-25').waitFor();
  // No social contract for a CPF.
  await expect(page.getByRole('group', { name: 'Social contract' }).count()).resolves.toBe(0);
  const url = await upload(page, 'Document photo', { name: 'cnh.png', mimeType: 'image/png', buffer: PNG });
  await expect(page.getByRole('group', { name: 'Document photo' }).getByRole('status').textContent()).resolves.toMatch(new RegExp(`^${SUCCESS}`));
  // Nothing wider than the screen: no sideways scrolling.
  await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
  await screenshot(page, 'receiver-form-390px');

  await page.getByRole('button', { name: 'Create receiver' }).click();
  await expect(page.getByTestId('receiver').getByTestId('document').textContent()).resolves.toBe('529.982.247-25');
  const opened = await openDocument(page, 'cnh.png');
  expect(opened).toMatchObject({ address: url, signed: true, read: { status: 200, body: PNG } });
  await expect(page.evaluate(() => document.documentElement.scrollWidth)).resolves.toBeLessThanOrEqual(390);
  await pages.finish(page, violations, 'receiver-390px');
});

it('with private uploads (UPLOADS_PRIVATE), a document has no address anyone can open: the form names it without a link, the receiver’s page opens it through a signed link', async () => {
  const privateStack = await startTestStack({ env: { UPLOADS_PRIVATE: 'true' } });
  await privateStack.client.call(
    'accounts',
    'createProviderAccount',
    CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: 'Sandbox privado', publicKey: 'pk', secretKey: 'sk' }),
  );
  gateway = privateStack.gateway;
  let opened: Page | undefined;
  try {
    const { page, violations } = await pages.signedIn(1280, 900, '#/receivers/new');
    opened = page;
    await chooseOption(page, page.getByRole('combobox', { name: /^Conta de provedor/ }), 'Sandbox privado (SANDBOX)');
    await page.getByRole('textbox', { name: /^Nome/ }).fill('Maria Souza');
    await page.getByRole('textbox', { name: /^CPF ou CNPJ/ }).fill('529.982.247-25');
    const field = await choose(page, 'Foto do documento', { name: 'cnh.png', mimeType: 'image/png', buffer: PNG });
    await expect(field.getByRole('status').textContent()).resolves.toBe(`${SUCCESS} Arquivo enviado: cnh.png`);
    await expect(field.getByRole('link').count()).resolves.toBe(0);

    await page.getByRole('button', { name: 'Criar recebedor' }).click();
    await expect(page.getByTestId('receiver').getByTestId('document').textContent()).resolves.toBe('529.982.247-25');
    const receiverId = await page.getByTestId('receiver').locator('dt:text-is("ID no provedor") + dd').textContent();
    const { receivers } = await privateStack.client.call('gateway', 'listReceivers', ListReceiversRequest.fromPartial({ query: receiverId! }));
    const address = receivers[0].documents.documentPhotoUrl as string;
    // Not readable at its address, by anyone.
    expect((await read(address)).status).toBe(403);
    // The page opens it through a link the gateway signed for this operator.
    const document = await openDocument(page, 'cnh.png');
    expect(document).toMatchObject({ address, signed: true, read: { status: 200, contentType: 'image/png', cacheControl: 'private, no-store', body: PNG } });
    await pages.finish(page, violations, 'receiver-private-document');
  } finally {
    await opened?.close();
    gateway = stack.gateway;
    await privateStack.close();
  }
});

/** An S3-compatible store that refuses every upload as S3 refuses a bad signature (403 AccessDenied), and records what it was sent. */
async function refusingStore(): Promise<{ url: string; puts: { headers: IncomingMessage['headers']; body: Buffer }[]; server: Server }> {
  const puts: { headers: IncomingMessage['headers']; body: Buffer }[] = [];
  const server = createServer((req, res) => {
    const cors = { 'access-control-allow-origin': req.headers.origin ?? '*', vary: 'Origin' };
    if (req.method === 'OPTIONS') {
      res
        .writeHead(200, {
          ...cors,
          'access-control-allow-methods': 'PUT',
          'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
        })
        .end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      puts.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res
        .writeHead(403, { ...cors, 'content-type': 'application/xml' })
        .end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, puts, server };
}

it('an upload the store refuses shows the failure message, after the browser sent the file with exactly the signed headers', async () => {
  const store = await refusingStore();
  const refusing = await startTestStack({ env: { S3_ENDPOINT: store.url, S3_ACCESS_KEY_ID: 'key', S3_SECRET_ACCESS_KEY: 'secret' } });
  gateway = refusing.gateway;
  let opened: Page | undefined;
  try {
    const { page, violations } = await pages.signedIn(1280, 900, '#/receivers/new');
    opened = page;
    const body = pdf('refused');
    const field = await choose(page, 'Comprovante de endereço', { name: 'conta.pdf', mimeType: 'application/pdf', buffer: body });
    await expect(field.getByRole('alert').textContent()).resolves.toBe(FAILURE);
    await expect(field.getByRole('status').count()).resolves.toBe(0);
    expect(store.puts).toHaveLength(1);
    expect(store.puts[0]!.body).toEqual(body);
    expect(store.puts[0]!.headers).toMatchObject({
      'content-type': 'application/pdf',
      'x-amz-acl': 'public-read',
      'cache-control': 'public, max-age=31536000, immutable',
      'content-length': String(body.length),
    });
    // Nothing was uploaded, so nothing is sent with the receiver.
    await expect(page.getByRole('button', { name: 'Criar recebedor' }).isEnabled()).resolves.toBe(true);
    await pages.finish(page, violations, 'receiver-upload-failed');
  } finally {
    // A page left open (a failed check above) holds its event stream, and the gateway would wait for it to close.
    await opened?.close();
    gateway = stack.gateway;
    await refusing.close();
    store.server.close();
  }
});
