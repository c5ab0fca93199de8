import { createStaticPix, hasError } from 'pix-utils';
import { idSequence, startStandIn, type Route, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * The "Pagar.me-v4 clone" platform (provider research F1) as its public
 * clients and the postback pages of its instances show it, for the stand-ins
 * of its members (PODPAY2, PAYSHARKGATEWAY). What a member differs in (auth,
 * the path prefix, its statuses, its postback envelope) is its options.
 *
 * What the sources show, and this stand-in enforces:
 * - Basic auth on every call; payouts (POST /transfers) also carry the
 *   account's `x-withdraw-key`; a transfer read may carry it (one client sends
 *   it there, another not).
 * - POST /transactions `{amount (integer cents), paymentMethod pix|boleto|credit_card,
 *   items[{title, unitPrice, quantity, tangible}], customer{name, email,
 *   document{number, type cpf|cnpj}}, postbackUrl, installments, card{hash},
 *   pix{expiresInDays | expirationDate}, boleto{expirationDate}}`, answered
 *   flat: `{id (number), status, amount, paymentMethod, refundedAmount,
 *   pix{qrcode, end2EndId, expirationDate}, boleto{url, barcode,
 *   digitableLine, expirationDate}, card{…}, …}`. A card charge is decided at
 *   once (paid); PIX and boleto wait for payment.
 * - GET /transactions/{id}: the same object. POST /transactions/{id}/refund
 *   `{amount?}` (cents; none is what is left): the transaction, its
 *   `refundedAmount` grown, `refunded` once nothing is left.
 * - POST /transfers `{method 'fiat', amount (cents), pixKey, pixKeyType
 *   cpf|cnpj|email|phone|evp|copypaste, netPayout?, postbackUrl?}` → the
 *   transfer `{id, amount, netAmount, fee, status, pixKey, pixKeyType, …}`;
 *   GET /transfers/{id}.
 * - Postbacks are the object under `data` with its `type` (transaction |
 *   withdraw), unsigned (the platform allow-lists source addresses).
 * - Errors `{statusCode, error, message}` (one client's declared error shape);
 *   the texts are the stand-in's own (no source shows them).
 */

export interface F1Options {
  /** The provider, for messages. */
  name: string;
  sources: readonly string[];
  /** What the API's paths start with ('/v1'). */
  prefix: string;
  /** The Basic credentials the account's keys must produce (user, password). */
  basic: { user: string; password: string };
  withdrawKey: string;
  /** Statuses: a new PIX or boleto charge, a paid one, a fully refunded one; a new transfer, a settled one. */
  statuses: { waiting: string; paid: string; refunded: string; transferCreated: string; transferDone: string };
  /** The postback body for an object of `type` ('transaction' | 'withdraw'). */
  postback: (type: 'transaction' | 'withdraw', data: Record<string, unknown>, postbackId: string) => unknown;
}

export interface F1StandIn extends StandIn {
  /** The buyer pays a PIX or boleto charge: it becomes paid and its postback goes to the URL the charge named. */
  pay(id: string | number): Promise<Response>;
  /** The platform settles a transfer: its postback goes to the URL the transfer named. */
  settleTransfer(id: string | number): Promise<Response>;
  transaction(id: string | number): Record<string, unknown> | undefined;
  transfer(id: string | number): Record<string, unknown> | undefined;
}

const failure = (statusCode: number, error: string, message: string): StandInReply => ({ status: statusCode, body: { statusCode, error, message } });
const badRequest = (message: string) => failure(400, 'Bad Request', message);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCents = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;

/** What a charge body lacks, in the order the platform would name it; undefined when it is complete. */
function chargeProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'body must be a JSON object';
  if (!isCents(body.amount)) return 'amount must be a positive integer (cents)';
  if (!['pix', 'boleto', 'credit_card'].includes(body.paymentMethod as string)) return 'paymentMethod must be one of pix, boleto, credit_card';
  const items = body.items;
  if (!Array.isArray(items) || items.length === 0) return 'items must contain at least one item';
  for (const item of items) {
    if (!isRecord(item) || !isText(item.title)) return 'items.title is required';
    if (!Number.isSafeInteger(item.unitPrice) || (item.unitPrice as number) < 0) return 'items.unitPrice must be an integer (cents)';
    if (!Number.isSafeInteger(item.quantity) || (item.quantity as number) < 1) return 'items.quantity must be a positive integer';
    if (typeof item.tangible !== 'boolean') return 'items.tangible must be a boolean';
  }
  const customer = body.customer;
  if (!isRecord(customer) || !isText(customer.name) || !isText(customer.email)) return 'customer.name and customer.email are required';
  const document = customer.document;
  if (!isRecord(document) || !/^\d{11}$|^\d{14}$/.test(String(document.number ?? '')) || !['cpf', 'cnpj'].includes(document.type as string))
    return 'customer.document must be {number, type: cpf|cnpj}';
  if (body.paymentMethod === 'credit_card') {
    const card = body.card;
    if (!isRecord(card) || !(isText(card.hash) || isText(card.token))) return 'card.hash is required for credit_card';
  }
  if (body.paymentMethod === 'boleto' && isRecord(body.boleto) && body.boleto.expirationDate !== undefined) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(String(body.boleto.expirationDate))) return 'boleto.expirationDate must be a date (YYYY-MM-DD)';
  }
  if (body.postbackUrl !== undefined && !isText(body.postbackUrl)) return 'postbackUrl must be a URL';
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

