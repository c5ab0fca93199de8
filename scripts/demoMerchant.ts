/**
 * The demo checkout's merchant server (npm run demo:merchant): what a shop's backend does with the card token its
 * checkout page sends it. It never sees the card: it receives `{cardToken}`, saves it as a card at the provider
 * (CreateCardId) and charges R$ 19,90 (CreateTransaction), with its own service token (payments:write) over Connect's
 * JSON protocol. Settings: GATEWAY_URL (default http://127.0.0.1:8080), SERVICE_TOKEN, PROVIDER_ACCOUNT_ID, PORT
 * (default 4242). The tests start it on loopback to play the merchant.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';

export interface DemoMerchantOptions {
  gatewayUrl: string;
  serviceToken: string;
  providerAccountId: string;
  port: number;
  /** The checkout page's origin, allowed to call this server (CORS). */
  pageOrigin: string;
  /** Told of every request body this server receives, as it arrived. */
  onBody?: (body: string) => void;
}

const PRICE_CENTS = 1990;

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startDemoMerchant(options: DemoMerchantOptions): Promise<{ url: string; server: Server }> {
  const call = async (method: string, request: unknown): Promise<Record<string, any>> => {
    const answer = await fetch(`${options.gatewayUrl}/gateway.v1.PaymentGatewayService/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${options.serviceToken}` },
      body: JSON.stringify(request),
    });
    const body = (await answer.json()) as Record<string, any>;
    if (!answer.ok) throw new Error(`${method}: ${body.message}`);
    return body;
  };
  const charge = async (cardToken: string) => {
    const { cardId } = await call('CreateCardId', { providerAccountId: options.providerAccountId, cardToken });
    const { transaction } = await call('CreateTransaction', {
      providerAccountId: options.providerAccountId,
      idempotencyKey: randomUUID(),
      transaction: { amount: String(PRICE_CENTS), paymentMethod: 'PAYMENT_METHOD_CREDIT_CARD', cardId, description: 'Checkout de demonstração' },
    });
    return { id: transaction.id as string, status: String(transaction.status).replace('TRANSACTION_STATUS_', '') };
  };
  const server = createServer((req, res) => {
    res.setHeader('access-control-allow-origin', options.pageOrigin);
    res.setHeader('vary', 'Origin');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type' }).end();
      return;
    }
    const reply = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method !== 'POST' || req.url !== '/charge') return reply(404, { message: 'not found' });
    readBody(req)
      .then(async (raw) => {
        options.onBody?.(raw);
        const { cardToken } = JSON.parse(raw) as { cardToken?: unknown };
        if (typeof cardToken !== 'string' || !cardToken) return reply(400, { message: 'cardToken is required' });
        reply(200, await charge(cardToken));
      })
      .catch((error: unknown) => reply(502, { message: (error as Error).message }));
  });
  await new Promise<void>((resolve) => server.listen(options.port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/charge`, server };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const gatewayUrl = process.env.GATEWAY_URL || 'http://127.0.0.1:8080';
  const { SERVICE_TOKEN, PROVIDER_ACCOUNT_ID } = process.env;
  if (!SERVICE_TOKEN || !PROVIDER_ACCOUNT_ID) {
    console.error('set SERVICE_TOKEN (a service token with payments:write) and PROVIDER_ACCOUNT_ID (a SANDBOX account)');
    process.exit(2);
  }
  const { url } = await startDemoMerchant({
    gatewayUrl,
    serviceToken: SERVICE_TOKEN,
    providerAccountId: PROVIDER_ACCOUNT_ID,
    port: Number(process.env.PORT || 4242),
    pageOrigin: new URL(gatewayUrl).origin,
  });
  console.log(`demo merchant server at ${url}; open ${gatewayUrl}/checkout-demo/?key=<publishable key>&account=${PROVIDER_ACCOUNT_ID}`);
}
