import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import { isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils';
import { createDynamicPix, hasError } from 'pix-utils';
import { centsToReais, reaisToCents } from '../../server/lib/money.js';
import { qrPng } from '../../server/lib/pixQrCode.js';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * Fire Banking as the documentation of the platform it runs on (Avista)
 * describes it, for the gateway's acceptance test
 * (tests/standins/firebank.test.ts): repository advanced-digital-services/docs
 * at commit 8349efd, `api-reference/openapi.json` and the guides.
 *
 * What is the platform's, with its source:
 * - POST /api/auth/token `{clientId, clientSecret}` with the account's
 *   certificate, PEM URL-encoded, in `X-SSL-Client-Cert` (its SHA-256
 *   fingerprint checked against the certificate linked to the account) →
 *   201 `{access_token, token_type: "Bearer", expires_in: 1800}`; 400 without
 *   the certificate ("Certificado ausente no header X-SSL-Client-Cert"), 401
 *   for wrong credentials, 403 for a certificate not linked (authentication
 *   guide, GenerateTokenInputDto/OutputDto); then `Authorization: Bearer` on
 *   every call, 401 "Token não fornecido ou inválido" (openapi);
 * - POST /api/pix/cash-in `{transaction{value (reais, ≥ 0.01, 2 decimals),
 *   description (≤ 140), expirationTime (300 to 604800 s, default 86400),
 *   externalId (≤ 255), generateQrCode}, payer{fullName, document (11 or 14
 *   digits)}, additionalInfo (≤ 10 string keys)}` → 201 `{transactionId,
 *   correlationId, externalId, status, pixCode, generateTime, expirationDate,
 *   qrCodeImage (only with generateQrCode)}` (cash-in guide, CashInInputDto);
 * - GET /api/pix/transaction/{id}, by numeric id or externalId → `{id,
 *   externalId, type PAYMENT|REFUND_IN|REFUND_OUT|WITHDRAW|TRANSFER, status
 *   PENDING|CONFIRMED|ERROR, originalAmount, feeAmount, finalAmount, e2eId,
 *   counterpart…, createdAt, updatedAt, processedAt}`, 404 "Transação não
 *   encontrada" (TransactionPollOutputDto);
 * - POST /api/pix/refund-in/{id} `{refundValue, reason?, externalId?}`, partial
 *   or whole, the sum never above the original, within 89 days → 201
 *   `{transactionId, externalId, status, refundValue, providerTransactionId,
 *   generateTime}`, 404 for an unknown parent (refund-in guide);
 * - POST /api/pix/cash-out `{value, details{key, keyType EMAIL|PHONE|DOCUMENT|
 *   RANDOM, name, document}, externalId, description (≤ 140)}`, keys as the
 *   guide writes them (CPF 11 digits, CNPJ 14, phone with 55 and the area code,
 *   a UUID), 400 "saldo insuficiente" → 201 `{transactionId, externalId,
 *   status, generateTime}` (cash-out guide);
 * - POST /api/webhooks `{url (HTTPS), eventType cash_in|cash_out|refund_in|
 *   refund_out, headers ≤ 5 [{key, value}]}` upserted per event type, the
 *   blocked header names refused → `{success, message}` (setup guide); events
 *   CashIn, CashOut, CashInReversal (with `parentTransaction{transactionId,
 *   wasTotalRefunded, remainingAmountForRefund}`), CashOutReversal, the base
 *   payload `{event, status, transactionType: "PIX", movementType,
 *   transactionId, externalId, endToEndId, pixKey, feeAmount, originalAmount,
 *   finalAmount, processingDate, errorCode, errorMessage, metadata}` sent with
 *   the headers registered (webhook guides);
 * - GET /api/balance → `{grossBalance, blockedBalance, netBalance,
 *   consultedAt}` in reais: net what can be used now, blocked what pending
 *   operations hold (a PIX payout until it is confirmed, a refund under
 *   analysis), gross their sum (balance guide, GetBalanceOutputDto).
 *
 * The stand-in's own readings, where the documentation is silent: error texts
 * beyond the ones quoted above; fees of R$ 0,01 per transaction; a refund
 * PENDING until `settleRefund`; an `externalId` already used by a refund of
 * the same charge answering that refund, by a charge or a payout refused
 * (400); a loopback `http://` webhook URL allowed besides HTTPS (the gateway
 * under test listens on plain HTTP); nothing is notified except by the test
 * hooks. Its host is the brand's, api.public.firebanking.com.br (research),
 * the documentation's examples being Avista's api.avista.global.
 */
/**
 * A failed transaction's `errorCode` and `errorMessage` ("Código de erro quando `status` é `ERROR`", "Mensagem de erro
 * descritiva": webhooks overview). The pages show both only as null: these values are invented.
 */
export const FIREBANK_ERROR = { code: 'INVALID_PIX_KEY', message: 'Chave PIX não encontrada ou inválida' } as const;

export const FIREBANK_SOURCES = [
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference/openapi.json',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference/guides/authentication.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference/guides/pix-cash-in.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference/guides/pix-refund-in.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference/guides/pix-cash-out.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference/guides/balance.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference/guides/webhooks/overview.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference/guides/webhooks/setup.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference/guides/webhooks/cash-in.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference/guides/webhooks/cash-out.mdx',
  'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/api-reference/guides/webhooks/cash-in-reversal.mdx',
] as const;

type Status = 'PENDING' | 'CONFIRMED' | 'ERROR';
type Kind = 'PAYMENT' | 'REFUND_IN' | 'WITHDRAW';
type EventType = 'cash_in' | 'cash_out' | 'refund_in' | 'refund_out';

export interface FirebankTransaction {
  id: string;
  externalId: string | null;
  type: Kind;
  status: Status;
  /** Cents. */
  value: number;
  description: string | null;
  e2eId: string | null;
  /** A refund's parent charge. */
  parentId: string | null;
  pixCode: string | null;
  expirationDate: string | null;
  /** A payout's destination. */
  details: { key: string; keyType: string; name: string; document: string } | null;
  createdAt: string;
  processedAt: string | null;
}

export interface FirebankStandIn extends StandIn {
  readonly transactions: ReadonlyMap<string, FirebankTransaction>;
  readonly webhooks: ReadonlyMap<EventType, { url: string; headers: Array<{ key: string; value: string }> }>;
  /** The account's net balance (what can be used now), in cents. */
  readonly balance: number;
  /** What pending payouts and refunds hold, in cents. */
  readonly blocked: number;
  /** The payer pays the charge: CONFIRMED, the balance credited, CashIn sent; the HTTP statuses answered. */
  pay(transactionId: string): Promise<number[]>;
  /** The refund settles: CONFIRMED, CashInReversal sent with its parent. */
  settleRefund(transactionId: string): Promise<number[]>;
  /** The payout settles: CONFIRMED, or ERROR (the money back); CashOut sent. */
  settleCashOut(transactionId: string, outcome: 'CONFIRMED' | 'ERROR'): Promise<number[]>;
}

export interface FirebankStandInOptions {
  clientId: string;
  clientSecret: string;
  /** The PEM linked to the account. */
  certificatePem: string;
  balanceCents?: number;
  now?: () => Date;
}

const FEE_CENTS = 1;
const BLOCKED_HEADERS = new Set(['host', 'content-length', 'connection', 'transfer-encoding', 'content-type', 'user-agent']);
const EVENTS: Record<EventType, string> = { cash_in: 'CashIn', cash_out: 'CashOut', refund_in: 'CashInReversal', refund_out: 'CashOutReversal' };

/** The platform's refusal: `{statusCode, message}`. */
const refused = (message: string, statusCode = 400): StandInReply => ({ status: statusCode, body: { statusCode, message } });

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const record = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});
const reais = (value: unknown): number | undefined =>
  typeof value === 'number' && value >= 0.01 && Number.isFinite(value) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-9
    ? reaisToCents(value)
    : undefined;

