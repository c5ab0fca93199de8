import { randomUUID } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * ByNet (the "AtivoB2B" /api/user/* platform, research F7) as its
 * documentation at docs.techbynet.com shows it, for the gateway's acceptance
 * test (tests/standins/bynet.test.ts). The documentation gives relative paths
 * (`/api/user/...`); an account points its base URL at `<host>/api`.
 *
 * What the pages show, and this stand-in enforces:
 * - every page's header table: `x-api-key` (the account's API key) and
 *   `User-Agent: AtivoB2B/1.0`, both required; requests without them are
 *   refused with 401 (the status the pages list for an unauthorised call);
 * - the cash-out page (create-19470515e0): `POST /api/user/cashout` with seven
 *   required fields, `amount` (a number in cents: 500 is R$ 5,00), `pixKey`,
 *   `pixType` (CPF, CNPJ, EMAIL, PHONE or RANDOM), `beneficiaryName`,
 *   `beneficiaryDocument` (a CPF or CNPJ), `description` and `postbackUrl`
 *   (where the status notifications go); its answer
 *   `{data: {id, amount, fee, pixKey, pixType, beneficiaryName,
 *   beneficiaryDocument, creditorName, creditorDocument, endToEndId,
 *   receiptUrl, description, postbackUrl, externalRef, error, status:
 *   'PENDING', sellerId, gatewayProviderId, gatewayId, createdAt, updatedAt},
 *   status: 200, message: 'Cashout criado com sucesso.', error: null}`;
 * - the transactions pages (create-19470492e0 and its schema page
 *   post-apiusertransactions-8246362d0, find-by-id-19470493e0):
 *   `POST /api/user/transactions` with `amount`, `paymentMethod`, and a
 *   `customer {name, email, document {number, type}, phone, externalRef,
 *   address {...}}`; `GET /api/user/transactions/{id}`; the answers 200, 400,
 *   401, 403, 404;
 * - the postback page (webhook-formato-de-postback-1291689m0): a POST with a
 *   JSON body to the configured URL whenever a transaction's or a refund's
 *   status changes, its payload carrying the object's id as `objectId`;
 *   nothing on the readable part of the page signs it.
 *
 * What the pages could not be read for, and is the specification's reading
 * (doc 3 §4, §7) or the stand-in's own, said as such:
 * - the refund, `POST /api/user/transactions/{id}/refund {amount}`: doc 3 §7
 *   (the documentation's menu lists no refund);
 * - the payout read, `GET /api/user/cashout/{id}`: the menu lists "Cashout →
 *   Find by ID (GET)"; its page was not readable, the path is its siblings'
 *   pattern (`/api/user/transactions/{id}`, `/api/user/transfers/{id}`);
 * - the transaction's fields beyond those above (the example is cut after the
 *   address): `pix {qrcode, expirationDate}` and `boleto {url, digitableLine,
 *   barcode, expirationDate}` with `expiresInDays`, the method names `pix` and
 *   `boleto`, the status words `pending`, `paid`, `refunded` (doc 3 §4 names
 *   paid and refunded for ByNet), the transaction answered inside the same
 *   `{data, status, message, error}` envelope the cash-out page shows;
 * - the postback beyond `objectId` (the page's example is cut there): `type`
 *   ('transaction' or 'cashout') and `data` (the object as its read answers
 *   it); a payout's words after PENDING: `APPROVED` and `CANCELLED` (doc 3 §4:
 *   "ByNet withdraw cancelled is CANCELED");
 * - the error answers' texts (the envelope with `status`, `message` and
 *   `error`); the fee (R$ 0,50 a cash-out, the page's example).
 */
export const BYNET_SOURCES = [
  'https://docs.techbynet.com/create-19470515e0',
  'https://docs.techbynet.com/create-19470492e0',
  'https://docs.techbynet.com/post-apiusertransactions-8246362d0',
  'https://docs.techbynet.com/find-by-id-19470493e0',
  'https://docs.techbynet.com/%EF%B8%8F-webhook-formato-de-postback-1291689m0',
] as const;

export const BYNET_USER_AGENT = 'AtivoB2B/1.0';

/** The cash-out page's key types. */
export const BYNET_PIX_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const;

export interface ByNetTransaction {
  id: string;
  /** Cents. */
  amount: number;
  refundedAmount: number;
  paymentMethod: 'pix' | 'boleto';
  status: 'pending' | 'paid' | 'refunded';
  customer: Record<string, unknown> | null;
  items: unknown[];
  externalRef: string | null;
  description: string | null;
  postbackUrl: string | null;
  pix: { qrcode: string; expirationDate: string } | null;
  boleto: { url: string; digitableLine: string; barcode: string; expirationDate: string } | null;
  paidAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ByNetCashout {
  id: string;
  amount: number;
  fee: number;
  pixKey: string;
  pixType: (typeof BYNET_PIX_TYPES)[number];
  beneficiaryName: string;
  beneficiaryDocument: string;
  creditorName: string | null;
  creditorDocument: string | null;
  endToEndId: string | null;
  receiptUrl: string | null;
  description: string;
  postbackUrl: string;
  externalRef: string | null;
  error: string | null;
  status: 'PENDING' | 'APPROVED' | 'CANCELLED';
  sellerId: string;
  gatewayProviderId: string;
  gatewayId: string;
  createdAt: string;
  updatedAt: string;
}

export interface ByNetStandIn extends StandIn {
  /** The base URL an account points at (…/api). */
  readonly baseUrl: string;
  readonly transactions: ReadonlyMap<string, ByNetTransaction>;
  readonly cashouts: ReadonlyMap<string, ByNetCashout>;
  /** The HTTP statuses the receivers answered to the postbacks of full refunds (sent after the refund's answer). */
  readonly refundPostbacks: readonly number[];
  /** The payer pays: `paid`, and the postback sent; the HTTP statuses the receivers answered. */
  pay(id: string): Promise<number[]>;
  /** The payout settles at ByNet (APPROVED with its end-to-end id, or CANCELLED), and its postback is sent. */
  settleCashout(id: string, status: 'APPROVED' | 'CANCELLED'): Promise<number[]>;
  /** A postback in ByNet's format claiming `status`, while ByNet's own record says otherwise (a forgery). */
  forge(id: string, status: ByNetTransaction['status']): Promise<number[]>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const digits = (value: unknown): string => (typeof value === 'string' ? value.replace(/\D/g, '') : '');
const isCents = (value: unknown): value is number => Number.isInteger(value) && (value as number) > 0;
const DAY_MS = 86_400_000;

/** The envelope the cash-out page answers in, for every answer. */
const answer = (status: number, data: unknown, message: string, error: string | null = null): StandInReply => ({
  status,
  body: { data, status, message, error },
});
const refused = (status: number, message: string, error: string): StandInReply => answer(status, null, message, error);

/** A BR Code for the amount, its CRC valid, as the payer's bank reads it. */
function brCode(cents: number, txid: string): string {
  const pix = createStaticPix({
    merchantName: 'BYNET PAGAMENTOS',
    merchantCity: 'SAO PAULO',
    pixKey: '5d2f3a64-1c7e-4b8a-9f10-6e2d4c3b1a07',
    infoAdicional: txid.slice(0, 25),
    transactionAmount: cents / 100,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

/** The transaction body's fields the pages show, checked; the first fault's text (the stand-in's words), or undefined. */
function transactionFault(body: Record<string, unknown>): string | undefined {
  if (!isCents(body.amount)) return 'amount deve ser um inteiro positivo em centavos.';
  const method = text(body.paymentMethod)?.toLowerCase();
  if (!method) return 'paymentMethod é obrigatório.';
  if (method !== 'pix' && method !== 'boleto') return `paymentMethod ${String(body.paymentMethod)} não é aceito.`;
  if (body.customer !== undefined) {
    if (!isRecord(body.customer)) return 'customer deve ser um objeto.';
    const customer = body.customer;
    if (!text(customer.name)) return 'customer.name é obrigatório.';
    if (!text(customer.email)) return 'customer.email é obrigatório.';
    const document = isRecord(customer.document) ? customer.document : {};
    if (!text(document.number) || !text(document.type)) return 'customer.document deve ter number e type.';
  }
  return undefined;
}

/** The cash-out page's seven required fields; the first fault's text (the stand-in's words), or undefined. */
function cashoutFault(body: Record<string, unknown>): string | undefined {
  if (!isCents(body.amount)) return 'amount deve ser um inteiro positivo em centavos.';
  if (!text(body.pixKey)) return 'pixKey é obrigatório.';
  if (!BYNET_PIX_TYPES.includes(body.pixType as (typeof BYNET_PIX_TYPES)[number])) return 'pixType deve ser CPF, CNPJ, EMAIL, PHONE ou RANDOM.';
  if (!text(body.beneficiaryName)) return 'beneficiaryName é obrigatório.';
  const document = digits(body.beneficiaryDocument);
  if (document.length !== 11 && document.length !== 14) return 'beneficiaryDocument deve ser um CPF ou CNPJ.';
  if (!text(body.description)) return 'description é obrigatório.';
  if (!text(body.postbackUrl)) return 'postbackUrl é obrigatório.';
  return undefined;
}

export async function startByNetStandIn(options: { apiKey: string; fee?: number }): Promise<ByNetStandIn> {
  const transactions = new Map<string, ByNetTransaction>();
  const cashouts = new Map<string, ByNetCashout>();
  const fee = options.fee ?? 50;
  /** The HTTP statuses the receivers answered to the postbacks of full refunds (sent after the refund's answer). */
  const refundPostbacks: number[] = [];
  const now = () => new Date().toISOString();

  const authenticate = (request: StandInRequest): StandInReply | undefined => {
    if (request.headers['x-api-key'] !== options.apiKey) return refused(401, 'API Key inválida ou ausente.', 'Unauthorized');
    if (request.headers['user-agent'] !== BYNET_USER_AGENT) return refused(401, 'User-Agent inválido.', 'Unauthorized');
    return undefined;
  };

  const bodyOf = (request: StandInRequest): Record<string, unknown> => (isRecord(request.body) ? request.body : {});

  async function deliver(url: string | null, payload: object): Promise<number[]> {
    if (!url) return [];
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(5_000),
    });
    await response.arrayBuffer();
    return [response.status];
  }
  const postback = (transaction: ByNetTransaction, status = transaction.status) =>
    deliver(transaction.postbackUrl, { objectId: transaction.id, type: 'transaction', data: { ...transaction, status } });

  const known = <T>(map: ReadonlyMap<string, T>, id: string, what: string): T => {
    const found = map.get(id);
    if (!found) throw new Error(`no ByNet ${what} ${id}`);
    return found;
  };

  const standIn = await startStandIn({
    name: 'ByNet',
    sources: BYNET_SOURCES,
    authenticate,
    routes: [
      {
        method: 'POST',
        path: '/api/user/transactions',
        handle: (request) => {
          const body = bodyOf(request);
          const fault = transactionFault(body);
          if (fault) return refused(400, fault, 'Bad Request');
          const amount = body.amount as number;
          const method = (body.paymentMethod as string).toLowerCase() as ByNetTransaction['paymentMethod'];
          const id = randomUUID();
          const created = now();
          const days = (key: 'pix' | 'boleto', fallback: number) => {
            const section = isRecord(body[key]) ? (body[key] as Record<string, unknown>) : {};
            return Number.isInteger(section.expiresInDays) ? (section.expiresInDays as number) : fallback;
          };
          const expires = (count: number) => new Date(Date.now() + count * DAY_MS).toISOString();
          const transaction: ByNetTransaction = {
            id,
            amount,
            refundedAmount: 0,
            paymentMethod: method,
            status: 'pending',
            customer: isRecord(body.customer) ? body.customer : null,
            items: Array.isArray(body.items) ? body.items : [],
            externalRef: text(body.externalRef) ?? null,
            description: text(body.description) ?? null,
            postbackUrl: text(body.postbackUrl) ?? null,
            pix: method === 'pix' ? { qrcode: brCode(amount, id.replace(/-/g, '')), expirationDate: expires(days('pix', 1)) } : null,
            boleto:
              method === 'boleto'
                ? {
                    url: `https://boleto.techbynet.example/${id}.pdf`,
                    digitableLine: `23790${String(amount).padStart(42, '0')}`,
                    barcode: `2379${String(amount).padStart(40, '0')}`,
                    expirationDate: expires(days('boleto', 3)),
                  }
                : null,
            paidAt: null,
            createdAt: created,
            updatedAt: created,
          };
          transactions.set(id, transaction);
          return answer(200, transaction, 'Transação criada com sucesso.');
        },
      },
      {
        method: 'GET',
        path: '/api/user/transactions/{id}',
        handle: (request) => {
          const transaction = transactions.get(request.params.id!);
          if (!transaction) return refused(404, 'Transação não encontrada.', 'Not Found');
          return answer(200, transaction, 'Transação encontrada.');
        },
      },
      {
        // Doc 3 §7's refund (the documentation's menu lists none): an amount in cents, up to what is left of a paid charge.
        method: 'POST',
        path: '/api/user/transactions/{id}/refund',
        handle: (request) => {
          const transaction = transactions.get(request.params.id!);
          if (!transaction) return refused(404, 'Transação não encontrada.', 'Not Found');
          if (transaction.status !== 'paid') return refused(400, 'Somente transações pagas podem ser estornadas.', 'Bad Request');
          const body = bodyOf(request);
          const left = transaction.amount - transaction.refundedAmount;
          const amount = body.amount === undefined ? left : body.amount;
          if (!isCents(amount) || amount > left) return refused(400, `amount deve ser um inteiro em centavos até ${left}.`, 'Bad Request');
          transaction.refundedAmount += amount;
          transaction.updatedAt = now();
          if (transaction.refundedAmount === transaction.amount) {
            transaction.status = 'refunded';
            // A refund's status change is notified (the postback page), after the answer.
            setTimeout(() => void postback(transaction).then((answered) => refundPostbacks.push(...answered)), 10);
          }
          return answer(200, transaction, 'Estorno realizado com sucesso.');
        },
      },
      {
        method: 'POST',
        path: '/api/user/cashout',
        handle: (request) => {
          const body = bodyOf(request);
          const fault = cashoutFault(body);
          if (fault) return refused(400, fault, 'Bad Request');
          const id = randomUUID();
          const created = now();
          const cashout: ByNetCashout = {
            id,
            amount: body.amount as number,
            fee,
            pixKey: text(body.pixKey)!,
            pixType: body.pixType as ByNetCashout['pixType'],
            beneficiaryName: text(body.beneficiaryName)!,
            beneficiaryDocument: text(body.beneficiaryDocument)!,
            creditorName: null,
            creditorDocument: null,
            endToEndId: null,
            receiptUrl: null,
            description: text(body.description)!,
            postbackUrl: text(body.postbackUrl)!,
            externalRef: text(body.externalRef) ?? null,
            error: null,
            status: 'PENDING',
            sellerId: 'b1e7d2c4-5b19-11ee-be56-0242ac120002',
            gatewayProviderId: '3c9a9ad1-5b19-11ee-be56-0242ac120002',
            gatewayId: '7f3e2a10-5b19-11ee-be56-0242ac120002',
            createdAt: created,
            updatedAt: created,
          };
          cashouts.set(id, cashout);
          return answer(200, cashout, 'Cashout criado com sucesso.');
        },
      },
      {
        // The menu's "Cashout → Find by ID (GET)"; its page was not readable: the path is its siblings' pattern.
        method: 'GET',
        path: '/api/user/cashout/{id}',
        handle: (request) => {
          const cashout = cashouts.get(request.params.id!);
          if (!cashout) return refused(404, 'Cashout não encontrado.', 'Not Found');
          return answer(200, cashout, 'Cashout encontrado.');
        },
      },
    ],
  });

  return Object.assign(standIn, {
    baseUrl: `${standIn.url}/api`,
    transactions,
    cashouts,
    refundPostbacks,
    async pay(id: string) {
      const transaction = known(transactions, id, 'transaction');
      if (transaction.status !== 'pending') throw new Error(`ByNet transaction ${id} is ${transaction.status}`);
      transaction.status = 'paid';
      transaction.paidAt = now();
      transaction.updatedAt = transaction.paidAt;
      return postback(transaction);
    },
    async settleCashout(id: string, status: 'APPROVED' | 'CANCELLED') {
      const cashout = known(cashouts, id, 'cashout');
      if (cashout.status !== 'PENDING') throw new Error(`ByNet cashout ${id} is ${cashout.status}`);
      cashout.status = status;
      cashout.updatedAt = now();
      if (status === 'APPROVED') {
        cashout.endToEndId = `E${Date.now()}${Math.floor(Math.random() * 1e9)}`.padEnd(32, '0').slice(0, 32);
        cashout.creditorName = cashout.beneficiaryName;
        cashout.creditorDocument = cashout.beneficiaryDocument;
      } else cashout.error = 'Saque cancelado.';
      return deliver(cashout.postbackUrl, { objectId: cashout.id, type: 'cashout', data: cashout });
    },
    async forge(id: string, status: ByNetTransaction['status']) {
      return postback(known(transactions, id, 'transaction'), status);
    },
  });
}
