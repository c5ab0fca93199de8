import { createHmac, randomUUID } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import { startStandIn, type Route, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * The "functions/v1" platform (provider research F2: a Supabase-edge variant
 * of the Pagar.me-v4 clone) as the documentation of two of its instances
 * shows it, for the stand-ins of its members (BRPIXDIGITAL, FAIRPAY, MEDIUS).
 * What a member differs in (its Basic credentials, a header beside them, the
 * path prefix) is its options; its own statuses and texts are the
 * specification's and live in the adapter, not here.
 *
 * What the pages read show, and this stand-in enforces (F2_PLATFORM_SOURCES):
 * - HTTP Basic (`username:password` in base64) on every call.
 * - POST {prefix}/transactions (HunterSub "Criar Transação"): `amount` integer
 *   cents, `paymentMethod` "PIX" (upper case, as documented), `customer{name,
 *   email, phone, document{number, type "CPF"}}`, `items[{title, unitPrice
 *   (cents), quantity, externalRef}]`, `pix{expiresInDays}`, `postbackUrl`,
 *   `metadata`, `ip`, `description`; FullPix adds `webhookSecret`. The answer
 *   is flat (FullPix "Criar nova transação"): `{id, amount, paidAmount,
 *   refundedAmount, companyId, installments, paymentMethod "PIX", status
 *   "waiting_payment", postbackUrl, secureId, customer, pix{qrcode,
 *   expirationDate, end2EndId, receiptUrl}, refunds[], fee, …}`. Card and
 *   boleto charges exist on the platform, but the request fields for them
 *   were not in the pages read: this stand-in knows PIX only.
 * - GET {prefix}/transactions/{id} (HunterSub "Buscar Transação"; FullPix
 *   "Obter detalhes de uma transação"): the same object.
 * - DELETE {prefix}/transactions/{id} (HunterSub "Estornar Transação", FullPix
 *   "Estornar transação"): the body's fields were not readable; the
 *   specification's (doc 3 §7: "DELETE /transactions/{id} refund with amount
 *   and reason in the body") are taken: `amount` (cents, optional: what is
 *   left) and `reason`. Only a paid charge is refunded; the answer is the
 *   transaction, `refundedAmount` grown and the refund listed in `refunds`,
 *   `refunded` once nothing is left.
 * - Postbacks of a charge (FullPix "Validação de Webhooks"): POST to the
 *   charge's `postbackUrl`, the body the transaction itself; when the charge
 *   was created with a `webhookSecret`, `X-Webhook-Signature: sha256=<hex>`,
 *   HMAC-SHA256 of the raw body with that secret.
 * - POST {prefix}/withdrawals/cashout (FullPix "Criar Saque") with an
 *   `Idempotency-Key` header (the same key answers the same payout):
 *   `{pixkeytype ("CPF" as documented; the other key types by the same
 *   upper-case names), pixkey, requestedamount (integer cents), description,
 *   isPix: true, postbackUrl}`, answered `{event: "withdrawal.created",
 *   timestamp, withdrawal{id, company_id, requested_amount (reais), currency,
 *   status, created_at, updated_at, pix{key_type, key_value}, fee,
 *   net_amount}, metadata}`. A payout the account cannot cover is created
 *   `failed` ("Falha na criação do saque").
 * - Payout postbacks (FullPix "Webhooks" of Pix Out): the same envelope, events
 *   withdrawal.created (at once), withdrawal.status_changed, withdrawal.completed
 *   (status done), withdrawal.failed; no signature is documented for them, and
 *   no payout read exists.
 * - Error bodies are not shown by the pages read: `{error, message}` with the
 *   stand-in's own texts.
 */
export const F2_PLATFORM_SOURCES = [
  'https://doc.huntersub.com.br/criar-transa%C3%A7%C3%A3o-14705465e0',
  'https://docs.fullpix.com.br/criar-nova-transa%C3%A7%C3%A3o-23912754e0',
  'https://docs.fullpix.com.br/criar-saque-23914658e0',
  'https://docs.fullpix.com.br/webhooks-1735917m0',
  'https://docs.fullpix.com.br/valida%C3%A7%C3%A3o-de-webhooks-1735899m0',
] as const;

