import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { CreateServiceTokenRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { SANDBOX_TEST_CARDS } from '../../server/sandbox/testCards.js';
import { startDemoMerchant } from '../../scripts/demoMerchant.js';
import { launchBrowser } from '../support/browser.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

/**
 * Issue 28, point 2: the demo checkout page (/checkout-demo/) on SANDBOX. The card typed in the page goes to the
 * gateway only; the merchant server (scripts/demoMerchant.ts, on loopback) gets the card token and charges it. A
 * publishable key does nothing but tokenise, and only from its origins. Also the provider card script loader.
 */
const CVV = '739';
let browser: Browser;
let stack: TestStack;
let merchant: Server;
/** Every body the merchant server received. */
const merchantBodies: string[] = [];
/** A shop page on another origin than the gateway's, which no key lists, and the requests made for a provider script. */
let shop: Server;
let shopOrigin: string;
const scriptRequests: string[] = [];
let accountId: string;
let publishableKey: string;

beforeAll(async () => {
  // The merchant server's address must be known before the gateway starts (the demo page's CSP names it); the
  // gateway's only after: the merchant reads it when called.
  let gatewayUrl = '';
  let serviceToken = '';
  const started = await startDemoMerchant({
    get gatewayUrl() {
      return gatewayUrl;
    },
    get serviceToken() {
      return serviceToken;
    },
    get providerAccountId() {
      return accountId;
    },
    get pageOrigin() {
      return gatewayUrl;
    },
    port: 0,
    onBody: (body) => merchantBodies.push(body),
  });
  merchant = started.server;
  stack = await startTestStack({ env: { CHECKOUT_DEMO_MERCHANT_URL: started.url } });
  gatewayUrl = stack.gateway.httpUrl!;
  accountId = (
    await stack.client.call(
      'accounts',
      'createProviderAccount',
      CreateProviderAccountRequest.fromPartial({ provider: 'SANDBOX', name: 'Loja demo', publicKey: 'pk', secretKey: 'sk' }),
    )
  ).providerAccount.id;
  const token = (request: Partial<CreateServiceTokenRequest>) =>
    stack.client.call('access', 'createServiceToken', CreateServiceTokenRequest.fromPartial({ providerAccountIds: [accountId], ...request }));
  serviceToken = (await token({ name: 'merchant server', scopes: ['payments:write'] })).secret;
  publishableKey = (await token({ name: 'demo page', scopes: ['cards:tokenize'], allowedOrigins: [gatewayUrl] })).secret;
  shop = createServer((req, res) => {
    if (req.url === '/shield.js') {
      scriptRequests.push(req.url);
      res.writeHead(200, { 'content-type': 'text/javascript' }).end('window.ShieldHelper = { loaded: true };');
    } else if (req.url === '/missing-shield.js') {
      scriptRequests.push(req.url);
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    } else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Outra loja</title><p>shop</p>');
  });
  await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
  shopOrigin = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await stack?.close();
  merchant?.close();
  shop?.close();
});

async function openDemo(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${stack.gateway.httpUrl}/checkout-demo/?key=${encodeURIComponent(publishableKey)}&account=${accountId}`);
  return page;
}

it('charges a card typed in the page, APPROVED on SANDBOX, and the merchant server never sees the card', async () => {
  const page = await openDemo();
  const sentToMerchant: string[] = [];
  page.on('request', (request) => {
    if (!request.url().startsWith(stack.gateway.httpUrl!)) sentToMerchant.push(request.postData() ?? '');
  });
  await page.getByLabel('Número do cartão').fill('4111 1111 1111 1111');
  await page.getByLabel('Nome no cartão').fill('Ana Souza');
  await page.getByLabel('CPF do titular').fill('123.456.789-09');
  await page.getByLabel('Mês').fill('12');
  await page.getByLabel('Ano').fill('30');
  await page.getByLabel('CVV').fill(CVV);
  await page.getByRole('button', { name: 'Pagar R$ 19,90' }).click();
  await page
    .getByRole('status')
    .filter({ hasText: /^(Pagamento|Erro)/ })
    .waitFor();
  expect(await page.getByRole('status').textContent()).toBe('Pagamento APPROVED');

  expect(merchantBodies).toHaveLength(1);
  const { cardToken } = JSON.parse(merchantBodies[0]!) as { cardToken: string };
  expect(cardToken).not.toBe('');
  for (const body of [...merchantBodies, ...sentToMerchant]) {
    expect(body).not.toContain(SANDBOX_TEST_CARDS.approved);
    expect(body).not.toContain('4111 1111');
    expect(body).not.toContain(CVV);
  }
  await page.close();
});

it('a publishable key, from its own page, gets PERMISSION_DENIED for anything but tokenisation', async () => {
  const page = await openDemo();
  const answer = await page.evaluate(async (key) => {
    const response = await fetch('/gateway.v1.PaymentGatewayService/ListProviders', {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: '{}',
    });
    return { status: response.status, body: await response.json() };
  }, publishableKey);
  expect(answer).toMatchObject({
    status: 403,
    body: { code: 'permission_denied', message: 'permission denied: a publishable key can only create card tokens (CreateCardToken)' },
  });
  await page.close();
});

it('is refused from a page whose origin is not on its list, and the page reads why', async () => {
  const page = await browser.newPage();
  await page.goto(`${shopOrigin}/`);
  const refusal = await page.evaluate(
    async ({ gatewayUrl, key, account }) => {
      const { createCheckout } = await import(`${gatewayUrl}/checkout/checkout.js`);
      try {
        await createCheckout({ gatewayUrl, publishableKey: key, providerAccountId: account }).tokenize({
          number: '4111111111111111',
          holderName: 'Ana Souza',
          holderDocument: '12345678909',
          expMonth: '12',
          expYear: '30',
          cvv: '123',
        });
        return 'tokenised';
      } catch (error) {
        return `${(error as { code: string }).code}: ${(error as Error).message}`;
      }
    },
    { gatewayUrl: stack.gateway.httpUrl!, key: publishableKey, account: accountId },
  );
  expect(refusal).toBe(`permission_denied: permission denied: origin ${shopOrigin} is not one of this publishable key's allowed origins`);
  await page.close();
});

it("loads a provider's card script, and fails with the specification's text when it never loads", async () => {
  // A page each: once loaded, the script's global stays in its page.
  const load = async (src: string) => {
    const page = await browser.newPage();
    await page.goto(`${shopOrigin}/`);
    const outcome = await page.evaluate(
      async ({ gatewayUrl, src }) => {
        const { loadShieldHelper } = await import(`${gatewayUrl}/checkout/checkout.js`);
        try {
          return JSON.stringify(await loadShieldHelper(src));
        } catch (error) {
          return (error as Error).message;
        }
      },
      { gatewayUrl: stack.gateway.httpUrl!, src },
    );
    await page.close();
    return outcome;
  };
  expect(await load(`${shopOrigin}/shield.js`)).toBe('{"loaded":true}');
  expect(await load(`${shopOrigin}/missing-shield.js`)).toBe('Falha ao carregar o ShieldHelper');
  // Loaded again after each failure, never more than the 10 attempts.
  const missing = scriptRequests.filter((url) => url === '/missing-shield.js').length;
  expect(missing).toBeGreaterThan(1);
  expect(missing).toBeLessThanOrEqual(10);
});
