/**
 * A zero-latency provider for the benchmarks, run as a process of its own so
 * that neither the gateway nor the load generator pays for it: the transactions
 * API dialect (PAGUESAFE's family, tests/integration/paguesafe.e2e.test.ts)
 * answering POST /transactions and GET /transactions/{id} at once, from no
 * state. The id carries the amount and method, so a read (the gateway confirms
 * an unsigned postback with one) answers the charge as it was created, paid.
 * Prints `listening <url>` once it accepts connections.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A well-formed BR Code (the gateway renders it as a QR image). */
const PIX_CODE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-426655440000520400005303986540519.905802BR5913Loja Exemplo6008BRASILIA62070503***63041D3D';
const EXPIRES = '2030-01-02T00:00:00.000Z';

/** The provider's transaction object, as the family's members answer it. */
function providerTransaction(id: string, status: string): Record<string, unknown> {
  const [, method = 'pix', amount = '0'] = id.split('_');
  return {
    id,
    status,
    amount: Number(amount),
    paymentMethod: method,
    ...(method === 'pix' ? { pix: { qrcode: PIX_CODE, expirationDate: EXPIRES } } : {}),
    ...(method === 'boleto'
      ? { boleto: { digitableLine: '34191790010104351004791020150008291070026000', url: `https://boleto.invalid/${id}`, expirationDate: EXPIRES } }
      : {}),
  };
}

let created = 0;
const prefix = `fk${process.pid.toString(36)}`;

function answer(response: ServerResponse, status: number, body: unknown): void {
  const raw = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(raw) }).end(raw);
}

function handle(request: IncomingMessage, response: ServerResponse, raw: string): void {
  const path = (request.url ?? '/').split('?')[0]!;
  if (request.method === 'POST' && path.endsWith('/transactions')) {
    const body = JSON.parse(raw || '{}') as { amount?: number; paymentMethod?: string };
    created += 1;
    return answer(response, 200, providerTransaction(`${prefix}-${created}_${body.paymentMethod ?? 'pix'}_${body.amount ?? 0}`, 'waiting_payment'));
  }
  const read = request.method === 'GET' && /\/transactions\/([^/]+)$/.exec(path);
  if (read) return answer(response, 200, providerTransaction(decodeURIComponent(read[1]!), 'paid'));
  answer(response, 404, { message: `no ${request.method} ${path} here` });
}

const server = createServer((request, response) => {
  let raw = '';
  request.setEncoding('utf8');
  request.on('data', (chunk: string) => (raw += chunk));
  request.on('end', () => handle(request, response, raw));
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
