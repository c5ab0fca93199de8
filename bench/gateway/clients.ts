/** How the benchmarks call the gateway and the fake provider: gRPC through the tests' driver, HTTP through one keep-alive agent. */
import { Agent, request } from 'node:http';
import * as grpc from '@grpc/grpc-js';
import { CreateProviderAccountRequest } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { CreateTransactionRequest, GetTransactionRequest, PaymentGatewayServiceClient } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';
import { grpcDriver, type Driver } from '../../tests/support/clients.js';
import { BENCH_TOKEN } from './processes.js';

export type Method = 'PIX' | 'BILLET';
const PROTO_METHOD: Record<Method, PaymentMethod> = { PIX: PaymentMethod.PAYMENT_METHOD_PIX, BILLET: PaymentMethod.PAYMENT_METHOD_BILLET };
const WIRE_METHOD: Record<Method, string> = { PIX: 'pix', BILLET: 'boleto' };
export const AMOUNT = 1990;
const SECRET = 'sk_bench';
const CUSTOMER = { name: 'Ana Souza', document: '12345678909', email: 'ana@example.com', phone: '11987654321' };

const agent = new Agent({ keepAlive: true, maxSockets: 256 });

export class HttpFailure extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

/** One HTTP call over the shared keep-alive agent; resolves with the body of a 2xx, rejects with HttpFailure otherwise. */
export function http(url: string, method: string, body?: string, headers: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method,
        agent,
        headers: { ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }), ...headers },
      },
      (response) => {
        let raw = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (raw += chunk));
        response.on('end', () => ((response.statusCode ?? 0) < 300 ? resolve(raw) : reject(new HttpFailure(response.statusCode ?? 0))));
        response.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

/** A failure's code for the counts: the gRPC status name, HTTP_<status>, or the socket error's code. */
export function classify(error: unknown): string {
  if (error instanceof HttpFailure) return `HTTP_${error.status}`;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'number' && grpc.status[code]) return grpc.status[code];
  return typeof code === 'string' ? code : (error as Error).message?.slice(0, 60) || 'unknown';
}

/** What CreateTransaction asked of the fake, sent directly: the baseline the gateway's added latency is measured against. */
export function directCharge(providerUrl: string, notificationUrl: string, method: Method): () => Promise<unknown> {
  const body = JSON.stringify({
    amount: AMOUNT,
    paymentMethod: WIRE_METHOD[method],
    ...(method === 'PIX' ? { pix: { expiresInDays: 1 } } : { boleto: { expiresInDays: 3 } }),
    customer: { ...CUSTOMER, document: { number: CUSTOMER.document, type: 'cpf' } },
    items: [{ title: 'Pedido', unitPrice: AMOUNT, quantity: 1, tangible: false }],
    postbackUrl: notificationUrl,
    currency: 'BRL',
  });
  const headers = { authorization: `Basic ${Buffer.from(`${SECRET}:x`).toString('base64')}` };
  return () => http(`${providerUrl}/transactions`, 'POST', body, headers);
}

/** A charge as the benchmarks keep it: the gateway's id and the provider's (for the postbacks). */
export interface Charge {
  id: string;
  providerId: string;
}

export class GatewayClient {
  readonly driver: Driver;
  private accountId = '';
  notificationUrl = '';

  /** For calls with a deadline, which the tests' driver does not set. */
  private readonly payments: PaymentGatewayServiceClient;
  private readonly metadata = new grpc.Metadata();

  constructor(grpcAddress: string) {
    this.driver = grpcDriver(grpcAddress, BENCH_TOKEN);
    this.payments = new PaymentGatewayServiceClient(grpcAddress, grpc.credentials.createInsecure());
    this.metadata.set('authorization', `Bearer ${BENCH_TOKEN}`);
  }

  /** A PAGUESAFE account whose provider is the fake. */
  /** Answers the account's id. */
  async createAccount(providerUrl: string): Promise<string> {
    const { providerAccount } = await this.driver.call(
      'accounts',
      'createProviderAccount',
      CreateProviderAccountRequest.fromPartial({ provider: 'PAGUESAFE', name: 'bench', publicKey: 'pk_bench', secretKey: SECRET, baseUrl: providerUrl }),
    );
    this.accountId = providerAccount.id;
    this.notificationUrl = providerAccount.notificationUrl;
    return this.accountId;
  }

  /** Calls through this client use the account another client created (a second gateway process on the same database). */
  useAccountOf(other: GatewayClient): void {
    this.accountId = other.accountId;
    this.notificationUrl = other.notificationUrl;
  }

  private chargeRequest(idempotencyKey: string, method: Method): CreateTransactionRequest {
    return CreateTransactionRequest.fromPartial({
      providerAccountId: this.accountId,
      idempotencyKey,
      transaction: { amount: AMOUNT, paymentMethod: PROTO_METHOD[method], orderId: idempotencyKey, customer: CUSTOMER },
    });
  }

  async createTransaction(idempotencyKey: string, method: Method): Promise<Charge> {
    const { transaction } = await this.driver.call('gateway', 'createTransaction', this.chargeRequest(idempotencyKey, method));
    return { id: transaction.id, providerId: transaction.transactionId };
  }

  /** The same charge with a gRPC deadline `deadlineMs` from now: the caller gives up then (DEADLINE_EXCEEDED), as real callers do. */
  createTransactionWithin(idempotencyKey: string, method: Method, deadlineMs: number): Promise<unknown> {
    return new Promise((resolve, reject) =>
      this.payments.createTransaction(this.chargeRequest(idempotencyKey, method), this.metadata, { deadline: Date.now() + deadlineMs }, (error, response) =>
        error ? reject(error) : resolve(response),
      ),
    );
  }

  getTransaction(id: string): Promise<unknown> {
    return this.driver.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id }));
  }

  /** The provider's postback that the charge was paid (unsigned: the gateway confirms it with a read before applying it). */
  postback(eventId: string, providerId: string): Promise<string> {
    return this.postbackTo(this.notificationUrl, eventId, providerId);
  }

  /** The same postback sent to `url` (another process's webhook sidecar). */
  postbackTo(url: string, eventId: string, providerId: string): Promise<string> {
    const [, method = 'pix'] = providerId.split('_');
    const body = JSON.stringify({
      id: eventId,
      type: 'transaction',
      objectId: providerId,
      data: { id: providerId, status: 'paid', amount: AMOUNT, paymentMethod: method },
    });
    return http(url, 'POST', body);
  }

  close(): void {
    this.driver.close();
    this.payments.close();
  }
}

/** Reads gauges and counters from the Prometheus text (no labels given: the sum over every series of the name). */
export function metricValue(text: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== '{' && line[name.length] !== ' ')) continue;
    if (!Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) continue;
    total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}

/** Every series of a metric by one label's value. */
export function metricBy(text: string, name: string, label: string): Record<string, number> {
  const values: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const key = new RegExp(`${label}="([^"]*)"`).exec(line)?.[1];
    if (key !== undefined) values[key] = (values[key] ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return values;
}