export interface F2Options {
  /** The provider, for messages. */
  name: string;
  sources: readonly string[];
  /** What the API's paths start with ('/functions/v1'). */
  prefix: string;
  /** The Basic credentials the account's keys must produce (username, password). */
  basic: { user: string; password: string };
  /** Headers every call must carry beside the Basic credentials (FAIRPAY's `x-company-id`). */
  headers?: Readonly<Record<string, string>>;
  /** The company the charges and payouts belong to (`companyId`, `company_id`). */
  companyId: string;
  /** What the account can pay out, in cents; a payout beyond it is created `failed`. */
  balance?: number;
}

export interface F2StandIn extends StandIn {
  /** The buyer pays a PIX charge: it becomes paid and its postback goes to the URL the charge named (signed when it gave a secret). */
  pay(id: string): Promise<Response>;
  /** The platform moves a payout (approved, processing, done, failed…): its event goes to the URL the payout named. */
  movePayout(id: string, status: string, event: string): Promise<Response>;
  /** Sends a body as a postback of the charge's to its URL, with these headers (a forged notification). */
  postAs(id: string, body: unknown, headers?: Record<string, string>): Promise<Response>;
  transaction(id: string): Record<string, unknown> | undefined;
  payout(id: string): Record<string, unknown> | undefined;
  /** Payout events sent so far, in order, and the answers they got. */
  readonly payoutEvents: Array<{ event: string; status: string; id: string; answer: number }>;
}

const failure = (status: number, error: string, message: string): StandInReply => ({ status, body: { error, message } });
const badRequest = (message: string) => failure(400, 'Bad Request', message);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCents = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) > 0;
const isText = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;

/** What a charge body lacks, first fault first; undefined when it is complete. */
function chargeProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'body must be a JSON object';
  if (!isCents(body.amount)) return 'amount must be a positive integer (cents)';
  if (typeof body.paymentMethod !== 'string') return 'paymentMethod is required';
  if (body.paymentMethod !== 'PIX')
    return `paymentMethod ${body.paymentMethod}: this stand-in knows "PIX" only (the documented value; card and boleto fields were not read)`;
  const customer = body.customer;
  if (!isRecord(customer) || !isText(customer.name) || !isText(customer.email)) return 'customer.name and customer.email are required';
  if (customer.phone !== undefined && !/^\d{10,13}$/.test(String(customer.phone))) return 'customer.phone must be digits';
  const document = customer.document;
  if (!isRecord(document) || !['CPF', 'CNPJ'].includes(document.type as string)) return 'customer.document.type must be CPF or CNPJ';
  const digits = document.type === 'CPF' ? 11 : 14;
  if (!new RegExp(`^\\d{${digits}}$`).test(String(document.number ?? ''))) return `customer.document.number must be ${digits} digits`;
  const items = body.items;
  if (!Array.isArray(items) || items.length === 0) return 'items must contain at least one item';
  for (const item of items) {
    if (!isRecord(item) || !isText(item.title)) return 'items.title is required';
    if (!Number.isSafeInteger(item.unitPrice) || (item.unitPrice as number) < 0) return 'items.unitPrice must be an integer (cents)';
    if (!Number.isSafeInteger(item.quantity) || (item.quantity as number) < 1) return 'items.quantity must be a positive integer';
  }
  if (body.pix !== undefined && (!isRecord(body.pix) || !Number.isSafeInteger(body.pix.expiresInDays) || (body.pix.expiresInDays as number) < 1))
    return 'pix.expiresInDays must be a positive integer';
  if (body.postbackUrl !== undefined && !isText(body.postbackUrl)) return 'postbackUrl must be a URL';
  if (body.webhookSecret !== undefined && !isText(body.webhookSecret)) return 'webhookSecret must be a string';
  return undefined;
}

const KEY_TYPES: Record<string, RegExp> = {
  CPF: /^\d{11}$/,
  CNPJ: /^\d{14}$/,
  EMAIL: /^[^@\s]+@[^@\s]+$/,
  PHONE: /^\+?\d{10,13}$/,
  EVP: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
};

function cashoutProblem(body: unknown): string | undefined {
  if (!isRecord(body)) return 'body must be a JSON object';
  const type = body.pixkeytype;
  if (typeof type !== 'string' || !KEY_TYPES[type]) return `pixkeytype must be one of ${Object.keys(KEY_TYPES).join(', ')}`;
  if (!isText(body.pixkey) || !KEY_TYPES[type]!.test(body.pixkey)) return `pixkey is not a ${type} key`;
  if (!isCents(body.requestedamount)) return 'requestedamount must be a positive integer (cents)';
  if (body.isPix !== true) return 'isPix must be true';
  if (body.description !== undefined && typeof body.description !== 'string') return 'description must be a string';
  if (body.postbackUrl !== undefined && !isText(body.postbackUrl)) return 'postbackUrl must be a URL';
  return undefined;
}