/** The SHA-256 fingerprint of a PEM certificate's DER bytes, as the platform checks it. */
function fingerprint(pem: string): string | undefined {
  const body = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(pem)?.[1];
  return body
    ? createHash('sha256')
        .update(Buffer.from(body.replace(/\s+/g, ''), 'base64'))
        .digest('hex')
    : undefined;
}

const KEY_RULES: Record<string, (key: string) => boolean> = {
  DOCUMENT: (key) => (key.length === 11 ? isValidCpf(key) : key.length === 14 && isValidCnpj(key)),
  EMAIL: (key) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(key),
  PHONE: (key) => /^55\d{10,11}$/.test(key),
  RANDOM: (key) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key),
};

export async function startFirebankStandIn(options: FirebankStandInOptions): Promise<FirebankStandIn> {
  const now = options.now ?? (() => new Date());
  const linked = fingerprint(options.certificatePem);
  const transactions = new Map<string, FirebankTransaction>();
  const webhooks = new Map<EventType, { url: string; headers: Array<{ key: string; value: string }> }>();
  const tokens = new Set<string>();
  let balance = options.balanceCents ?? 100_000;
  let sequence = 7844;

  const find = (id: string) => transactions.get(id) ?? [...transactions.values()].find((transaction) => transaction.externalId === id);
  const refundsOf = (parentId: string) => [...transactions.values()].filter((transaction) => transaction.parentId === parentId);
  const refundable = (parent: FirebankTransaction) =>
    parent.value -
    refundsOf(parent.id)
      .filter((refund) => refund.status !== 'ERROR')
      .reduce((sum, refund) => sum + refund.value, 0);

  /** Held until they settle: a payout with its fee, a refund. */
  const blocked = () =>
    [...transactions.values()]
      .filter((transaction) => transaction.status === 'PENDING' && transaction.type !== 'PAYMENT')
      .reduce((sum, transaction) => sum + transaction.value + (transaction.type === 'WITHDRAW' ? FEE_CENTS : 0), 0);

  const balanceView = () => ({
    grossBalance: centsToReais(balance + blocked()),
    blockedBalance: centsToReais(blocked()),
    netBalance: centsToReais(balance),
    consultedAt: now().toISOString(),
  });

  const pollView = (transaction: FirebankTransaction) => ({
    id: transaction.id,
    externalId: transaction.externalId,
    type: transaction.type,
    status: transaction.status,
    originalAmount: centsToReais(transaction.value),
    feeAmount: centsToReais(FEE_CENTS),
    finalAmount: centsToReais(transaction.type === 'PAYMENT' ? transaction.value - FEE_CENTS : transaction.value + FEE_CENTS),
    e2eId: transaction.e2eId,
    counterpartName: transaction.details?.name ?? (transaction.status === 'CONFIRMED' ? 'Carlos Oliveira' : null),
    counterpartDocument: transaction.details ? `*${transaction.details.document.slice(3, 9)}**` : null,
    counterpartAccountBankCode: null,
    counterpartAccountBranch: null,
    counterpartAccountNumber: null,
    counterpartAccountIspb: null,
    counterpartAccountBankName: null,
    createdAt: transaction.createdAt,
    updatedAt: now().toISOString(),
    processedAt: transaction.processedAt,
  });

  /** The event to the URL registered for its type, with the headers registered. */
  async function notify(eventType: EventType, transaction: FirebankTransaction, extra: Record<string, unknown> = {}): Promise<number[]> {
    const hook = webhooks.get(eventType);
    if (!hook) return [];
    const credit = eventType === 'cash_in' || eventType === 'refund_out';
    const body = JSON.stringify({
      event: EVENTS[eventType],
      status: transaction.status,
      transactionType: 'PIX',
      movementType: credit ? 'CREDIT' : 'DEBIT',
      transactionId: transaction.id,
      externalId: transaction.externalId,
      endToEndId: transaction.e2eId,
      pixKey: transaction.details?.key ?? null,
      feeAmount: centsToReais(FEE_CENTS),
      originalAmount: centsToReais(transaction.value),
      finalAmount: centsToReais(credit ? transaction.value - FEE_CENTS : transaction.value + FEE_CENTS),
      processingDate: transaction.processedAt,
      errorCode: transaction.status === 'ERROR' ? FIREBANK_ERROR.code : null,
      errorMessage: transaction.status === 'ERROR' ? FIREBANK_ERROR.message : null,
      metadata: {},
      ...extra,
    });
    const response = await fetch(hook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...Object.fromEntries(hook.headers.map(({ key, value }) => [key, value])) },
      body,
    });
    await response.arrayBuffer();
    return [response.status];
  }

  const e2e = (prefix: 'E' | 'D') => `${prefix}00416968${now().toISOString().slice(0, 10).replace(/-/g, '')}${randomBytes(8).toString('hex')}`.slice(0, 32);

  function token(request: StandInRequest): StandInReply {
    const header = request.headers['x-ssl-client-cert'];
    if (!header) return refused('Certificado ausente no header X-SSL-Client-Cert');
    let pem: string;
    try {
      pem = decodeURIComponent(header);
    } catch {
      return refused('Certificado mal formatado no header X-SSL-Client-Cert');
    }
    const offered = fingerprint(pem);
    if (!offered) return refused('Certificado mal formatado no header X-SSL-Client-Cert');
    const body = record(request.body);
    if (!text(body.clientId) || !text(body.clientSecret)) return refused('clientId e clientSecret são obrigatórios');
    if (body.clientId !== options.clientId || body.clientSecret !== options.clientSecret) return refused('Credenciais inválidas ou certificado inválido', 401);
    if (offered !== linked) return refused('Certificado não vinculado à conta', 403);
    const issuedAt = Math.floor(now().getTime() / 1000);
    const segment = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${segment({ alg: 'HS256', typ: 'JWT' })}.${segment({ sub: options.clientId, iat: issuedAt, exp: issuedAt + 1800 })}`;
    const accessToken = `${unsigned}.${createHmac('sha256', 'stand-in').update(unsigned).digest('base64url')}`;
    tokens.add(accessToken);
    return { status: 201, body: { access_token: accessToken, token_type: 'Bearer', expires_in: 1800 } };
  }

  const externalIdTaken = (externalId: string) => [...transactions.values()].some((known) => known.externalId === externalId);

  function cashIn(request: StandInRequest): StandInReply {
    const body = record(request.body);
    const transaction = record(body.transaction);
    const payer = record(body.payer);
    if (body.transaction === undefined || body.payer === undefined) return refused('transaction e payer são obrigatórios');
    const value = reais(transaction.value);
    if (value === undefined) return refused('transaction.value deve ser no mínimo 0.01, com até 2 casas decimais');
    const description = text(transaction.description);
    if (!description || description.length > 140) return refused('transaction.description é obrigatória, com no máximo 140 caracteres');
    const expirationTime = transaction.expirationTime ?? 86_400;
    if (typeof expirationTime !== 'number' || expirationTime < 300 || expirationTime > 604_800)
      return refused('transaction.expirationTime deve estar entre 300 e 604800 segundos');
    const externalId = text(transaction.externalId);
    if (!externalId || externalId.length > 255) return refused('transaction.externalId é obrigatório, com no máximo 255 caracteres');
    if (externalIdTaken(externalId)) return refused('transaction.externalId já utilizado');
    if (!text(payer.fullName)) return refused('payer.fullName é obrigatório');
    if (!/^(\d{11}|\d{14})$/.test(String(payer.document ?? ''))) return refused('payer.document deve ser um CPF ou CNPJ, apenas números');
    if (body.additionalInfo !== undefined && Object.keys(record(body.additionalInfo)).length > 10) return refused('additionalInfo aceita no máximo 10 chaves');
    const pix = createDynamicPix({ merchantName: 'FIRE BANKING STANDIN', merchantCity: 'SAO PAULO', url: `pix.firebanking.com.br/qr/${randomUUID()}` });
    if (hasError(pix)) throw new Error('could not build a BR Code');
    const created = now();
    const charge: FirebankTransaction = {
      id: String(++sequence),
      externalId,
      type: 'PAYMENT',
      status: 'PENDING',
      value,
      description,
      e2eId: null,
      parentId: null,
      pixCode: pix.toBRCode(),
      expirationDate: new Date(created.getTime() + expirationTime * 1000).toISOString(),
      details: null,
      createdAt: created.toISOString(),
      processedAt: null,
    };
    transactions.set(charge.id, charge);
    return {
      status: 201,
      body: {
        transactionId: charge.id,
        correlationId: randomUUID(),
        externalId,
        status: charge.status,
        pixCode: charge.pixCode,
        generateTime: charge.createdAt,
        expirationDate: charge.expirationDate,
        ...(transaction.generateQrCode === true ? { qrCodeImage: `data:image/png;base64,${qrPng(charge.pixCode!).toString('base64')}` } : {}),
      },
    };
  }

  function refundIn(request: StandInRequest): StandInReply {
    const parent = find(request.params.id ?? '');
    if (!parent) return refused('Transação pai não encontrada', 404);
    const body = record(request.body);
    const externalId = text(body.externalId) ?? null;
    const earlier = externalId ? refundsOf(parent.id).find((refund) => refund.externalId === externalId) : undefined;
    const view = (refund: FirebankTransaction) => ({
      transactionId: refund.id,
      externalId: refund.externalId,
      status: refund.status,
      refundValue: centsToReais(refund.value),
      providerTransactionId: randomUUID(),
      generateTime: refund.createdAt,
    });
    if (earlier) return { status: 201, body: view(earlier) };
    if (parent.type !== 'PAYMENT' || parent.status !== 'CONFIRMED') return refused('Transação não encontrada ou não confirmada para estorno');
    if (now().getTime() - new Date(parent.processedAt!).getTime() > 89 * 86_400_000) return refused('Prazo excedido para estorno');
    const value = reais(body.refundValue);
    if (value === undefined || value > refundable(parent)) return refused('Valor inválido: excede o disponível para estorno');
    if (text(body.reason) && String(body.reason).length > 255) return refused('reason aceita no máximo 255 caracteres');
    balance -= value;
    const refund: FirebankTransaction = {
      id: String(++sequence),
      externalId,
      type: 'REFUND_IN',
      status: 'PENDING',
      value,
      description: text(body.reason) ?? null,
      e2eId: e2e('D'),
      parentId: parent.id,
      pixCode: null,
      expirationDate: null,
      details: null,
      createdAt: now().toISOString(),
      processedAt: null,
    };
    transactions.set(refund.id, refund);
    return { status: 201, body: view(refund) };
  }

  function cashOut(request: StandInRequest): StandInReply {
    const body = record(request.body);
    const value = reais(body.value);
    if (value === undefined) return refused('value deve ser no mínimo 0.01, com até 2 casas decimais');
    const details = record(body.details);
    const keyType = text(details.keyType);
    const key = text(details.key);
    const rule = keyType ? KEY_RULES[keyType] : undefined;
    if (!keyType || !rule) return refused('details.keyType deve ser EMAIL, PHONE, DOCUMENT ou RANDOM');
    if (!key || !rule(key)) return refused('Chave PIX inválida para o tipo informado');
    if (!text(details.name)) return refused('details.name é obrigatório');
    const document = String(details.document ?? '');
    if (!/^(\d{11}|\d{14})$/.test(document)) return refused('details.document deve ser um CPF ou CNPJ, apenas números');
    const externalId = text(body.externalId);
    if (!externalId || externalId.length > 255) return refused('externalId é obrigatório, com no máximo 255 caracteres');
    if (externalIdTaken(externalId)) return refused('externalId já utilizado');
    if (body.description !== undefined && (typeof body.description !== 'string' || body.description.length > 140))
      return refused('description aceita no máximo 140 caracteres');
    if (value + FEE_CENTS > balance) return refused('Saldo insuficiente');
    balance -= value + FEE_CENTS;
    const payout: FirebankTransaction = {
      id: String(++sequence),
      externalId,
      type: 'WITHDRAW',
      status: 'PENDING',
      value,
      description: text(body.description) ?? null,
      e2eId: null,
      parentId: null,
      pixCode: null,
      expirationDate: null,
      details: { key, keyType, name: String(details.name), document },
      createdAt: now().toISOString(),
      processedAt: null,
    };
    transactions.set(payout.id, payout);
    return { status: 201, body: { transactionId: payout.id, externalId, status: payout.status, generateTime: payout.createdAt } };
  }

  function setupWebhook(request: StandInRequest): StandInReply {
    const body = record(request.body);
    const url = text(body.url);
    let parsed: URL | undefined;
    try {
      parsed = url ? new URL(url) : undefined;
    } catch {
      parsed = undefined;
    }
    const loopback = parsed?.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
    if (!parsed || (parsed.protocol !== 'https:' && !loopback)) return refused('URL inválida: deve usar HTTPS');
    const eventType = body.eventType as EventType;
    if (!Object.hasOwn(EVENTS, String(eventType))) return refused('Tipo de evento inválido');
    const headers = body.headers === undefined ? [] : body.headers;
    if (!Array.isArray(headers) || headers.length > 5) return refused('No máximo 5 headers');
    const pairs = headers.map(record).map((header) => ({ key: text(header.key) ?? '', value: typeof header.value === 'string' ? header.value : '' }));
    if (pairs.some((pair) => !pair.key || BLOCKED_HEADERS.has(pair.key.toLowerCase()))) return refused('Header não permitido');
    webhooks.set(eventType, { url: parsed.toString(), headers: pairs });
    return { body: { success: true, message: 'Webhook configurado com sucesso' } };
  }

  const standIn = await startStandIn({
    name: 'Fire Banking (Avista platform)',
    sources: FIREBANK_SOURCES,
    authenticate: (request) => {
      if (request.path === '/api/auth/token') return undefined;
      const token = /^Bearer\s+(\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      return token && tokens.has(token) ? undefined : refused('Token não fornecido ou inválido', 401);
    },
    routes: [
      { method: 'POST', path: '/api/auth/token', handle: token },
      { method: 'POST', path: '/api/pix/cash-in', handle: cashIn },
      {
        method: 'GET',
        path: '/api/pix/transaction/{id}',
        handle: (request) => {
          const transaction = find(request.params.id ?? '');
          return transaction ? { body: pollView(transaction) } : refused('Transação não encontrada', 404);
        },
      },
      { method: 'POST', path: '/api/pix/refund-in/{id}', handle: refundIn },
      { method: 'POST', path: '/api/pix/cash-out', handle: cashOut },
      { method: 'POST', path: '/api/webhooks', handle: setupWebhook },
      {
        method: 'GET',
        path: '/api/webhooks',
        handle: () => ({
          body: { webhooks: [...webhooks.entries()].map(([type, hook]) => ({ id: type, type, url: hook.url, headers: hook.headers, isActive: true })) },
        }),
      },
      { method: 'GET', path: '/api/balance', handle: () => ({ body: balanceView() }) },
    ],
  });

  return {
    ...standIn,
    transactions,
    webhooks,
    get balance() {
      return balance;
    },
    get blocked() {
      return blocked();
    },
    async pay(transactionId: string) {
      const charge = transactions.get(transactionId);
      if (!charge || charge.type !== 'PAYMENT' || charge.status !== 'PENDING') throw new Error(`charge ${transactionId} cannot be paid`);
      charge.status = 'CONFIRMED';
      charge.e2eId = e2e('E');
      charge.processedAt = now().toISOString();
      balance += charge.value - FEE_CENTS;
      return notify('cash_in', charge, {
        counterpart: { name: 'Carlos Oliveira', document: '*.345.678-**', bank: { bankISPB: null, bankName: null, bankCode: null } },
      });
    },
    async settleRefund(transactionId: string) {
      const refund = transactions.get(transactionId);
      const parent = refund?.parentId ? transactions.get(refund.parentId) : undefined;
      if (!refund || !parent || refund.status !== 'PENDING') throw new Error(`refund ${transactionId} is not pending`);
      refund.status = 'CONFIRMED';
      refund.processedAt = now().toISOString();
      const remaining = refundable(parent);
      return notify('refund_in', refund, {
        parentTransaction: {
          transactionId: parent.id,
          externalId: parent.externalId,
          endToEndId: parent.e2eId,
          processingDate: parent.processedAt,
          wasTotalRefunded: remaining === 0,
          remainingAmountForRefund: centsToReais(remaining),
          metadata: {},
        },
      });
    },
    async settleCashOut(transactionId: string, outcome: 'CONFIRMED' | 'ERROR') {
      const payout = transactions.get(transactionId);
      if (!payout || payout.type !== 'WITHDRAW' || payout.status !== 'PENDING') throw new Error(`payout ${transactionId} is not pending`);
      payout.status = outcome;
      payout.processedAt = now().toISOString();
      if (outcome === 'CONFIRMED') payout.e2eId = e2e('E');
      else balance += payout.value + FEE_CENTS;
      return notify('cash_out', payout, {
        counterpart: { name: payout.details!.name, document: `*${payout.details!.document.slice(3, 9)}**`, bank: { bankCode: '260' } },
      });
    },
  };
}
