import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { isValidCnpj, isValidCpf } from '@brazilian-utils/brazilian-utils';
import { createDynamicPix, hasError } from 'pix-utils';
import { centsToReais, reaisToCents } from '../../server/lib/money.js';
import { qrPng } from '../../server/lib/pixQrCode.js';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * Transfeera as its documentation describes it, for the gateway's acceptance
 * test (tests/standins/transfeera.test.ts). One loopback server plays both
 * hosts: the login host's POST /authorization and the API's routes (an account
 * whose base URL is not Transfeera's takes its token at its own /authorization).
 *
 * What is Transfeera's, with its source:
 * - the token: POST /authorization `{grant_type: "client_credentials",
 *   client_id, client_secret}` → `{access_token, expires_in: 1800}`; the token
 *   in `Authorization` on every call; every request carries `User-Agent`, "o
 *   nome da sua empresa e um e-mail para contato", `Company
 *   (contact@company.com)`; HTTPS only (Autenticação, a published copy of
 *   that guide; the same User-Agent rule in transfeera/contacerta-doc's README);
 * - refusals `{statusCode, error, errorCode, field, message, path}`, HTTP 429
 *   past the rate limit (Erros);
 * - a PIX key registered on the account before anything is received, and
 *   dynamic QR codes as immediate collections (Recebimentos, introdução); their
 *   statuses ATIVA, CONCLUIDA, REMOVIDA_PELO_USUARIO_RECEBEDOR,
 *   REMOVIDA_PELO_PSP (Status dos QR Code);
 * - payments made in batches: a batch created (as a draft, "Rascunho"), its
 *   transfers processed once it is closed, "Aguardando recebimento" without the
 *   balance, "Recebido" with it (Lotes, Transferências);
 * - webhooks registered with the objects to send (POST /webhook), answered
 *   with the `signature_secret`; events `{id, version: "v1", account_id, object,
 *   date, data}`, CashIn `data` = the received PIX (`id, value, end2end_id,
 *   receipt_file_url, txid, integration_id, pix_key, pix_description,
 *   payer{name, document, account_type, account, account_digit, agency,
 *   bank{name, code, ispb}}`),
 *   Transfer `data` = the transfer (`id, value, status FINALIZADO, …, batch_id,
 *   destination_bank_account`); a 2xx answer is delivery, else two more tries
 *   (Eventos); signed `Transfeera-Signature: t=<ms>,v1=<hex>`, HMAC-SHA256 of
 *   "<t>.<raw body>" with that secret (Verificação da assinatura).
 *
 * What comes from Transfeera's integrations, its reference pages not being
 * readable here: POST /pix/qrcode/collection/immediate `{pix_key,
 * original_value (reais), txid, integration_id, expiration (s), payer_question,
 * payer{name, document}}` → `{id, qrcode_type COBRANCA_IMEDIATA, status, txid,
 * integration_id, pix_key, emv_payload, image_base64, original_value,
 * expiration, …}`; GET /pix/cashin (filters `txid`, `integrationId`, `type`…)
 * → `{entries, pagination}` with entry types DEPOSIT, DEPOSIT_REFUND,
 * PENDING_DEPOSIT_REFUND, CANCELLED_DEPOSIT_REFUND; GET and POST
 * /pix/cashin/{end2end_id}[/refund] `{value, integration_id}`; POST /batch
 * `{name, type TRANSFERENCIA, auto_close, transfers[{value, integration_id,
 * idempotency_key, pix_description, destination_bank_account{pix_key_type
 * EMAIL|CPF|CNPJ|TELEFONE|CHAVE_ALEATORIA, pix_key}}]}`, POST
 * /batch/{id}/close, GET /batch/{id}, GET /batch/{id}/transfer, GET
 * /transfer/{id}; transfer statuses CRIADA, RECEBIDO, FINALIZADO, FALHA,
 * DEVOLVIDO; POST /webhook `{url, object_types}`.
 *
 * The stand-in's own readings, where neither says: the exact error texts and
 * codes; the token accepted bare (as the guide writes it) or after "Bearer "
 * (as every integration sends it); a refund answered `{id, end2end_id, value,
 * integration_id, type}` and settled at once as DEPOSIT_REFUND; a refund's
 * `integration_id` seen again for the same PIX answering the refund it named;
 * refund entries carrying the original PIX's txid; a batch processed the moment
 * it is closed with the balance; nothing is notified except by the test hooks.
 */
export const TRANSFEERA_SOURCES = [
  'https://docs.transfeera.dev/docs/autenticacao-introducao',
  'https://github.com/transfeera/contacerta-doc/blob/f35a63d0286f9db724bab5040dae82ff3422f817/README.md',
  'https://docs.transfeera.dev/reference/erros',
  'https://docs.transfeera.dev/docs/recebimentos-introducao',
  'https://docs.transfeera.dev/docs/recebimentos-qrcode-pix-status-dos-qr-code',
  'https://docs.transfeera.dev/reference/recebimentos-eventos',
  'https://docs.transfeera.dev/reference/recebimentos-verifica%C3%A7%C3%A3o-da-assinatura',
  'https://docs.transfeera.dev/docs/pagamentos-lotes',
  'https://docs.transfeera.dev/docs/pagamentos-tranferencias',
  'https://docs.transfeera.dev/reference/pagamentos-eventos',
] as const;

type QrStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';
type CashInType = 'DEPOSIT' | 'DEPOSIT_REFUND' | 'PENDING_DEPOSIT_REFUND' | 'CANCELLED_DEPOSIT_REFUND';
type TransferStatus = 'CRIADA' | 'RECEBIDO' | 'FINALIZADO' | 'FALHA' | 'DEVOLVIDO';
type BatchStatus = 'RASCUNHO' | 'AGUARDANDO_RECEBIMENTO' | 'RECEBIDO' | 'FINALIZADO';

export interface TransfeeraQrCode {
  id: string;
  txid: string;
  integrationId: string | null;
  pixKey: string;
  /** Cents. */
  value: number;
  expiration: number;
  status: QrStatus;
  emvPayload: string;
  payerQuestion: string | null;
  payer: { name: string; document: string } | null;
  createdAt: string;
}

export interface TransfeeraCashIn {
  id: string;
  type: CashInType;
  /** Cents. */
  value: number;
  end2endId: string;
  txid: string | null;
  integrationId: string | null;
  /** A refund's: the end2end_id of the PIX it returns. */
  refundOf: string | null;
  date: string;
}

export interface TransfeeraTransfer {
  id: string;
  batchId: string;
  /** Cents. */
  value: number;
  status: TransferStatus;
  integrationId: string | null;
  idempotencyKey: string | null;
  pixDescription: string | null;
  pixKeyType: string;
  pixKey: string;
  createdAt: string;
}

export interface TransfeeraBatch {
  id: string;
  name: string;
  type: 'TRANSFERENCIA';
  status: BatchStatus;
  transferIds: string[];
}

export interface TransfeeraStandIn extends StandIn {
  readonly qrCodes: ReadonlyMap<string, TransfeeraQrCode>;
  readonly cashIns: ReadonlyMap<string, TransfeeraCashIn>;
  readonly batches: ReadonlyMap<string, TransfeeraBatch>;
  readonly transfers: ReadonlyMap<string, TransfeeraTransfer>;
  /** The account's balance, in cents. */
  readonly balance: number;
  /** The User-Agent of every request, in order. */
  readonly userAgents: readonly string[];
  /** A payer pays the collection of this txid: a DEPOSIT, the QR code CONCLUIDA, the balance credited, CashIn sent; the HTTP statuses answered. */
  pay(txid: string): Promise<number[]>;
  /** The bank settles the batch's transfer: FINALIZADO, or FALHA (the money back); Transfer sent. */
  settleBatch(batchId: string, outcome: 'FINALIZADO' | 'FALHA'): Promise<number[]>;
  /** Sends any body to the registered webhooks, signed with `secret` (default the account's). */
  deliver(object: string, body: string, secret?: string): Promise<number[]>;
}

export interface TransfeeraStandInOptions {
  clientId: string;
  clientSecret: string;
  /** The PIX keys registered on the account. */
  pixKeys: readonly string[];
  /** What POST /webhook answers as `signature_secret`. */
  signatureSecret: string;
  balanceCents?: number;
  now?: () => Date;
}

const USER_AGENT = /^\S.*\(\s*[^\s@()]+@[^\s@()]+\.[^\s@()]+\s*\)$/;
const TXID = /^[a-zA-Z0-9]{26,35}$/;
const ACCOUNT_ID = 'd95e7630-1b3c-4ac5-991d-d599d75efdd0';

/** Transfeera's refusal (Erros): `{statusCode, error, errorCode, field, message, path}`. */
function refused(message: string, field?: string, errorCode = 'VALIDATION', statusCode = 400): StandInReply {
  const error = statusCode === 400 ? 'Bad Request' : statusCode === 401 ? 'Unauthorized' : statusCode === 404 ? 'Not Found' : 'Error';
  return { status: statusCode, body: { statusCode, error, errorCode, ...(field ? { field, path: `$.${field}` } : {}), message } };
}
const notFound = (what: string): StandInReply => refused(`${what} not found`, undefined, 'NOT_FOUND', 404);

const text = (value: unknown): string | undefined => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
const record = (body: unknown): Record<string, unknown> => (body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {});

/** A value in reais with at most two decimals, above zero. */
const reais = (value: unknown): number | undefined =>
  typeof value === 'number' && value > 0 && Number.isFinite(value) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-9 ? reaisToCents(value) : undefined;

const PIX_KEY_RULES: Record<string, (key: string) => boolean> = {
  CPF: (key) => /^\d{11}$/.test(key) && isValidCpf(key),
  CNPJ: (key) => /^\d{14}$/.test(key) && isValidCnpj(key),
  EMAIL: (key) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(key),
  TELEFONE: (key) => /^\+55\d{10,11}$/.test(key),
  CHAVE_ALEATORIA: (key) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key),
};

/** Who pays every collection: the CashIn object's payer as the Eventos page shows it (name, CPF, account, bank with its ISPB). */
export const TRANSFEERA_PAYER = {
  ...{ name: 'Carlos Oliveira', document: '52998224725', account_type: 'CONTA_CORRENTE', account: '12345', account_digit: '9', agency: '4321' },
  bank: { name: 'Banco do Brasil', code: '001', ispb: '00000000' },
} as const;

export async function startTransfeeraStandIn(options: TransfeeraStandInOptions): Promise<TransfeeraStandIn> {
  const now = options.now ?? (() => new Date());
  const qrCodes = new Map<string, TransfeeraQrCode>();
  const cashIns = new Map<string, TransfeeraCashIn>();
  const batches = new Map<string, TransfeeraBatch>();
  const transfers = new Map<string, TransfeeraTransfer>();
  const tokens = new Set<string>();
  const webhooks: Array<{ id: string; url: string; objectTypes: string[] }> = [];
  const userAgents: string[] = [];
  let balance = options.balanceCents ?? 100_000;
  let batchSequence = 1425;
  let transferSequence = 60_039;

  const qrView = (qr: TransfeeraQrCode) => ({
    id: qr.id,
    qrcode_type: 'COBRANCA_IMEDIATA',
    status: qr.status,
    txid: qr.txid,
    integration_id: qr.integrationId,
    pix_key: { key: qr.pixKey },
    emv_payload: qr.emvPayload,
    image_base64: qrPng(qr.emvPayload).toString('base64'),
    original_value: centsToReais(qr.value),
    expiration: qr.expiration,
    payer_question: qr.payerQuestion,
    payer: qr.payer,
    created_at: qr.createdAt,
    updated_at: now().toISOString(),
  });

  const cashInView = (entry: TransfeeraCashIn) => ({
    id: entry.id,
    value: centsToReais(entry.value),
    type: entry.type,
    end2end_id: entry.end2endId,
    txid: entry.txid,
    integration_id: entry.integrationId,
    pix_key: options.pixKeys[0],
    pix_description: null,
    date: entry.date,
    payer: TRANSFEERA_PAYER,
  });

  const transferView = (transfer: TransfeeraTransfer) => ({
    id: transfer.id,
    value: centsToReais(transfer.value),
    status: transfer.status,
    status_description: null,
    error: transfer.status === 'FALHA' ? { message: 'Chave Pix não encontrada' } : null,
    integration_id: transfer.integrationId,
    idempotency_key: transfer.idempotencyKey,
    created_at: transfer.createdAt,
    batch_id: transfer.batchId,
    pix_description: transfer.pixDescription,
    pix_end2end_id: transfer.status === 'FINALIZADO' ? `E${randomBytes(15).toString('hex').toUpperCase()}`.slice(0, 32) : null,
    destination_bank_account: { pix_key: transfer.pixKey, pix_key_type: transfer.pixKeyType, status: 'CRIADO' },
  });

  const batchView = (batch: TransfeeraBatch) => ({
    id: batch.id,
    name: batch.name,
    type: batch.type,
    status: batch.status,
    value: centsToReais(batch.transferIds.reduce((sum, id) => sum + transfers.get(id)!.value, 0)),
    transfers: batch.transferIds.map((id) => transferView(transfers.get(id)!)),
  });

  /** A Transfeera event to every webhook registered for its object, signed with `secret`. */
  async function deliver(object: string, body: string, secret = options.signatureSecret): Promise<number[]> {
    const targets = webhooks.filter((hook) => hook.objectTypes.includes(object));
    return Promise.all(
      targets.map(async (hook) => {
        const t = String(now().getTime());
        const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
        const response = await fetch(hook.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'transfeera-signature': `t=${t},v1=${v1}` },
          body,
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
  }

  const event = (object: string, data: unknown) =>
    JSON.stringify({ id: randomUUID(), version: 'v1', account_id: ACCOUNT_ID, object, date: now().toISOString(), data });

  function authorization(request: StandInRequest): StandInReply {
    const body = record(request.body);
    if (!request.headers['content-type']?.includes('application/json')) return refused('Content-Type must be application/json');
    if (body.grant_type !== 'client_credentials') return refused('grant_type must be client_credentials', 'grant_type');
    if (body.client_id !== options.clientId || body.client_secret !== options.clientSecret)
      return refused('Invalid client credentials', undefined, 'UNAUTHORIZED', 401);
    const accessToken = randomBytes(24).toString('base64url');
    tokens.add(accessToken);
    return { body: { access_token: accessToken, expires_in: 1800 } };
  }

  function createCollection(request: StandInRequest): StandInReply {
    const body = record(request.body);
    const pixKey = text(body.pix_key);
    if (!pixKey) return refused('pix_key is required', 'pix_key');
    if (!options.pixKeys.includes(pixKey)) return refused('Pix key not found in this account', 'pix_key', 'PIX_KEY_NOT_FOUND');
    const value = reais(body.original_value);
    if (value === undefined) return refused('original_value must be a positive value with up to 2 decimals', 'original_value');
    const txid = body.txid === undefined ? randomBytes(16).toString('hex') : text(body.txid);
    if (!txid || !TXID.test(txid)) return refused('txid must have 26 to 35 letters and digits', 'txid');
    if ([...qrCodes.values()].some((qr) => qr.txid === txid)) return refused('txid already used', 'txid', 'DUPLICATED_TXID');
    const expiration = body.expiration === undefined ? 86_400 : body.expiration;
    if (typeof expiration !== 'number' || !Number.isInteger(expiration) || expiration <= 0) return refused('expiration must be seconds', 'expiration');
    const payerBody = body.payer === undefined ? undefined : record(body.payer);
    if (payerBody && (!text(payerBody.name) || !/^(\d{11}|\d{14})$/.test(String(payerBody.document ?? ''))))
      return refused('payer needs a name and a CPF or CNPJ (digits)', 'payer');
    const pix = createDynamicPix({ merchantName: 'TRANSFEERA STAND-IN', merchantCity: 'BLUMENAU', url: `pix.transfeera.com/qr/v2/${randomUUID()}` });
    if (hasError(pix)) throw new Error('could not build a BR Code');
    const qr: TransfeeraQrCode = {
      id: randomUUID(),
      txid,
      integrationId: text(body.integration_id) ?? null,
      pixKey,
      value,
      expiration,
      status: 'ATIVA',
      emvPayload: pix.toBRCode(),
      payerQuestion: text(body.payer_question) ?? null,
      payer: payerBody ? { name: String(payerBody.name), document: String(payerBody.document) } : null,
      createdAt: now().toISOString(),
    };
    qrCodes.set(qr.id, qr);
    return { status: 201, body: qrView(qr) };
  }

  function listCashIn(request: StandInRequest): StandInReply {
    const { txid, integrationId, type } = request.query;
    const entries = [...cashIns.values()].filter(
      (entry) => (!txid || entry.txid === txid) && (!integrationId || entry.integrationId === integrationId) && (!type || entry.type === type),
    );
    return { body: { entries: entries.map(cashInView), pagination: { itemsPerPage: 100, totalItems: entries.length } } };
  }

  function refund(request: StandInRequest): StandInReply {
    const deposit = [...cashIns.values()].find((entry) => entry.end2endId === request.params.id && entry.type === 'DEPOSIT');
    if (!deposit) return notFound('Pix');
    const body = record(request.body);
    const integrationId = text(body.integration_id) ?? null;
    const earlier = integrationId
      ? [...cashIns.values()].find((entry) => entry.refundOf === deposit.end2endId && entry.integrationId === integrationId)
      : undefined;
    if (earlier) return { body: refundView(earlier) };
    const value = reais(body.value);
    if (value === undefined) return refused('value must be a positive value with up to 2 decimals', 'value');
    const refunded = [...cashIns.values()].filter((entry) => entry.refundOf === deposit.end2endId && entry.type !== 'CANCELLED_DEPOSIT_REFUND');
    const left = deposit.value - refunded.reduce((sum, entry) => sum + entry.value, 0);
    if (value > left) return refused('The refund value exceeds the amount available for refund', 'value', 'PIX_REFUND_VALUE');
    if (value > balance) return refused('Insufficient balance', 'value', 'INSUFFICIENT_BALANCE');
    balance -= value;
    const entry: TransfeeraCashIn = {
      id: randomUUID(),
      type: 'DEPOSIT_REFUND',
      value,
      end2endId: `D${randomBytes(15).toString('hex').toUpperCase()}`.slice(0, 32),
      txid: deposit.txid,
      integrationId,
      refundOf: deposit.end2endId,
      date: now().toISOString(),
    };
    cashIns.set(entry.id, entry);
    return { body: refundView(entry) };
  }

  const refundView = (entry: TransfeeraCashIn) => ({
    id: entry.id,
    end2end_id: entry.end2endId,
    value: centsToReais(entry.value),
    integration_id: entry.integrationId,
    type: entry.type,
  });

  /** A draft batch's transfers processed: RECEBIDO with the balance, else it waits. */
  function close(batch: TransfeeraBatch): void {
    const total = batch.transferIds.reduce((sum, id) => sum + transfers.get(id)!.value, 0);
    if (total > balance) {
      batch.status = 'AGUARDANDO_RECEBIMENTO';
      return;
    }
    balance -= total;
    batch.status = 'RECEBIDO';
    for (const id of batch.transferIds) transfers.get(id)!.status = 'RECEBIDO';
  }

  function createBatch(request: StandInRequest): StandInReply {
    const body = record(request.body);
    if (body.type !== 'TRANSFERENCIA') return refused('type must be TRANSFERENCIA or BOLETO', 'type');
    if (body.transfers !== undefined && !Array.isArray(body.transfers)) return refused('transfers must be a list', 'transfers');
    const list = (body.transfers ?? []) as unknown[];
    if (list.length > 5000) return refused('A batch holds at most 5000 payments', 'transfers');
    const batch: TransfeeraBatch = { id: String(++batchSequence), name: text(body.name) ?? '', type: 'TRANSFERENCIA', status: 'RASCUNHO', transferIds: [] };
    const created: TransfeeraTransfer[] = [];
    for (const [index, item] of list.entries()) {
      const transfer = record(item);
      const path = `transfers[${index}]`;
      const value = reais(transfer.value);
      if (value === undefined) return refused('value must be a positive value with up to 2 decimals', `${path}.value`);
      const account = record(transfer.destination_bank_account);
      const type = text(account.pix_key_type);
      const key = text(account.pix_key);
      const rule = type ? PIX_KEY_RULES[type] : undefined;
      if (!type || !rule) return refused('pix_key_type must be EMAIL, CPF, CNPJ, TELEFONE or CHAVE_ALEATORIA', `${path}.destination_bank_account.pix_key_type`);
      if (!key || !rule(key)) return refused(`Invalid ${type} pix key`, `${path}.destination_bank_account.pix_key`, 'DBA_PIX_KEY');
      const idempotencyKey = text(transfer.idempotency_key) ?? null;
      if (idempotencyKey && [...transfers.values()].some((known) => known.idempotencyKey === idempotencyKey))
        return refused('idempotency_key already used', `${path}.idempotency_key`, 'DUPLICATED_IDEMPOTENCY_KEY');
      created.push({
        id: String(++transferSequence),
        batchId: batch.id,
        value,
        status: 'CRIADA',
        integrationId: text(transfer.integration_id) ?? null,
        idempotencyKey,
        pixDescription: text(transfer.pix_description) ?? null,
        pixKeyType: type,
        pixKey: key,
        createdAt: now().toISOString(),
      });
    }
    for (const transfer of created) {
      transfers.set(transfer.id, transfer);
      batch.transferIds.push(transfer.id);
    }
    batches.set(batch.id, batch);
    if (body.auto_close === true) close(batch);
    return { status: 201, body: batchView(batch) };
  }

  const batchOf = (request: StandInRequest) => batches.get(request.params.id ?? '');

  const standIn = await startStandIn({
    name: 'Transfeera',
    sources: TRANSFEERA_SOURCES,
    authenticate: (request) => {
      const userAgent = request.headers['user-agent'] ?? '';
      userAgents.push(userAgent);
      if (!USER_AGENT.test(userAgent)) return refused('User-Agent must name your company and a contact e-mail: Company (contact@company.com)', 'User-Agent');
      if (request.path === '/authorization') return undefined;
      const token = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      return tokens.has(token) ? undefined : refused('Unauthorized', undefined, 'UNAUTHORIZED', 401);
    },
    routes: [
      { method: 'POST', path: '/authorization', handle: authorization },
      { method: 'POST', path: '/pix/qrcode/collection/immediate', handle: createCollection },
      {
        method: 'GET',
        path: '/pix/qrcode/{id}',
        handle: (request) => {
          const qr = qrCodes.get(request.params.id ?? '');
          return qr ? { body: qrView(qr) } : notFound('QR Code');
        },
      },
      { method: 'GET', path: '/pix/cashin', handle: listCashIn },
      {
        method: 'GET',
        path: '/pix/cashin/{id}',
        handle: (request) => {
          const entry = [...cashIns.values()].find((known) => known.end2endId === request.params.id);
          return entry ? { body: cashInView(entry) } : notFound('Pix');
        },
      },
      { method: 'POST', path: '/pix/cashin/{id}/refund', handle: refund },
      { method: 'POST', path: '/batch', handle: createBatch },
      {
        method: 'POST',
        path: '/batch/{id}/close',
        handle: (request) => {
          const batch = batchOf(request);
          if (!batch) return notFound('Batch');
          if (batch.status !== 'RASCUNHO') return refused('Only a draft batch can be closed', undefined, 'BATCH_STATUS');
          close(batch);
          return { body: batchView(batch) };
        },
      },
      {
        method: 'GET',
        path: '/batch/{id}',
        handle: (request) => {
          const batch = batchOf(request);
          return batch ? { body: batchView(batch) } : notFound('Batch');
        },
      },
      {
        method: 'GET',
        path: '/batch/{id}/transfer',
        handle: (request) => {
          const batch = batchOf(request);
          return batch ? { body: batch.transferIds.map((id) => transferView(transfers.get(id)!)) } : notFound('Batch');
        },
      },
      {
        method: 'GET',
        path: '/transfer/{id}',
        handle: (request) => {
          const transfer = transfers.get(request.params.id ?? '');
          return transfer ? { body: transferView(transfer) } : notFound('Transfer');
        },
      },
      {
        method: 'POST',
        path: '/webhook',
        handle: (request) => {
          const body = record(request.body);
          const url = text(body.url);
          if (!url) return refused('url is required', 'url');
          const objectTypes = Array.isArray(body.object_types) ? body.object_types.map(String) : [];
          if (!objectTypes.length) return refused('object_types is required', 'object_types');
          const hook = { id: randomUUID(), url, objectTypes };
          webhooks.push(hook);
          return { status: 201, body: { id: hook.id, url, object_types: objectTypes, signature_secret: options.signatureSecret } };
        },
      },
    ],
  });

  return {
    ...standIn,
    qrCodes,
    cashIns,
    batches,
    transfers,
    userAgents,
    get balance() {
      return balance;
    },
    async pay(txid: string) {
      const qr = [...qrCodes.values()].find((known) => known.txid === txid);
      if (!qr || qr.status !== 'ATIVA') throw new Error(`no open collection for txid ${txid}`);
      qr.status = 'CONCLUIDA';
      balance += qr.value;
      const entry: TransfeeraCashIn = {
        id: randomUUID(),
        type: 'DEPOSIT',
        value: qr.value,
        end2endId: `E00416968${now().toISOString().slice(0, 10).replace(/-/g, '')}${randomBytes(8).toString('hex')}`.slice(0, 32),
        txid,
        integrationId: qr.integrationId,
        refundOf: null,
        date: now().toISOString(),
      };
      cashIns.set(entry.id, entry);
      const data = {
        ...cashInView(entry),
        receipt_file_url: `https://app.transfeera.com/r/${entry.id}`,
        pix_description: qr.payerQuestion,
      };
      return deliver('CashIn', event('CashIn', data));
    },
    async settleBatch(batchId: string, outcome: 'FINALIZADO' | 'FALHA') {
      const batch = batches.get(batchId);
      if (!batch || batch.status !== 'RECEBIDO') throw new Error(`batch ${batchId} is not being processed`);
      batch.status = 'FINALIZADO';
      const codes: number[] = [];
      for (const id of batch.transferIds) {
        const transfer = transfers.get(id)!;
        transfer.status = outcome;
        if (outcome === 'FALHA') balance += transfer.value;
        codes.push(...(await deliver('Transfer', event('Transfer', transferView(transfer)))));
      }
      return codes;
    },
    deliver,
  };
}
