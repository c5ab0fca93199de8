import { randomUUID } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * Pagou.ai's API v2 as its documentation describes it (developer.pagou.ai),
 * for the gateway's acceptance test of PAGOUAI with api_version v2
 * (tests/standins/pagouai.test.ts). The host's root carries /v2.
 *
 * From the documentation:
 * - authentication: `Authorization: Bearer <token>` (the recommended of three
 *   methods); a missing or wrong token is 401 `{type:
 *   "https://api.pagou.ai/problems/unauthorized", title: "Unauthorized",
 *   status: 401, detail: "Authentication credentials were not provided or are
 *   invalid."}`;
 * - create a transaction: `POST /v2/transactions`, `amount` an integer in the
 *   currency's smallest unit (0 < x <= 100000000), `method` pix, voucher or
 *   credit_card, `buyer` and `products` (1 to 100, each `name`, `price`,
 *   `quantity`) required; `external_ref`, `currency` (default BRL),
 *   `installments` (1..12), `token` (`pgct_`/`pgpm_`, card only),
 *   `notify_url`, `metadata`, `traceable`, `ip_address` optional. Answer 201
 *   `{success: true, requestId, data: {id, status "pending", method, amount,
 *   base_price, currency, pix: {qr_code, expiration_date, receipt_url},
 *   created_at, updated_at, paid_at}}`; invalid data 422 `{type
 *   ".../problems/validation-error", title "Validation Error", status 422,
 *   detail "The request contains invalid data.", errors: [{field, message,
 *   code}]}`; an `external_ref` already used 409 `{type ".../problems/conflict",
 *   title "Conflict", status 409, detail "A transaction with external_ref …
 *   already exists."}` (idempotency page);
 * - vouchers: `method: "voucher"` is a boleto in BRL; barcode, digitable_line,
 *   url and expiration_date under `voucher`; no `token`;
 * - get a transaction: `GET /v2/transactions/{id}` → `{success, requestId, data}`;
 * - refunds: `PUT /v2/transactions/{id}/refund {amount?, reason?}` (amount in
 *   cents, omitted: the whole charge) → `{success: true, requestId, data:
 *   {transaction_id, status "partially_refunded"|"refunded", refunded_amount}}`;
 *   a transaction not in a refundable state 409 "The transaction cannot be
 *   refunded in its current state."; the refund is among the writes the
 *   idempotency page names (the SDK passes an idempotency key);
 * - statuses: pending, processing, paid, captured, authorized, refunded,
 *   partially_refunded, canceled, expired, refused, chargedback, …;
 * - webhooks: POST to the transaction's `notify_url`, `{id: "evt_…", event:
 *   "transaction", api_version, data: {id, event_type "transaction.paid" |
 *   "transaction.refunded" | "transaction.partially_refunded" | …,
 *   correlation_id (the external_ref), method, status, amount, currency,
 *   paid_at}}`; the receiver acknowledges 200; no signature is documented.
 *
 * The stand-in's own readings, where the pages are silent: the texts of its
 * 422 field errors and of an unknown transaction (404 problem); a card is
 * captured at once; a refund sent again with the same Idempotency-Key is
 * answered with the first answer; a refund above what is left is 422; a
 * voucher's lines are given at creation.
 */
export const PAGOUAI_SOURCES = [
  'https://developer.pagou.ai/start-here/authentication',
  'https://developer.pagou.ai/start-here/environments',
  'https://developer.pagou.ai/start-here/idempotency',
  'https://developer.pagou.ai/api-reference/api--transactions/create-a-transaction',
  'https://developer.pagou.ai/api-reference/api--transactions/get-a-transaction',
  'https://developer.pagou.ai/payments/pix/accept-payments',
  'https://developer.pagou.ai/payments/pix/refunds',
  'https://developer.pagou.ai/payments/vouchers/accept-payments',
  'https://developer.pagou.ai/payments/transaction-statuses',
  'https://developer.pagou.ai/webhooks/overview',
  'https://developer.pagou.ai/webhooks/payment-events',
] as const;

export interface PagouaiTransaction {
  id: string;
  external_ref: string | null;
  status: string;
  method: 'pix' | 'voucher' | 'credit_card';
  amount: number;
  refunded_amount: number;
  currency: string;
  installments: number;
  buyer: Record<string, unknown>;
  products: Array<{ name: string; price: number; quantity: number }>;
  notify_url: string | null;
  pix: { qr_code: string; expiration_date: string; end_to_end_id: string | null; receipt_url: null } | null;
  voucher: { barcode: string; digitable_line: string; url: string; expiration_date: string } | null;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
}

export interface PagouaiStandIn extends StandIn {
  readonly transactions: ReadonlyMap<string, PagouaiTransaction>;
  /** Deliveries made: the event type and the HTTP status the receiver answered. */
  readonly delivered: Array<{ eventType: string; status: number }>;
  /** The payer pays (PIX or boleto): `paid`, and transaction.paid sent to its notify_url. */
  pay(id: string): Promise<number>;
}

const PROBLEMS = 'https://api.pagou.ai/problems';
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const isAmount = (value: unknown, max = 100_000_000): value is number => Number.isInteger(value) && (value as number) > 0 && (value as number) <= max;

const problem = (
  status: number,
  kind: string,
  title: string,
  detail: string,
  errors?: Array<{ field: string; message: string; code: string }>,
): StandInReply => ({
  status,
  headers: { 'content-type': 'application/problem+json' },
  body: JSON.stringify({ type: `${PROBLEMS}/${kind}`, title, status, detail, ...(errors ? { errors } : {}) }),
});

function brCode(cents: number, txid: string): string {
  const pix = createStaticPix({
    merchantName: 'PAGOU SANDBOX TESTE',
    merchantCity: 'SAO PAULO',
    pixKey: '5f1e2d3c-4b5a-4978-8a6b-1c2d3e4f5a6b',
    infoAdicional: txid.slice(0, 25),
    transactionAmount: cents / 100,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

/** The create's field checks, in the reference's order; an empty list when the body is valid. */
function fieldErrors(body: Record<string, unknown>): Array<{ field: string; message: string; code: string }> {
  const errors: Array<{ field: string; message: string; code: string }> = [];
  const add = (field: string, message: string, code = 'invalid_type') => errors.push({ field, message, code });
  if (!isAmount(body.amount)) add('amount', 'Amount must be an integer between 1 and 100000000');
  if (!['pix', 'voucher', 'credit_card'].includes(body.method as string)) add('method', 'Invalid enum value', 'invalid_enum_value');
  const buyer = isRecord(body.buyer) ? body.buyer : undefined;
  if (!buyer) add('buyer', 'Required');
  else {
    if (!text(buyer.name)) add('buyer.name', 'Required');
    if (!text(buyer.email) || !/^[^@\s]+@[^@\s]+$/.test(buyer.email as string)) add('buyer.email', 'Invalid email', 'invalid_string');
    const document = isRecord(buyer.document) ? buyer.document : {};
    if (!['CPF', 'CNPJ'].includes(document.type as string)) add('buyer.document.type', 'Invalid enum value', 'invalid_enum_value');
    const number = text(document.number) ?? '';
    if (!/^\d+$/.test(number) || number.length !== (document.type === 'CNPJ' ? 14 : 11))
      add('buyer.document.number', 'Invalid document number', 'invalid_string');
  }
  const products = Array.isArray(body.products) ? body.products : undefined;
  if (!products || products.length < 1 || products.length > 100) add('products', 'Array must contain between 1 and 100 element(s)', 'too_small');
  else
    products.forEach((product, index) => {
      if (!isRecord(product) || !text(product.name)) add(`products.${index}.name`, 'Required');
      if (!isRecord(product) || !Number.isInteger(product.price) || (product.price as number) < 0) add(`products.${index}.price`, 'Expected integer');
      if (!isRecord(product) || !isAmount(product.quantity)) add(`products.${index}.quantity`, 'Expected positive integer');
    });
  if (body.installments !== undefined && !(Number.isInteger(body.installments) && (body.installments as number) >= 1 && (body.installments as number) <= 12))
    add('installments', 'Number must be between 1 and 12', 'too_big');
  if (body.method === 'credit_card' && !/^(pgct_|pgpm_)/.test(text(body.token) ?? '')) add('token', 'Invalid token', 'invalid_string');
  if (body.method !== 'credit_card' && body.token !== undefined) add('token', 'Card tokens are only valid for method credit_card', 'invalid_string');
  if (body.notify_url !== undefined) {
    try {
      new URL(body.notify_url as string);
    } catch {
      add('notify_url', 'Invalid url', 'invalid_string');
    }
  }
  return errors;
}

export async function startPagouaiStandIn(options: { token: string }): Promise<PagouaiStandIn> {
  const transactions = new Map<string, PagouaiTransaction>();
  const refundAnswers = new Map<string, StandInReply>();
  const delivered: PagouaiStandIn['delivered'] = [];
  let requests = 0;
  const envelope = (data: unknown, status = 200): StandInReply => ({ status, body: { success: true, requestId: `req_${++requests}`, data } });

  const unknown = (id: string) => problem(404, 'not-found', 'Not Found', `Transaction ${id} not found.`);

  async function deliver(transaction: PagouaiTransaction, eventType: string): Promise<number> {
    if (!transaction.notify_url) return 0;
    const response = await fetch(transaction.notify_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: `evt_${randomUUID().replace(/-/g, '')}`,
        event: 'transaction',
        api_version: 'v1',
        data: {
          id: transaction.id,
          event_type: eventType,
          correlation_id: transaction.external_ref,
          method: transaction.method,
          status: transaction.status,
          amount: transaction.amount,
          currency: transaction.currency,
          paid_at: transaction.paid_at,
        },
      }),
      signal: AbortSignal.timeout(5_000),
    });
    await response.arrayBuffer();
    delivered.push({ eventType, status: response.status });
    return response.status;
  }

  const standIn = await startStandIn({
    name: 'Pagou.ai',
    sources: PAGOUAI_SOURCES,
    authenticate: (request: StandInRequest) =>
      request.headers.authorization === `Bearer ${options.token}`
        ? undefined
        : problem(401, 'unauthorized', 'Unauthorized', 'Authentication credentials were not provided or are invalid.'),
    routes: [
      {
        method: 'POST',
        path: '/v2/transactions',
        handle: (request) => {
          const body = isRecord(request.body) ? request.body : {};
          const errors = fieldErrors(body);
          if (errors.length) return problem(422, 'validation-error', 'Validation Error', 'The request contains invalid data.', errors);
          const externalRef = text(body.external_ref) ?? null;
          if (externalRef && [...transactions.values()].some((transaction) => transaction.external_ref === externalRef))
            return problem(409, 'conflict', 'Conflict', `A transaction with external_ref ${externalRef} already exists.`);
          const now = new Date();
          const id = randomUUID();
          const method = body.method as PagouaiTransaction['method'];
          const amount = body.amount as number;
          const transaction: PagouaiTransaction = {
            id,
            external_ref: externalRef,
            status: method === 'credit_card' ? 'captured' : 'pending',
            method,
            amount,
            refunded_amount: 0,
            currency: text(body.currency) ?? 'BRL',
            installments: (body.installments as number | undefined) ?? 1,
            buyer: body.buyer as Record<string, unknown>,
            products: body.products as PagouaiTransaction['products'],
            notify_url: text(body.notify_url) ?? null,
            pix:
              method === 'pix'
                ? {
                    qr_code: brCode(amount, id.replace(/-/g, '')),
                    expiration_date: new Date(now.getTime() + 86_400_000).toISOString(),
                    end_to_end_id: null,
                    receipt_url: null,
                  }
                : null,
            voucher:
              method === 'voucher'
                ? {
                    barcode: `2379${String(amount).padStart(10, '0')}${'0'.repeat(30)}`,
                    digitable_line: `23790.00009 00000.000000 00000.000000 0 ${String(amount).padStart(14, '0')}`,
                    url: `https://api-sandbox.pagou.ai/voucher/${id}`,
                    expiration_date: new Date(now.getTime() + 3 * 86_400_000).toISOString(),
                  }
                : null,
            created_at: now.toISOString(),
            updated_at: now.toISOString(),
            paid_at: method === 'credit_card' ? now.toISOString() : null,
          };
          transactions.set(id, transaction);
          return envelope(transaction, 201);
        },
      },
      {
        method: 'GET',
        path: '/v2/transactions/{id}',
        handle: (request) => {
          const transaction = transactions.get(request.params.id!);
          return transaction ? envelope(transaction) : unknown(request.params.id!);
        },
      },
      {
        method: 'PUT',
        path: '/v2/transactions/{id}/refund',
        handle: (request) => {
          const key = request.headers['idempotency-key'];
          const replay = key ? refundAnswers.get(`${request.params.id}:${key}`) : undefined;
          if (replay) return replay;
          const transaction = transactions.get(request.params.id!);
          if (!transaction) return unknown(request.params.id!);
          if (!['paid', 'captured', 'partially_refunded'].includes(transaction.status))
            return problem(409, 'conflict', 'Conflict', 'The transaction cannot be refunded in its current state.');
          const body = isRecord(request.body) ? request.body : {};
          const left = transaction.amount - transaction.refunded_amount;
          if (body.amount !== undefined && !isAmount(body.amount))
            return problem(422, 'validation-error', 'Validation Error', 'The request contains invalid data.', [
              { field: 'amount', message: 'Amount must be a positive integer', code: 'invalid_type' },
            ]);
          const amount = (body.amount as number | undefined) ?? left;
          if (amount > left)
            return problem(422, 'validation-error', 'Validation Error', 'The request contains invalid data.', [
              { field: 'amount', message: `Amount exceeds the refundable amount of ${left}`, code: 'too_big' },
            ]);
          transaction.refunded_amount += amount;
          transaction.status = transaction.refunded_amount === transaction.amount ? 'refunded' : 'partially_refunded';
          transaction.updated_at = new Date().toISOString();
          const answer = envelope({ transaction_id: transaction.id, status: transaction.status, refunded_amount: transaction.refunded_amount });
          if (key) refundAnswers.set(`${request.params.id}:${key}`, answer);
          void deliver(transaction, `transaction.${transaction.status}`).catch(() => undefined);
          return answer;
        },
      },
    ],
  });

  return Object.assign(standIn, {
    transactions,
    delivered,
    async pay(id: string) {
      const transaction = transactions.get(id);
      if (!transaction) throw new Error(`no Pagou.ai transaction ${id}`);
      if (transaction.status !== 'pending') throw new Error(`Pagou.ai transaction ${id} is ${transaction.status}`);
      transaction.status = 'paid';
      transaction.paid_at = new Date().toISOString();
      transaction.updated_at = transaction.paid_at;
      if (transaction.pix) transaction.pix.end_to_end_id = `E00000000${Date.now()}`.slice(0, 32);
      return deliver(transaction, 'transaction.paid');
    },
  });
}
