import { createHmac, randomBytes } from 'node:crypto';
import { createStaticPix, hasError } from 'pix-utils';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * VELTRAX (also VEXYPAYMENTS) as the documentation of the white-label PIX
 * platform it runs on describes it (research family F5: the same API is sold as
 * 7HUBPAG, VexusPay and PulsePag), for the gateway's acceptance test
 * (tests/standins/veltrax.test.ts). The specification (doc 3, Veltrax) names
 * the same paths; where it speaks it wins.
 *
 * What the platform's pages show, and the stand-in enforces:
 * - login (7hubpag API documentation; PulsePag's card page shows the same call
 *   on its own host): `POST /api/auth/login` with the JSON body `{client_id,
 *   client_secret}`, both strings, answered `{message: "Authentication
 *   successful.", token, user: {id, name, email, client_id}}`; the token is a
 *   JWT sent as `Authorization: Bearer <token>` on every protected endpoint;
 * - deposits (7hubpag): `POST /api/payments/deposit` with the bearer token
 *   creates a deposit and its PIX QR code; the body's `amount` is a number
 *   (reais: PulsePag's pages give every amount "em reais", and VexusPay's
 *   examples are 25 for R$ 25,00), `external_id` a string, "unique, for
 *   idempotent control", and the callback URL where the status changes are
 *   notified (the stored copy breaks off at `clientCall…`; VexusPay's
 *   withdrawal and PulsePag's card pages name it `clientCallbackUrl`);
 * - every example sends its JSON body with `Content-Type: application/json`
 *   (a body sent otherwise is refused here);
 * - withdrawals (VexusPay, developer/access.token): `POST
 *   /api/withdrawals/withdraw` with the bearer token; required `amount`
 *   (number), `external_id`, `pix_key`, `key_type` (one of CPF, CNPJ, EMAIL,
 *   PHONE) and `clientCallbackUrl`; optional `description` and `gateway`;
 *   answered `{message: "Withdrawal processed successfully.", transactionId,
 *   withdrawal: {transaction_id, external_id, status: "PROCESSING", amount,
 *   fee, total, type: "Withdrawal"}}`, the fee 5 % of the amount in the
 *   example (1.25 on 25) and `total` the amount plus the fee;
 * - webhooks (PulsePag, developer/webhooks/withdrawal): one transactional
 *   webhook, POSTed to the callback URL, `{transaction_id, external_id,
 *   status, amount, fee, total, type}`; a withdrawal starts PROCESSING and its
 *   terminal status (COMPLETED) comes later in a new event; no signature or
 *   header is documented.
 *
 * From the specification (doc 3 §7, which wins on paths): `GET
 * /api/payments/{id}` and `GET /api/withdrawals/{id}`; its status words
 * (§4): PENDING, PROCESSING, COMPLETED and RETIDO (held).
 *
 * The stand-in's own readings, where the pages are silent (the 7hubpag page
 * breaks off inside the deposit's body; no page shows a deposit's answer, a
 * read's answer or an error): the deposit answered like the documented
 * withdrawal, `{message, transactionId, deposit: {transaction_id, external_id,
 * status: "PENDING", amount, fee, total, type: "Deposit", qr_code}}`, its BR
 * Code in `qr_code` and the fee 1 %; a read answered with that object bare; a
 * failed payout's status `FAILED`; an `external_id` already used answering the
 * same deposit or withdrawal again (the documented idempotent control); the
 * error answers `{message}` with 400 (a body the platform would refuse), 401
 * (login refused, token missing or unknown) and 404 (unknown id), their texts
 * the stand-in's; a key's format checked against its type (CPF 11 digits,
 * CNPJ 14, PHONE 10 to 13 digits, EMAIL with an @); webhooks are sent only by
 * the test's hooks. The JWT is the stand-in's own (HS256 over a random key,
 * one hour).
 */
export const VELTRAX_SOURCES = [
  'https://web.7hubpag.com/api-documentation',
  'https://vexuspay.com/developer/access.token',
  'https://pulsepag.com/developer/webhooks/withdrawal',
  'https://pulsepag.com/developer/cards/tokenization',
] as const;

export type VeltraxStatus = 'PENDING' | 'PROCESSING' | 'COMPLETED' | 'RETIDO' | 'FAILED';
export type VeltraxKeyType = 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE';

/** A deposit or a withdrawal as the platform holds it; amounts in reais. */
export interface VeltraxTransaction {
  transaction_id: string;
  external_id: string;
  status: VeltraxStatus;
  amount: number;
  fee: number;
  total: number;
  type: 'Deposit' | 'Withdrawal';
  clientCallbackUrl: string;
  description: string | null;
  /** Deposits: the BR Code. */
  qr_code?: string;
  /** Withdrawals: the destination. */
  pix_key?: string;
  key_type?: VeltraxKeyType;
  gateway?: string;
}

export interface VeltraxStandIn extends StandIn {
  readonly transactions: ReadonlyMap<string, VeltraxTransaction>;
  /** The platform's notice of a status change, sent to the transaction's callback URL; the HTTP status the receiver answered. */
  settle(id: string, status: VeltraxStatus): Promise<number>;
  /** A webhook in the platform's format claiming `status`, while the platform holds another (a forgery): the receiver's HTTP status. */
  forge(id: string, status: VeltraxStatus): Promise<number>;
}

const KEY_TYPES: readonly VeltraxKeyType[] = ['CPF', 'CNPJ', 'EMAIL', 'PHONE'];
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const refused = (status: number, message: string): StandInReply => ({ status, body: { message } });
const isJson = (request: StandInRequest) => /^application\/json\b/i.test(request.headers['content-type'] ?? '');
/** Reais with at most two decimals, above zero. */
const isReais = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 && Math.abs(Math.round(value * 100) - value * 100) < 1e-6;
const round2 = (value: number) => Math.round(value * 100) / 100;

function keyFits(key: string, type: VeltraxKeyType): boolean {
  switch (type) {
    case 'CPF':
      return /^\d{11}$/.test(key);
    case 'CNPJ':
      return /^\d{14}$/.test(key);
    case 'PHONE':
      return /^\+?\d{10,13}$/.test(key);
    case 'EMAIL':
      return /^[^@\s]+@[^@\s]+$/.test(key);
  }
}

function brCode(reais: number, txid: string): string {
  const pix = createStaticPix({
    merchantName: '7HUBPAG INTERMEDIADORA',
    merchantCity: 'SAO PAULO',
    pixKey: '8a1d6c2e-43b7-4f0e-9c5a-1e7f3b2d9a60',
    infoAdicional: txid,
    transactionAmount: reais,
  });
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}

export async function startVeltraxStandIn(options: { clientId: string; clientSecret: string }): Promise<VeltraxStandIn> {
  const transactions = new Map<string, VeltraxTransaction>();
  const byExternalId = new Map<string, string>();
  const tokens = new Set<string>();
  const jwtKey = randomBytes(32);
  let nextId = 54_000;

  function issueToken(): string {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: options.clientId, iat: now, exp: now + 3600 })}`;
    const token = `${unsigned}.${createHmac('sha256', jwtKey).update(unsigned).digest('base64url')}`;
    tokens.add(token);
    return token;
  }

  function login(request: StandInRequest): StandInReply {
    if (!isJson(request)) return refused(400, 'Content-Type must be application/json.');
    const body = isRecord(request.body) ? request.body : {};
    if (typeof body.client_id !== 'string' || typeof body.client_secret !== 'string') return refused(400, 'client_id and client_secret are required.');
    if (body.client_id !== options.clientId || body.client_secret !== options.clientSecret) return refused(401, 'Invalid credentials.');
    return {
      body: {
        message: 'Authentication successful.',
        token: issueToken(),
        user: { id: 1, name: 'Loja Exemplo', email: 'financeiro@example.com', client_id: options.clientId },
      },
    };
  }

  const view = (transaction: VeltraxTransaction) => {
    const { transaction_id, external_id, status, amount, fee, total, type } = transaction;
    return { transaction_id, external_id, status, amount, fee, total, type, ...(transaction.qr_code ? { qr_code: transaction.qr_code } : {}) };
  };

  /** The documented webhook body: the transaction's fields, nothing else. */
  const notice = (transaction: VeltraxTransaction, status: VeltraxStatus) => {
    const { transaction_id, external_id, amount, fee, total, type } = transaction;
    return { transaction_id, external_id, status, amount, fee, total, type };
  };

  async function post(url: string, body: unknown): Promise<number> {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });
    await response.arrayBuffer();
    return response.status;
  }

  const known = (id: string): VeltraxTransaction => {
    const transaction = transactions.get(id);
    if (!transaction) throw new Error(`no Veltrax transaction ${id}`);
    return transaction;
  };

  function deposit(request: StandInRequest): StandInReply {
    if (!isJson(request)) return refused(400, 'Content-Type must be application/json.');
    const body = isRecord(request.body) ? request.body : {};
    if (!isReais(body.amount)) return refused(400, 'amount must be a positive number in reais.');
    const externalId = text(body.external_id);
    if (!externalId) return refused(400, 'external_id is required.');
    const callback = text(body.clientCallbackUrl);
    if (!callback) return refused(400, 'clientCallbackUrl is required.');
    const existing = byExternalId.get(`Deposit:${externalId}`);
    const transaction = existing
      ? known(existing)
      : (() => {
          const id = String(++nextId);
          const fee = round2(body.amount * 0.01);
          const created: VeltraxTransaction = {
            transaction_id: id,
            external_id: externalId,
            status: 'PENDING',
            amount: body.amount,
            fee,
            total: round2(body.amount - fee),
            type: 'Deposit',
            clientCallbackUrl: callback,
            description: text(body.description) ?? null,
            qr_code: brCode(body.amount, `7HUB${id}`),
          };
          transactions.set(id, created);
          byExternalId.set(`Deposit:${externalId}`, id);
          return created;
        })();
    return { status: 201, body: { message: 'Deposit created successfully.', transactionId: transaction.transaction_id, deposit: view(transaction) } };
  }

  function withdraw(request: StandInRequest): StandInReply {
    if (!isJson(request)) return refused(400, 'Content-Type must be application/json.');
    const body = isRecord(request.body) ? request.body : {};
    if (!isReais(body.amount)) return refused(400, 'amount must be a positive number in reais.');
    const externalId = text(body.external_id);
    if (!externalId) return refused(400, 'external_id is required.');
    const key = text(body.pix_key);
    if (!key) return refused(400, 'pix_key is required.');
    const keyType = KEY_TYPES.find((type) => type === body.key_type);
    if (!keyType) return refused(400, 'key_type must be one of CPF, CNPJ, EMAIL, PHONE.');
    if (!keyFits(key, keyType)) return refused(400, `pix_key is not a valid ${keyType} key.`);
    const callback = text(body.clientCallbackUrl);
    if (!callback) return refused(400, 'clientCallbackUrl is required.');
    if (body.description !== undefined && typeof body.description !== 'string') return refused(400, 'description must be a string.');
    const existing = byExternalId.get(`Withdrawal:${externalId}`);
    const transaction = existing
      ? known(existing)
      : (() => {
          const id = String(++nextId);
          const fee = round2(body.amount * 0.05);
          const created: VeltraxTransaction = {
            transaction_id: id,
            external_id: externalId,
            status: 'PROCESSING',
            amount: body.amount,
            fee,
            total: round2(body.amount + fee),
            type: 'Withdrawal',
            clientCallbackUrl: callback,
            description: text(body.description) ?? null,
            pix_key: key,
            key_type: keyType,
            ...(text(body.gateway) ? { gateway: text(body.gateway) } : {}),
          };
          transactions.set(id, created);
          byExternalId.set(`Withdrawal:${externalId}`, id);
          return created;
        })();
    return {
      body: { message: 'Withdrawal processed successfully.', transactionId: transaction.transaction_id, withdrawal: view(transaction) },
    };
  }

  const read = (type: VeltraxTransaction['type']) => (request: StandInRequest) => {
    const transaction = transactions.get(request.params.id!);
    if (!transaction || transaction.type !== type) return refused(404, 'Transaction not found.');
    return { body: view(transaction) };
  };

  const standIn = await startStandIn({
    name: 'Veltrax',
    sources: VELTRAX_SOURCES,
    authenticate: (request) => {
      if (request.path === '/api/auth/login') return undefined;
      const token = /^Bearer\s+(\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      return token && tokens.has(token) ? undefined : refused(401, 'Unauthorized.');
    },
    routes: [
      { method: 'POST', path: '/api/auth/login', handle: login },
      { method: 'POST', path: '/api/payments/deposit', handle: deposit },
      { method: 'GET', path: '/api/payments/{id}', handle: read('Deposit') },
      { method: 'POST', path: '/api/withdrawals/withdraw', handle: withdraw },
      { method: 'GET', path: '/api/withdrawals/{id}', handle: read('Withdrawal') },
    ],
  });

  return Object.assign(standIn, {
    transactions,
    async settle(id: string, status: VeltraxStatus) {
      const transaction = known(id);
      transaction.status = status;
      return post(transaction.clientCallbackUrl, notice(transaction, status));
    },
    async forge(id: string, status: VeltraxStatus) {
      const transaction = known(id);
      return post(transaction.clientCallbackUrl, notice(transaction, status));
    },
  });
}
