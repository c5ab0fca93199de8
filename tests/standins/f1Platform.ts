import { createStaticPix, hasError } from 'pix-utils';
import { startStandIn, type Route, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * The "Pagar.me-v4 clone" platform (provider research F1) for the stand-ins of
 * its members (PODPAY2, PAYSHARKGATEWAY, HAWKPAY). What a member differs in
 * (auth, the path prefix, its statuses, its postback envelope) is its options.
 *
 * From the documentation of the platform's other instances
 * (F1_PLATFORM_DOCUMENTATION: PagGX and CazcoPay "Formato dos postbacks",
 * Hydra Hub "Transações de Pagamento" and "Transações com Cartão de Crédito"),
 * this stand-in enforces:
 * - POST /transactions: `amount` an integer in cents; `paymentMethod` pix,
 *   boleto or credit_card; `customer` with name, email, phone and
 *   `document{type cpf|cnpj, number}`; `items[{title, unitPrice (cents),
 *   quantity, tangible}]`; a card charged by `card.hash` (no other card field
 *   is documented); `pix.expiresInDays` a whole number of days;
 *   `installments` a whole number (the card page sends it as text, "1");
 *   `metadata`, when sent, a JSON string; `traceable` a boolean; `externalRef`,
 *   `postbackUrl`, `ip` text. Hydra Hub marks externalRef, postbackUrl,
 *   traceable, ip and metadata required, but the postback pages show instances'
 *   transactions with each of them null, so here they are optional.
 * - The transaction object (the postback's `data`, which the create and read
 *   answers are): `id` a number, `amount`, `refundedAmount`, `companyId`,
 *   `installments`, `paymentMethod`, `status`, `postbackUrl`, `metadata`,
 *   `traceable`, `secureId`, `secureUrl`, dates, `ip`, `externalRef`,
 *   `customer{id, name, email, phone, document, …}`, `card{id, brand,
 *   holderName, lastDigits, expirationMonth, expirationYear, …}`, `boleto`,
 *   `pix`, `refusedReason`, `items`, `refunds[]`, `fee{…}`. A card the
 *   platform declines is still created, `status: 'refused'` with its
 *   `refusedReason` (Hydra Hub's card page); here a hash starting with
 *   `refused` is declined.
 * - Postbacks: `{id (a number), type: 'transaction', objectId (the object's id
 *   as text), url (where it is posted), data: the transaction}`, with no
 *   signature of any kind (both postback pages).
 *
 * From the platform's public clients, no page of its documentation that could
 * be read showing them (the members' stand-ins name those clients):
 * - GET /transactions/{id} answering the same object; `pix{qrcode (the BR
 *   Code), end2EndId, receiptUrl, expirationDate}` and `boleto{url, barcode,
 *   digitableLine, instructions, expirationDate}`; `boleto.expirationDate`
 *   (yyyy-MM-dd) in the request.
 * - POST /transactions/{id}/refund `{amount?}` (cents; none is what is left)
 *   answered by the transaction, its `refundedAmount` grown, `refunded` once
 *   nothing is left. (Beehive, another instance, documents the same body,
 *   cents and none meaning all, at POST /transactions/{id}/refunds answered by
 *   a refund object `{id, amount, createdAt}`; its path differs from the
 *   specification's /refund for the members, so the clients' answer stays.)
 * - POST /transfers `{method 'fiat', amount (cents), pixKey, pixKeyType
 *   cpf|cnpj|email|phone|evp|copypaste, postbackUrl?}` with the account's
 *   `x-withdraw-key` (a transfer read may carry it: one client sends it there,
 *   another not) → `{id, amount, netAmount, fee, status, pixKey, pixKeyType,
 *   …}`; GET /transfers/{id}; the withdraw postback (`type: 'withdraw'`).
 * - Errors `{statusCode, error, message}` (one client's declared error shape);
 *   the texts are the stand-in's own.
 */

/** The pages of the platform's documentation (its other instances) this stand-in was written from. */
export const F1_PLATFORM_DOCUMENTATION = [
  'https://paggx-pro.readme.io/reference/formato-dos-postbacks',
  'https://cazcopay.readme.io/reference/formato-dos-postbacks',
  'https://apidocs.hydrahub.com.br/api-reference/endpoint/transactions',
  'https://apidocs.hydrahub.com.br/api-reference/endpoint/card-transactions',
] as const;

export type F1PostbackType = 'transaction' | 'withdraw';

export interface F1Options {
  /** The provider, for messages. */
  name: string;
  sources: readonly string[];
  /** What the API's paths start with ('/v1'). */
  prefix: string;
  /** The Basic credentials the account's keys must produce (user, password). */
  basic: { user: string; password: string };
  /** The payouts' `x-withdraw-key`; a member without payouts has none (its stand-in has no transfer routes). */
  withdrawKey?: string;
  /** Statuses: a new PIX or boleto charge, a paid one, a declined card, a fully refunded one; a new transfer, a settled one. */
  statuses: { waiting: string; paid: string; refused: string; refunded: string; transferCreated: string; transferDone: string };
  /** The postback body for an object of `type`; the platform's documented envelope (`f1Postback`) unless the member's clients show another. */
  postback?: (type: F1PostbackType, data: Record<string, unknown>, postbackId: number, url: string) => unknown;
}

export interface F1StandIn extends StandIn {
  /** The buyer pays a PIX or boleto charge: it becomes paid and its postback goes to the URL the charge named. */
  pay(id: string | number): Promise<Response>;
  /** The platform settles a transfer: its postback goes to the URL the transfer named. */
  settleTransfer(id: string | number): Promise<Response>;
  transaction(id: string | number): Record<string, unknown> | undefined;
  transfer(id: string | number): Record<string, unknown> | undefined;
}

/** The documented postback: `{id, type, objectId, url, data}` (PagGX and CazcoPay "Formato dos postbacks"). */
export const f1Postback = (type: F1PostbackType, data: Record<string, unknown>, postbackId: number, url: string) => ({
  id: postbackId,
  type,
  objectId: String(data.id),
  url,
  data,
});

const failure = (statusCode: number, error: string, message: string): StandInReply => ({ status: statusCode, body: { statusCode, error, message } });
const badRequest = (message: string) => failure(400, 'Bad Request', message);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCents = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;
const isWhole = (value: unknown): boolean => (Number.isSafeInteger(value) && (value as number) >= 1) || (typeof value === 'string' && /^[1-9]\d*$/.test(value));
/** Absent, null, or of the kind the documentation gives the field. */
const optional = (value: unknown, ok: (value: unknown) => boolean) => value === undefined || value === null || ok(value);

function isJsonText(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

/** What a charge body lacks, in the order the platform would name it; undefined when it is complete. */
function chargeProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'body must be a JSON object';
  if (!isCents(body.amount)) return 'amount must be a positive integer (cents)';
  if (!['pix', 'boleto', 'credit_card'].includes(body.paymentMethod as string)) return 'paymentMethod must be one of pix, boleto, credit_card';
  const customer = body.customer;
  if (!isRecord(customer) || !isText(customer.name) || !isText(customer.email) || !isText(customer.phone))
    return 'customer.name, customer.email and customer.phone are required';
  const document = customer.document;
  if (!isRecord(document) || !['cpf', 'cnpj'].includes(document.type as string)) return 'customer.document.type must be cpf or cnpj';
  if (!(document.type === 'cpf' ? /^\d{11}$/ : /^\d{14}$/).test(String(document.number ?? ''))) return `customer.document.number is not a ${document.type}`;
  const items = body.items;
  if (!Array.isArray(items) || items.length === 0) return 'items must contain at least one item';
  for (const item of items) {
    if (!isRecord(item) || !isText(item.title)) return 'items.title is required';
    if (!Number.isSafeInteger(item.unitPrice) || (item.unitPrice as number) < 0) return 'items.unitPrice must be an integer (cents)';
    if (!Number.isSafeInteger(item.quantity) || (item.quantity as number) < 1) return 'items.quantity must be a positive integer';
    if (typeof item.tangible !== 'boolean') return 'items.tangible must be a boolean';
  }
  if (body.paymentMethod === 'credit_card') {
    if (!isRecord(body.card) || !isText(body.card.hash)) return 'card.hash is required for credit_card';
    if (!optional(body.installments, isWhole)) return 'installments must be a whole number';
  }
  if (body.paymentMethod === 'pix' && isRecord(body.pix) && !optional(body.pix.expiresInDays, isWhole))
    return 'pix.expiresInDays must be a whole number of days';
  if (body.paymentMethod === 'boleto' && isRecord(body.boleto) && !optional(body.boleto.expirationDate, (date) => /^\d{4}-\d{2}-\d{2}$/.test(String(date))))
    return 'boleto.expirationDate must be a date (YYYY-MM-DD)';
  if (!optional(body.metadata, isJsonText)) return 'metadata must be a JSON string';
  if (!optional(body.traceable, (value) => typeof value === 'boolean')) return 'traceable must be a boolean';
  for (const field of ['externalRef', 'postbackUrl', 'ip'] as const) if (!optional(body[field], isText)) return `${field} must be text`;
  return undefined;
}

const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'evp', 'copypaste'];

function transferProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'body must be a JSON object';
  if (body.method !== 'fiat') return 'method must be fiat';
  if (!isCents(body.amount)) return 'amount must be a positive integer (cents)';
  if (!isText(body.pixKey)) return 'pixKey is required';
  if (!PIX_KEY_TYPES.includes(body.pixKeyType as string)) return `pixKeyType must be one of ${PIX_KEY_TYPES.join(', ')}`;
  return undefined;
}

/** A BR Code for the amount, as the platform's `pix.qrcode` carries it. */
function brCode(cents: number, txid: string): string {
  const pix = createStaticPix({
    merchantName: 'Loja Exemplo',
    merchantCity: 'Sao Paulo',
    pixKey: '123e4567-e12b-12d1-a456-426655440000',
    infoAdicional: txid,
    transactionAmount: cents / 100,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

const addDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const COMPANY_ID = 2;

export async function startF1StandIn(options: F1Options): Promise<F1StandIn> {
  const { prefix, statuses } = options;
  const postback = options.postback ?? f1Postback;
  const transactions = new Map<string, Record<string, unknown>>();
  const transfers = new Map<string, Record<string, unknown>>();
  let nextTransaction = 4200;
  let nextTransfer = 900;
  let nextRefund = 70;
  let nextPostback = 686400;
  const expectedAuth = `Basic ${Buffer.from(`${options.basic.user}:${options.basic.password}`).toString('base64')}`;

  const authenticate = (request: StandInRequest): StandInReply | undefined =>
    request.headers.authorization === expectedAuth ? undefined : failure(401, 'Unauthorized', 'Invalid API credentials');
  /** Payouts need the withdraw key; a read may carry it, and then it must be the right one. */
  const withdrawKeyRefusal = (request: StandInRequest, required: boolean): StandInReply | undefined => {
    const key = request.headers['x-withdraw-key'];
    if (key === undefined && !required) return undefined;
    return key === options.withdrawKey ? undefined : failure(403, 'Forbidden', 'Invalid withdraw key');
  };
  const notFound = (what: string) => failure(404, 'Not Found', `${what} not found`);
  const touch = (object: Record<string, unknown>) => {
    object.updatedAt = new Date().toISOString();
    return object;
  };

  const createTransaction = (body: Record<string, any>): Record<string, unknown> => {
    const id = ++nextTransaction;
    const method = body.paymentMethod as string;
    const now = new Date().toISOString();
    const declined = method === 'credit_card' && String(body.card.hash).startsWith('refused');
    const decided = method === 'credit_card' && !declined;
    const fee = Math.round(body.amount * 0.04) + 200;
    return {
      id,
      amount: body.amount,
      refundedAmount: 0,
      companyId: COMPANY_ID,
      installments: Number(body.installments ?? 1),
      paymentMethod: method,
      status: declined ? statuses.refused : decided ? statuses.paid : statuses.waiting,
      postbackUrl: body.postbackUrl ?? null,
      metadata: body.metadata ?? null,
      traceable: body.traceable ?? false,
      secureId: `5ec0${String(id).padStart(8, '0')}`,
      secureUrl: `https://checkout.example/pagar/5ec0${String(id).padStart(8, '0')}`,
      createdAt: now,
      updatedAt: now,
      paidAt: decided ? now : null,
      paidAmount: decided ? body.amount : 0,
      refusedAmount: declined ? body.amount : 0,
      ip: body.ip ?? null,
      externalRef: body.externalRef ?? null,
      customer: {
        id: id * 10,
        externalRef: null,
        name: body.customer.name,
        email: body.customer.email,
        phone: body.customer.phone,
        birthdate: null,
        createdAt: now,
        document: { number: body.customer.document.number, type: body.customer.document.type },
      },
      card:
        method === 'credit_card'
          ? { id: id * 3, brand: 'visa', holderName: 'ANA SOUZA', lastDigits: '1111', expirationMonth: 3, expirationYear: 2030, reusable: true, createdAt: now }
          : null,
      boleto:
        method === 'boleto'
          ? {
              url: `https://boletos.example/${id}.pdf`,
              barcode: '23791234500000199901234567890123456789012345',
              digitableLine: '23790123456789012345678901234567890123456789012',
              instructions: body.boleto?.instructions ?? null,
              expirationDate: body.boleto?.expirationDate ?? addDays(3).slice(0, 10),
            }
          : null,
      pix:
        method === 'pix'
          ? { qrcode: brCode(body.amount, String(id)), end2EndId: null, receiptUrl: null, expirationDate: addDays(Number(body.pix?.expiresInDays ?? 1)) }
          : null,
      shipping: null,
      refusedReason: declined ? 'Cartão recusado pelo emissor' : null,
      items: body.items.map((item: Record<string, unknown>) => ({ externalRef: item.externalRef ?? null, ...item })),
      splits: [{ recipientId: COMPANY_ID, amount: body.amount, netAmount: body.amount - fee }],
      refunds: [],
      delivery: null,
      fee: { fixedAmount: 200, spreadPercentage: 4, estimatedFee: fee, netAmount: body.amount - fee },
    };
  };

  const routes: Route[] = [
    {
      method: 'POST',
      path: `${prefix}/transactions`,
      handle: (request) => {
        const problem = chargeProblem(request.body);
        if (problem) return badRequest(problem);
        const transaction = createTransaction(request.body as Record<string, any>);
        transactions.set(String(transaction.id), transaction);
        return { status: 200, body: transaction };
      },
    },
    {
      method: 'GET',
      path: `${prefix}/transactions/{id}`,
      handle: ({ params }) => {
        const transaction = transactions.get(params.id!);
        return transaction ? { body: transaction } : notFound('Transaction');
      },
    },
    {
      method: 'POST',
      path: `${prefix}/transactions/{id}/refund`,
      handle: ({ params, body }) => {
        const transaction = transactions.get(params.id!);
        if (!transaction) return notFound('Transaction');
        if (transaction.status !== statuses.paid) return badRequest('Only paid transactions can be refunded');
        const left = (transaction.amount as number) - (transaction.refundedAmount as number);
        const asked = isRecord(body) && body.amount !== undefined ? body.amount : left;
        if (!isCents(asked)) return badRequest('amount must be a positive integer (cents)');
        if (asked > left) return badRequest(`amount exceeds the refundable ${left}`);
        transaction.refundedAmount = (transaction.refundedAmount as number) + asked;
        (transaction.refunds as unknown[]).push({ id: ++nextRefund, amount: asked, createdAt: new Date().toISOString() });
        if (transaction.refundedAmount === transaction.amount) transaction.status = statuses.refunded;
        return { body: touch(transaction) };
      },
    },
  ];
  if (options.withdrawKey !== undefined)
    routes.push(
      {
        method: 'POST',
        path: `${prefix}/transfers`,
        handle: (request) => {
          const refused = withdrawKeyRefusal(request, true);
          if (refused) return refused;
          const problem = transferProblem(request.body);
          if (problem) return badRequest(problem);
          const body = request.body as Record<string, any>;
          const id = ++nextTransfer;
          const now = new Date().toISOString();
          const transfer: Record<string, unknown> = {
            id,
            amount: body.amount,
            netAmount: body.amount,
            fee: 0,
            currency: 'BRL',
            status: statuses.transferCreated,
            pixKey: body.pixKey,
            pixKeyType: body.pixKeyType,
            description: body.description ?? null,
            externalRef: body.externalRef ?? null,
            postbackUrl: body.postbackUrl ?? null,
            createdAt: now,
            updatedAt: now,
          };
          transfers.set(String(id), transfer);
          return { body: transfer };
        },
      },
      {
        method: 'GET',
        path: `${prefix}/transfers/{id}`,
        handle: (request) => {
          const refused = withdrawKeyRefusal(request, false);
          if (refused) return refused;
          const transfer = transfers.get(request.params.id!);
          return transfer ? { body: transfer } : notFound('Transfer');
        },
      },
    );

  const standIn = await startStandIn({ name: options.name, sources: options.sources, authenticate, routes });

  const post = (type: F1PostbackType, object: Record<string, unknown>) => {
    const url = object.postbackUrl;
    if (typeof url !== 'string') throw new Error(`${options.name} stand-in: the object named no postbackUrl`);
    const body = postback(type, object, ++nextPostback, url);
    return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  };

  return Object.assign(standIn, {
    transaction: (id: string | number) => transactions.get(String(id)),
    transfer: (id: string | number) => transfers.get(String(id)),
    async pay(id: string | number) {
      const transaction = transactions.get(String(id));
      if (!transaction) throw new Error(`${options.name} stand-in: no transaction ${id}`);
      Object.assign(transaction, { status: statuses.paid, paidAt: new Date().toISOString(), paidAmount: transaction.amount });
      if (isRecord(transaction.pix)) transaction.pix.end2EndId = `E00000000${String(id).padStart(12, '0')}`;
      return post('transaction', touch(transaction));
    },
    async settleTransfer(id: string | number) {
      const transfer = transfers.get(String(id));
      if (!transfer) throw new Error(`${options.name} stand-in: no transfer ${id}`);
      Object.assign(transfer, { status: statuses.transferDone, transferredAt: new Date().toISOString() });
      return post('withdraw', touch(transfer));
    },
  });
}
