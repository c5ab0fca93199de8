/**
 * The bare baseline of a charge (issue 31, point 7): a grpc-js server whose CreateTransaction does only what makes a
 * charge safe and nothing else. It claims the idempotency key (one durable INSERT), calls the same zero-latency fake
 * provider over keep-alive HTTP, and stores the charge with the key's completion (one durable INSERT). There is no
 * auth, validation, audit, metrics, tracing, ORM or QR image. Both statements are named prepared statements on a
 * node-postgres pool, as the gateway's are. Run as a process of its own by bench/baseline.ts with DATABASE_URL and
 * PROVIDER_URL; prints `listening <address>` once it serves.
 */
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import pg from 'pg';
import {
  CreateTransactionResponse,
  PaymentGatewayServiceService,
  type CreateTransactionRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, TransactionStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { directCharge } from './clients.js';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DB_POOL_MAX ?? 20) });
const providerUrl = process.env.PROVIDER_URL!;
const pix = directCharge(providerUrl, 'http://127.0.0.1:9/unused', 'PIX');
const billet = directCharge(providerUrl, 'http://127.0.0.1:9/unused', 'BILLET');

await pool.query(`create table if not exists baseline_keys (key text primary key, state text not null, charge_id uuid, created_at timestamptz not null)`);
await pool.query(
  `create table if not exists baseline_charges (id uuid primary key, provider_id text not null, status text not null, amount bigint not null,
     pix_code text, idempotency_key text not null, created_at timestamptz not null)`,
);

const CLAIM = {
  name: 'baseline_claim',
  text: `insert into baseline_keys (key, state, created_at) values ($1, 'CLAIMED', now()) on conflict do nothing returning key`,
};
const STORE = {
  name: 'baseline_store',
  text: `with c as (insert into baseline_charges (id, provider_id, status, amount, pix_code, idempotency_key, created_at)
           values ($1, $2, $3, $4, $5, $6, now()) returning id)
         update baseline_keys set state = 'COMPLETED', charge_id = (select id from c) where key = $6`,
};

async function createTransaction(request: CreateTransactionRequest): Promise<CreateTransactionResponse> {
  const key = request.idempotencyKey;
  const claimed = await pool.query({ ...CLAIM, values: [key] });
  if (claimed.rowCount === 0) throw Object.assign(new Error('idempotency key already used'), { code: grpc.status.ALREADY_EXISTS });
  const method = request.transaction?.paymentMethod === PaymentMethod.PAYMENT_METHOD_BILLET ? billet : pix;
  const answer = JSON.parse((await method()) as string) as { id: string; amount: number; pix?: { qrcode?: string } };
  const id = randomUUID();
  await pool.query({ ...STORE, values: [id, answer.id, 'PENDING', answer.amount, answer.pix?.qrcode ?? null, key] });
  return CreateTransactionResponse.fromPartial({
    transaction: {
      id,
      transactionId: answer.id,
      amount: answer.amount,
      status: TransactionStatus.TRANSACTION_STATUS_PENDING,
      pixCode: answer.pix?.qrcode ?? '',
    },
  });
}

const server = new grpc.Server();
server.addService(PaymentGatewayServiceService, {
  createTransaction: (
    call: grpc.ServerUnaryCall<CreateTransactionRequest, CreateTransactionResponse>,
    callback: grpc.sendUnaryData<CreateTransactionResponse>,
  ) => {
    createTransaction(call.request).then(
      (response) => callback(null, response),
      (error: Error & { code?: number }) => callback({ code: error.code ?? grpc.status.INTERNAL, details: error.message }),
    );
  },
} as unknown as grpc.UntypedServiceImplementation);
server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, port) => {
  if (error) throw error;
  console.log(`listening 127.0.0.1:${port}`);
});
process.on('SIGTERM', () => server.tryShutdown(() => void pool.end().then(() => process.exit(0))));