/** A BR Code for the amount, as `pix.qrcode` carries it. */
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

/** The platform's postback signature: `sha256=` and the hex HMAC-SHA256 of the raw body. */
export const f2Signature = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const reais = (cents: number) => cents / 100;

export async function startF2StandIn(options: F2Options): Promise<F2StandIn> {
  const { prefix } = options;
  const transactions = new Map<string, Record<string, unknown>>();
  /** The secret each charge was created with (never echoed in its answers). */
  const secrets = new Map<string, string>();
  const payouts = new Map<string, Record<string, unknown>>();
  const payoutAnswers = new Map<string, unknown>();
  const payoutEvents: F2StandIn['payoutEvents'] = [];
  let balance = options.balance ?? 1_000_000;
  const expectedAuth = `Basic ${Buffer.from(`${options.basic.user}:${options.basic.password}`).toString('base64')}`;

  const authenticate = (request: StandInRequest): StandInReply | undefined => {
    if (request.headers.authorization !== expectedAuth) return failure(401, 'Unauthorized', 'Invalid credentials');
    for (const [name, value] of Object.entries(options.headers ?? {}))
      if (request.headers[name.toLowerCase()] !== value) return failure(401, 'Unauthorized', `Missing or invalid ${name}`);
    return undefined;
  };
  const notFound = () => failure(404, 'Not Found', 'Transaction not found');
  const now = () => new Date().toISOString();

  const payoutEnvelope = (payout: Record<string, unknown>, event: string) => ({
    event,
    timestamp: now(),
    withdrawal: payout,
    metadata: { source: 'withdrawals_service', version: '1.0.0' },
  });

  const post = async (url: unknown, body: string, headers: Record<string, string> = {}) => {
    if (typeof url !== 'string') throw new Error(`${options.name} stand-in: the object named no postbackUrl`);
    return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
  };

  const sendPayoutEvent = async (payout: Record<string, unknown>, event: string) => {
    const response = await post(payout.postbackUrl, JSON.stringify(payoutEnvelope(publicPayout(payout), event)));
    payoutEvents.push({ event, status: String(payout.status), id: String(payout.id), answer: response.status });
    return response;
  };
  /** The payout as the platform shows it (its postback URL is ours to know, not part of the object). */
  const publicPayout = ({ postbackUrl: _url, ...payout }: Record<string, unknown>) => payout;

  const routes: Route[] = [
    {
      method: 'POST',
      path: `${prefix}/transactions`,
      handle: ({ body }) => {
        const problem = chargeProblem(body);
        if (problem) return badRequest(problem);
        const charge = body as Record<string, any>;
        const id = randomUUID();
        const created = now();
        const days = charge.pix?.expiresInDays ?? 1;
        const transaction: Record<string, unknown> = {
          id,
          amount: charge.amount,
          paidAmount: 0,
          refundedAmount: 0,
          companyId: options.companyId,
          installments: 1,
          paymentMethod: 'PIX',
          status: 'waiting_payment',
          postbackUrl: charge.postbackUrl ?? null,
          metadata: charge.metadata ?? null,
          secureId: `sec_${id.slice(0, 8)}`,
          createdAt: created,
          updatedAt: created,
          paidAt: null,
          ip: charge.ip ?? null,
          externalRef: charge.externalRef ?? null,
          customer: { id: `cus_${id.slice(0, 8)}`, ...charge.customer },
          card: null,
          boleto: null,
          pix: {
            qrcode: brCode(charge.amount, id.replace(/-/g, '').slice(0, 25)),
            expirationDate: new Date(Date.now() + days * 86_400_000).toISOString(),
            end2EndId: null,
            receiptUrl: null,
          },
          refusedReason: null,
          items: charge.items,
          splits: [],
          refunds: [],
          fee: { fixedAmount: 0, spreadPercentage: 0, estimatedFee: 0, netAmount: charge.amount },
        };
        transactions.set(id, transaction);
        if (charge.webhookSecret) secrets.set(id, charge.webhookSecret);
        return { body: transaction };
      },
    },
    {
      method: 'GET',
      path: `${prefix}/transactions/{id}`,
      handle: ({ params }) => {
        const transaction = transactions.get(params.id!);
        return transaction ? { body: transaction } : notFound();
      },
    },
    {
      method: 'DELETE',
      path: `${prefix}/transactions/{id}`,
      handle: ({ params, body }) => {
        const transaction = transactions.get(params.id!);
        if (!transaction) return notFound();
        if (transaction.status !== 'paid') return badRequest(`Transaction is ${String(transaction.status)}: only paid transactions can be refunded`);
        if (body !== undefined && !isRecord(body)) return badRequest('body must be a JSON object');
        const left = (transaction.amount as number) - (transaction.refundedAmount as number);
        const asked = body?.amount ?? left;
        if (!isCents(asked)) return badRequest('amount must be a positive integer (cents)');
        if (asked > left) return badRequest(`amount exceeds the refundable ${left}`);
        if (body?.reason !== undefined && !isText(body.reason)) return badRequest('reason must be a text');
        const refunds = transaction.refunds as Array<Record<string, unknown>>;
        refunds.push({ id: randomUUID(), amount: asked, reason: body?.reason ?? null, createdAt: now() });
        transaction.refundedAmount = (transaction.refundedAmount as number) + asked;
        if (transaction.refundedAmount === transaction.amount) transaction.status = 'refunded';
        transaction.updatedAt = now();
        return { body: transaction };
      },
    },
    {
      method: 'POST',
      path: `${prefix}/withdrawals/cashout`,
      handle: ({ headers, body }) => {
        const key = headers['idempotency-key'];
        if (!isText(key)) return badRequest('Idempotency-Key header is required');
        const replay = payoutAnswers.get(key);
        if (replay) return { body: replay };
        const problem = cashoutProblem(body);
        if (problem) return badRequest(problem);
        const asked = body as Record<string, any>;
        const covered = asked.requestedamount <= balance;
        if (covered) balance -= asked.requestedamount;
        const created = now();
        const payout: Record<string, unknown> = {
          id: randomUUID(),
          company_id: options.companyId,
          requested_amount: reais(asked.requestedamount),
          currency: 'BRL',
          status: covered ? 'pending' : 'failed',
          created_at: created,
          updated_at: created,
          pix: { key_type: asked.pixkeytype, key_value: asked.pixkey },
          fee: 0,
          net_amount: reais(asked.requestedamount),
          description: asked.description ?? null,
          postbackUrl: asked.postbackUrl,
        };
        payouts.set(String(payout.id), payout);
        const answer = payoutEnvelope(publicPayout(payout), 'withdrawal.created');
        payoutAnswers.set(key, answer);
        // "withdrawal.created: imediatamente após criação bem-sucedida".
        if (covered && asked.postbackUrl) setTimeout(() => void sendPayoutEvent(payout, 'withdrawal.created').catch(() => undefined), 20);
        return { body: answer };
      },
    },
  ];

  const standIn = await startStandIn({ name: options.name, sources: options.sources, authenticate, routes });

  return Object.assign(standIn, {
    payoutEvents,
    transaction: (id: string) => transactions.get(id),
    payout: (id: string) => payouts.get(id),
    async pay(id: string) {
      const transaction = transactions.get(id);
      if (!transaction) throw new Error(`${options.name} stand-in: no transaction ${id}`);
      const paidAt = now();
      Object.assign(transaction, { status: 'paid', paidAt, updatedAt: paidAt, paidAmount: transaction.amount });
      (transaction.pix as Record<string, unknown>).end2EndId = `E00000000${paidAt.replace(/\D/g, '').slice(0, 12)}${id.slice(0, 11)}`;
      const body = JSON.stringify(transaction);
      const secret = secrets.get(id);
      return post(transaction.postbackUrl, body, secret ? { 'x-webhook-signature': f2Signature(secret, body) } : {});
    },
    async postAs(id: string, body: unknown, headers: Record<string, string> = {}) {
      const transaction = transactions.get(id);
      if (!transaction) throw new Error(`${options.name} stand-in: no transaction ${id}`);
      return post(transaction.postbackUrl, JSON.stringify(body), headers);
    },
    async movePayout(id: string, status: string, event: string) {
      const payout = payouts.get(id);
      if (!payout) throw new Error(`${options.name} stand-in: no payout ${id}`);
      Object.assign(payout, { status, updated_at: now() });
      return sendPayoutEvent(payout, event);
    },
  });
}