export async function startF1StandIn(options: F1Options): Promise<F1StandIn> {
  const { prefix, statuses } = options;
  const transactions = new Map<string, Record<string, unknown>>();
  const transfers = new Map<string, Record<string, unknown>>();
  let nextTransaction = 4200;
  let nextTransfer = 900;
  const postbackIds = idSequence('pb_');
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

  const routes: Route[] = [
    {
      method: 'POST',
      path: `${prefix}/transactions`,
      handle: (request) => {
        const problem = chargeProblem(request.body);
        if (problem) return badRequest(problem);
        const body = request.body as Record<string, any>;
        const id = ++nextTransaction;
        const method = body.paymentMethod as string;
        const now = new Date().toISOString();
        const transaction: Record<string, unknown> = {
          id,
          amount: body.amount,
          currency: body.currency ?? 'BRL',
          paymentMethod: method,
          status: method === 'credit_card' ? statuses.paid : statuses.waiting,
          installments: body.installments ?? 1,
          paidAt: method === 'credit_card' ? now : null,
          paidAmount: method === 'credit_card' ? body.amount : 0,
          refundedAmount: 0,
          secureId: `sec-${id}`,
          secureUrl: `https://checkout.example/pay/sec-${id}`,
          externalRef: body.externalRef ?? null,
          postbackUrl: body.postbackUrl ?? null,
          customer: { id: id * 10, name: body.customer.name, email: body.customer.email, document: body.customer.document },
          items: body.items,
          pix:
            method === 'pix'
              ? {
                  qrcode: brCode(body.amount, String(id)),
                  end2EndId: null,
                  receiptUrl: null,
                  expirationDate: body.pix?.expirationDate ?? addDays(body.pix?.expiresInDays ?? 1),
                }
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
          card: method === 'credit_card' ? { id: id * 3, brand: 'visa', holderName: 'ANA SOUZA', lastDigits: '1111' } : null,
          refusedReason: null,
          createdAt: now,
          updatedAt: now,
        };
        transactions.set(String(id), transaction);
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
        if (transaction.refundedAmount === transaction.amount) transaction.status = statuses.refunded;
        return { body: touch(transaction) };
      },
    },
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
  ];

  const standIn = await startStandIn({ name: options.name, sources: options.sources, authenticate, routes });

  const post = (url: unknown, body: unknown) => {
    if (typeof url !== 'string') throw new Error(`${options.name} stand-in: the object named no postbackUrl`);
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
      return post(transaction.postbackUrl, options.postback('transaction', touch(transaction), postbackIds()));
    },
    async settleTransfer(id: string | number) {
      const transfer = transfers.get(String(id));
      if (!transfer) throw new Error(`${options.name} stand-in: no transfer ${id}`);
      Object.assign(transfer, { status: statuses.transferDone, transferredAt: new Date().toISOString() });
      return post(transfer.postbackUrl, options.postback('withdraw', touch(transfer), postbackIds()));
    },
  });
}
