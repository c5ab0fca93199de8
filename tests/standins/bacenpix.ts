import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { request as httpsRequest } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { createServer as createTlsServer, type TLSSocket } from 'node:tls';
import { createDynamicPix, hasError, type PixDynamicObject } from 'pix-utils';
import {
  CreateTransactionRequest,
  GetTransactionRequest,
  GetWithdrawRequest,
  RefoundTransactionRequest,
  WithdrawRequest,
} from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { PaymentMethod, PixKeyType, StatusSource, TransactionStatus, WithdrawMethod, WithdrawStatus } from '../../gen/ts-proto/gateway/v1/types.js';
import { clearHttpsAgents, trustCertificateAuthority } from '../../server/lib/http/index.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { BacenPixAdapter, type BacenPixMember } from '../../server/providers/families/bacenPix/index.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import { failureOf } from '../support/clients.js';
import { eventually } from '../support/eventually.js';
import { startFileServer, testCertificates, type FileServer, type TestCertificates } from '../support/fakeProvider.js';
import { startTestStack, type TestStack } from '../support/gateway.js';
import { startStandIn, type StandIn, type StandInReply, type StandInRequest } from './standIn.js';

/**
 * A PSP of the Banco Central's API Pix, for the acceptance tests of the BACEN
 * API Pix family's members (VOLUTI, TREEAL, PODPAY, ONZ: tests/standins/<id>.test.ts),
 * written from the API Pix's own specification and, where a member's public
 * material differs, from that material. Served over HTTPS that asks every
 * client for its certificate (mTLS, as the BCB's security manual requires).
 *
 * From the API Pix (github.com/bacen/pix-api, openapi.yaml 2.9.0):
 * - OAuth2 client credentials at /oauth/token (securitySchemes.OAuth2), the
 *   client authenticated by HTTP Basic or by client_id/client_secret in the
 *   form (RFC 6749 §2.3.1, which the scheme points to);
 * - POST /cob (the PSP chooses the txid) and PUT /cob/{txid} (txid
 *   `[a-zA-Z0-9]{26,35}`), body CobSolicitada: `calendario`, `valor`, `chave`
 *   required; expiracao a positive integer; valor.original `\d{1,10}\.\d{2}`
 *   and not zero; devedor {cpf (11 digits), nome} or {cnpj, nome}, never both,
 *   no nome without a document; chave ≤ 77 and the receiver's own;
 *   solicitacaoPagador ≤ 140; 201 CobGerada (calendario{criacao, expiracao},
 *   txid, revisao 0, loc, location without scheme, status ATIVA, valor, chave,
 *   pixCopiaECola); GET /cob/{txid} CobCompleta with `pix` once paid, status
 *   CONCLUIDA; an unknown txid 404;
 * - PUT /pix/{e2eid}/devolucao/{id} {valor} (id `[a-zA-Z0-9]{1,35}`, chosen by
 *   the client): 201 Devolucao {id, rtrId (32 characters, starting with D),
 *   valor, natureza, horario{solicitacao}, status EM_PROCESSAMENTO}, later
 *   DEVOLVIDO (horario.liquidacao) or NAO_REALIZADO (motivo); GET on the same
 *   path reads it back, 404 when there is none; PixDevolucaoInvalida (400) for
 *   a valor off the schema, an id already used for that e2eid, or devoluções
 *   summing past the Pix's valor; GET /pix/{e2eid} the Pix;
 * - errors RFC 7807: {type: https://pix.bcb.gov.br/api/v2/error/<TipoErro>,
 *   title, status, detail, violacoes[{razao, propriedade}]} (CobOperacaoInvalida,
 *   NaoEncontrado, PixDevolucaoInvalida, AcessoNegado).
 *
 * From the members' public material (research, groups 1–2 and 3–4):
 * - the token request as each PSP reads it: JSON {grant_type, client_id,
 *   client_secret} (VOLUTI's integrations), form-encoded with the client
 *   credentials in the body (TREEAL's integrations; Onz's Infopago v2 write-up,
 *   where a JSON request is answered "404 Application not found"); Onz answers
 *   {accessToken, expiresAt} (the write-up), the others the OAuth2 answer;
 * - TREEAL answers POST /cob with {status, txid, pixCopiaECola} only, and
 *   notifies a paid cob as {data: {txId, status: LIQUIDATED, createdAt}}
 *   without an event type (its integrations);
 * - the {type, data} notifications of these PSPs: RECEIVE with
 *   data.status LIQUIDATED, its endToEndId and `debtorAccount` {ispb, name
 *   (the payer's bank's), issuer, number, document (the CPF/CNPJ masked),
 *   accountType} (Avista's RECEIVE page), REFUND with status REFUNDED and `refunds[]`,
 *   TRANSFER with LIQUIDATED or CANCELED and its `errorCode` (Avista's "PIX Bacen" webhooks V2 for
 *   RECEIVE/REFUND/TRANSFER; the Onz transfer webhook of its white label
 *   Pagstar, docs.pagstar.com, for TRANSFER);
 * - payouts POST /pix/payments/dict {pixKey, payment{amount (reais, a number),
 *   currency BRL}, description?, creditorDocument?, paymentFlow?} with
 *   `x-idempotency-key` (required; Onz: `[a-zA-Z0-9]{1,50}`), answered 202
 *   {endToEndId, status PROCESSING} (Pagstar's cash-out page; the write-up;
 *   the Treeal/FyHub tests); the same key answers the first payout again (Avista
 *   "PIX Bacen", Idempotência); GET /pix/payments/{e2eid} reads it (the write-up);
 *   errors {type, title, detail} with onz-0002 "Invalid params" (the write-up).
 *
 * The stand-in's own readings, where those sources are silent: the text of a
 * 401 for a missing or unknown bearer token; the e2eid/rtrId ISPB (99999999);
 * a cob is paid by `pay`, a devolução settled by `settleDevolucoes`, a payout by
 * `settlePayout`, each sending the member's notification to the URL set in the
 * PSP's panel (`webhookUrl`); a payout needs no balance.
 */
export const BACEN_PIX_SOURCES = {
  apiPix: 'https://github.com/bacen/pix-api/blob/0d74e5e1a2eefc0eb3f373860d1266ceab5f864e/openapi.yaml',
  avistaCob: 'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/endpoints/cob.mdx',
  avistaDevolucao: 'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/endpoints/devolucao.mdx',
  avistaDictPix: 'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/endpoints/dict-pix.mdx',
  avistaWebhooks: 'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/webhooks/overview.mdx',
  avistaReceive: 'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/webhooks/receive.mdx',
  avistaRefund: 'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/webhooks/refund.mdx',
  avistaTransfer: 'https://github.com/advanced-digital-services/docs/blob/8349efdc296d4562c33723078abe8b3f2d802cd2/pix-bacen/webhooks/transfer.mdx',
  onzTransferWebhook: 'https://docs.pagstar.com/reference/account-api-configure-webhook',
  onzCashOut: 'https://docs.pagstar.com/reference/criar-transfer%C3%AAncia-com-dados-banc%C3%A1rios-copy',
} as const;

const PROBLEM_TYPE = 'https://pix.bcb.gov.br/api/v2/error/';
const REAIS = /^\d{1,10}\.\d{2}$/;
const TXID = /^[a-zA-Z0-9]{26,35}$/;
const DEVOLUCAO_ID = /^[a-zA-Z0-9]{1,35}$/;
/** The ISPB in the stand-in's end-to-end ids. */
const ISPB = '99999999';

type Json = Record<string, unknown>;

/** The payer's bank in RECEIVE's `debtorAccount`, as Avista's RECEIVE page shows it. */
export const STAND_IN_PAYER_BANK = { ispb: '18236120', name: 'NU PAGAMENTOS S.A.', issuer: '260' } as const;

/** RECEIVE's `debtorAccount`: the payer's bank and account, the document masked as the page shows it ("123.xxx.xxx-xx"). */
function debtorAccountOf(cob: Cob): Json {
  const cpf = typeof cob.devedor?.cpf === 'string' ? cob.devedor.cpf : undefined;
  const cnpj = typeof cob.devedor?.cnpj === 'string' ? cob.devedor.cnpj : undefined;
  const document = cpf ? `${cpf.slice(0, 3)}.xxx.xxx-xx` : cnpj ? `${cnpj.slice(0, 2)}.xxx.xxx/xxxx-xx` : null;
  return { ...STAND_IN_PAYER_BANK, number: '12345-6', document, accountType: null };
}

export interface BacenPixStandInOptions {
  /** The member, for messages. */
  name: string;
  /** The addresses it was written from (default the family's, BACEN_PIX_SOURCES). */
  sources?: readonly string[];
  /** The API Pix's devolução and Pix reads (default served; false where the member's documentation shows none). */
  devolucoes?: boolean;
  clientId: string;
  clientSecret: string;
  /** The receiving key registered to this client: every cob must name it. */
  chave: string;
  /** How the PSP reads the token request and what it answers ('pagstar': {access_token, expires_in 300, refresh_expires_in 0, token_type}). */
  token: { body: 'form' | 'json'; answer: 'oauth' | 'onz' | 'pagstar' };
  /** 'cob' (CobGerada, the default) or TREEAL's {status, txid, pixCopiaECola}. */
  cobAnswer?: 'cob' | 'brief';
  /**
   * How a paid cob is notified: {type: 'RECEIVE', data} (default), TREEAL's {data}
   * without a type, or not at all ('none': a PSP whose documentation shows no
   * cash-in notification, Pagstar; its charges are known by GET /cob).
   */
  receiveEvent?: 'typed' | 'untyped' | 'none';
  /**
   * Payouts by POST /pix/payments/dict; `idempotencyKey` is the header's
   * pattern. `lookup`: read back by GET /pix/payments/{e2eid} (default) or by
   * GET /pix/payments/idempotencyKey/{key} answering {data} (Pagstar's Accounts
   * API). `accepted`: the 202's body, {endToEndId, status} (default) or none
   * (Pagstar documents only "202 Accepted").
   */
  payouts?: { idempotencyKey: RegExp; lookup?: 'endToEndId' | 'idempotencyKey'; accepted?: 'body' | 'empty' };
  certificates: TestCertificates;
  now?: () => Date;
}

interface Devolucao {
  id: string;
  rtrId: string;
  cents: number;
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';
  solicitacao: string;
  liquidacao?: string;
  motivo?: string;
}

interface Pix {
  endToEndId: string;
  txid: string;
  cents: number;
  horario: string;
  devolucoes: Devolucao[];
  /** Who paid, as RECEIVE's `debtorAccount` names it (the API Pix's Pix has no payer). */
  debtorAccount: Json;
}

interface Cob {
  txid: string;
  criacao: string;
  expiracao: number;
  status: 'ATIVA' | 'CONCLUIDA';
  cents: number;
  chave: string;
  devedor?: Json;
  solicitacaoPagador?: string;
  location: string;
  locId: number;
  pixCopiaECola: string;
  pix?: Pix;
  /** The PSP's id of the Pix, as its notifications carry it. */
  eventId: number;
}

interface Payout {
  id: number;
  endToEndId: string;
  idempotencyKey: string;
  pixKey: string;
  cents: number;
  status: 'PROCESSING' | 'LIQUIDATED' | 'CANCELED';
  createdAt: string;
  description?: string;
  answer: StandInReply;
}

export interface BacenPixStandIn extends StandIn {
  /** The URL set in the PSP's panel for its notifications; nothing is sent until it is set. */
  webhookUrl: string | undefined;
  /** The common names of the client certificates presented, one per TLS connection. */
  readonly clientCertificates: string[];
  /** Connections refused in the TLS handshake (no client certificate, or one the PSP does not trust). */
  readonly refusedHandshakes: number;
  /** The payer paying a cob in full: CONCLUIDA with its Pix; the member's RECEIVE notification is sent. Returns the Pix's endToEndId. */
  pay(txid: string): Promise<string>;
  /** The payer's bank answering the devoluções in progress of a cob's Pix: DEVOLVIDO (or NAO_REALIZADO); the member's REFUND notification is sent. */
  settleDevolucoes(txid: string, outcome?: 'DEVOLVIDO' | 'NAO_REALIZADO'): Promise<void>;
  /** A payout (by its endToEndId or idempotency key) reaching the payee's bank (LIQUIDATED) or failing (CANCELED); the TRANSFER notification is sent. */
  settlePayout(id: string, outcome?: 'LIQUIDATED' | 'CANCELED'): Promise<void>;
  /** A cob as GET /cob/{txid} answers it now (undefined when unknown). */
  cob(txid: string): Json | undefined;
  /** A payout (by its endToEndId or idempotency key) as GET /pix/payments/{e2eid} answers it now. */
  payout(id: string): Json | undefined;
  /** Every notification sent: its kind and the HTTP status the receiver answered. */
  readonly delivered: Array<{ type: string; status: number }>;
}

const problem = (status: number, tipo: string, title: string, detail: string, violacoes?: Array<{ razao: string; propriedade: string }>): StandInReply => ({
  status,
  body: { type: `${PROBLEM_TYPE}${tipo}`, title, status, detail, ...(violacoes ? { violacoes } : {}) },
  headers: { 'content-type': 'application/problem+json' },
});
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const alphanumeric = (length: number): string => {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return [...randomBytes(length)].map((byte) => chars[byte % chars.length]).join('');
};
const cents = (reais: string): number => {
  const [whole, fraction] = reais.split('.') as [string, string];
  return Number(whole) * 100 + Number(fraction);
};
const reais = (amount: number): string => `${Math.trunc(amount / 100)}.${String(amount % 100).padStart(2, '0')}`;

/** The violations of a CobSolicitada against the API Pix's schema and rules (CobOperacaoInvalida). */
function cobViolations(body: unknown, chave: string): Array<{ razao: string; propriedade: string }> {
  const violations: Array<{ razao: string; propriedade: string }> = [];
  const off = (propriedade: string, razao = `O campo ${propriedade} não respeita o _schema_.`) => violations.push({ razao, propriedade });
  if (!isObject(body)) return [{ razao: 'O corpo não respeita o _schema_.', propriedade: 'cob' }];
  const calendario = body.calendario;
  if (!isObject(calendario)) off('cob.calendario');
  else if (calendario.expiracao !== undefined && (!Number.isInteger(calendario.expiracao) || (calendario.expiracao as number) <= 0))
    off('cob.calendario.expiracao', 'O campo cob.calendario.expiracao é igual ou menor que zero.');
  const valor = body.valor;
  if (!isObject(valor) || typeof valor.original !== 'string' || !REAIS.test(valor.original)) off('cob.valor.original');
  else if (cents(valor.original) === 0) off('cob.valor.original', 'O campo cob.valor.original é zero.');
  if (typeof body.chave !== 'string' || body.chave.length > 77) off('cob.chave');
  else if (body.chave !== chave) off('cob.chave', 'O campo cob.chave corresponde a uma conta que não pertence a este usuário recebedor.');
  if (body.devedor !== undefined) {
    const devedor = body.devedor;
    const valid =
      isObject(devedor) &&
      typeof devedor.nome === 'string' &&
      devedor.nome.length <= 200 &&
      (devedor.cpf === undefined) !== (devedor.cnpj === undefined) &&
      (devedor.cpf === undefined || (typeof devedor.cpf === 'string' && /^\d{11}$/.test(devedor.cpf))) &&
      (devedor.cnpj === undefined || (typeof devedor.cnpj === 'string' && /^[0-9A-Z]{14}$/.test(devedor.cnpj)));
    if (!valid) off('cob.devedor');
  }
  if (body.solicitacaoPagador !== undefined && (typeof body.solicitacaoPagador !== 'string' || body.solicitacaoPagador.length > 140))
    off('cob.solicitacaoPagador');
  return violations;
}

/** HTTPS in front of the stand-in that asks every client for a certificate signed by the platform's CA, and refuses the handshake without one. */
async function mtlsFront(upstream: string, certificates: TestCertificates, seen: string[], refused: { count: number }) {
  const { port } = new URL(upstream);
  const open = new Set<TLSSocket>();
  const server = createTlsServer(
    { key: certificates.serverKey, cert: certificates.serverCert, ca: certificates.ca, requestCert: true, rejectUnauthorized: true },
    (socket: TLSSocket) => {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      seen.push(String(socket.getPeerCertificate().subject?.CN ?? ''));
      const inner = connect(Number(port), '127.0.0.1');
      socket.pipe(inner).pipe(socket);
      const end = () => {
        socket.destroy();
        inner.destroy();
      };
      socket.on('error', end);
      inner.on('error', end);
      socket.on('close', () => inner.destroy());
      inner.on('close', () => socket.destroy());
    },
  );
  server.on('tlsClientError', () => {
    refused.count += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The code a cancelled payout carries: AB03 ("settlement interrupted due to SPI timeout"), the example of Pagstar's
 * transfer webhook and one of the codes its transfer details list (docs.pagstar.com).
 */
export const CANCELLED_ERROR_CODE = 'AB03';

export async function startBacenPixStandIn(options: BacenPixStandInOptions): Promise<BacenPixStandIn> {
  const now = options.now ?? (() => new Date());
  const stamp = () => now().toISOString();
  const e2e = (prefix: 'E' | 'D') => `${prefix}${ISPB}${stamp().replace(/[-:T]/g, '').slice(0, 12)}${alphanumeric(11)}`;
  const tokens = new Set<string>();
  const cobs = new Map<string, Cob>();
  const pixByE2e = new Map<string, Pix>();
  const payouts = new Map<string, Payout>();
  const payoutsByKey = new Map<string, Payout>();
  const delivered: Array<{ type: string; status: number }> = [];
  let nextEventId = 557737461;
  let nextLocId = 789;
  let nextPayoutId = 1448625;

  const fullCob = (cob: Cob): Json => ({
    calendario: { criacao: cob.criacao, expiracao: cob.expiracao },
    txid: cob.txid,
    revisao: 0,
    loc: { id: cob.locId, location: cob.location, tipoCob: 'cob', criacao: cob.criacao },
    location: cob.location,
    status: cob.status,
    ...(cob.devedor ? { devedor: cob.devedor } : {}),
    valor: { original: reais(cob.cents) },
    chave: cob.chave,
    ...(cob.solicitacaoPagador ? { solicitacaoPagador: cob.solicitacaoPagador } : {}),
    pixCopiaECola: cob.pixCopiaECola,
  });
  /** POST /cob's answer: CobGerada, or TREEAL's three fields. */
  const cobView = (cob: Cob): Json => (options.cobAnswer === 'brief' ? { status: cob.status, txid: cob.txid, pixCopiaECola: cob.pixCopiaECola } : fullCob(cob));
  const devolucaoView = (devolucao: Devolucao): Json => ({
    id: devolucao.id,
    rtrId: devolucao.rtrId,
    valor: reais(devolucao.cents),
    natureza: 'ORIGINAL',
    horario: { solicitacao: devolucao.solicitacao, ...(devolucao.liquidacao ? { liquidacao: devolucao.liquidacao } : {}) },
    status: devolucao.status,
    ...(devolucao.motivo ? { motivo: devolucao.motivo } : {}),
  });
  const pixView = (pix: Pix): Json => ({
    endToEndId: pix.endToEndId,
    txid: pix.txid,
    valor: reais(pix.cents),
    horario: pix.horario,
    ...(pix.devolucoes.length ? { devolucoes: pix.devolucoes.map(devolucaoView) } : {}),
  });
  /** GET /cob/{txid}: CobCompleta, with its Pix once paid. */
  const cobRead = (cob: Cob): Json => ({ ...fullCob(cob), ...(cob.pix ? { pix: [pixView(cob.pix)] } : {}) });
  const payoutView = (payout: Payout): Json => ({
    id: payout.id,
    endToEndId: payout.endToEndId,
    idempotencyKey: payout.idempotencyKey,
    pixKey: payout.pixKey,
    status: payout.status,
    payment: { amount: payout.cents / 100, currency: 'BRL' },
    createdAt: payout.createdAt,
    ...(payout.status === 'PROCESSING' ? {} : { eventDate: stamp() }),
  });

  let webhookUrl: string | undefined;
  async function notify(type: string, body: Json): Promise<void> {
    if (!webhookUrl) return;
    const response = await fetch(webhookUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await response.text();
    delivered.push({ type, status: response.status });
  }

  function createCob(txid: string, body: unknown): StandInReply {
    const violacoes = cobViolations(body, options.chave);
    if (violacoes.length)
      return problem(
        400,
        'CobOperacaoInvalida',
        'Cobrança inválida.',
        'A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.',
        violacoes,
      );
    const request = body as Json & { calendario: Json; valor: { original: string } };
    const locId = nextLocId++;
    const location = `pix.standin.example/qr/v2/${alphanumeric(32).toLowerCase()}`;
    const brCode = createDynamicPix({ merchantName: 'LOJA STANDIN', merchantCity: 'SAO PAULO', url: location });
    if (hasError(brCode)) throw new Error('could not build the BR Code');
    const cob: Cob = {
      txid,
      criacao: stamp(),
      expiracao: (request.calendario.expiracao as number | undefined) ?? 86_400,
      status: 'ATIVA',
      cents: cents(request.valor.original),
      chave: request.chave as string,
      ...(isObject(request.devedor) ? { devedor: request.devedor } : {}),
      ...(typeof request.solicitacaoPagador === 'string' ? { solicitacaoPagador: request.solicitacaoPagador } : {}),
      location,
      locId,
      pixCopiaECola: (brCode as PixDynamicObject).toBRCode(),
      eventId: nextEventId++,
    };
    cobs.set(txid, cob);
    return { status: 201, body: cobView(cob) };
  }

  function requestDevolucao(request: StandInRequest): StandInReply {
    const pix = pixByE2e.get(request.params.e2eid!);
    if (!pix) return problem(404, 'NaoEncontrado', 'Não Encontrado', 'Entidade não encontrada.');
    const invalid = (detail: string) => problem(400, 'PixDevolucaoInvalida', 'Devolução inválida.', detail);
    const id = request.params.id!;
    const body = request.body;
    if (!DEVOLUCAO_ID.test(id)) return invalid('O id da devolução não respeita o _schema_.');
    if (!isObject(body) || typeof body.valor !== 'string' || !REAIS.test(body.valor) || cents(body.valor) === 0)
      return invalid('O campo devolucao.valor não respeita o _schema_.');
    if (pix.devolucoes.some((devolucao) => devolucao.id === id))
      return invalid('A presente requisição de devolução apresenta um {id} já utilizado por outra requisição de devolução para o {e2eid} em questão.');
    const asked = cents(body.valor);
    const taken = pix.devolucoes.filter((devolucao) => devolucao.status !== 'NAO_REALIZADO').reduce((sum, devolucao) => sum + devolucao.cents, 0);
    if (taken + asked > pix.cents)
      return invalid('A presente requisição de devolução, em conjunto com as demais prévias devoluções, excederia o valor do pix originário.');
    const devolucao: Devolucao = { id, rtrId: e2e('D'), cents: asked, status: 'EM_PROCESSAMENTO', solicitacao: stamp() };
    pix.devolucoes.push(devolucao);
    return { status: 201, body: devolucaoView(devolucao) };
  }

  function requestPayout(request: StandInRequest): StandInReply {
    const invalid = (detail: string): StandInReply => ({ status: 400, body: { type: 'onz-0002', title: 'Invalid params', detail } });
    const key = request.headers['x-idempotency-key'];
    if (!key) return invalid('x-idempotency-key is required');
    if (!options.payouts!.idempotencyKey.test(key)) return invalid('x-idempotency-key must match [a-zA-Z0-9]{1,50}');
    const known = payoutsByKey.get(key);
    if (known) return known.answer;
    const body = request.body;
    const payment = isObject(body) ? body.payment : undefined;
    if (!isObject(body) || typeof body.pixKey !== 'string' || !body.pixKey) return invalid('pixKey is required');
    if (!isObject(payment) || typeof payment.amount !== 'number' || payment.amount <= 0 || Math.round(payment.amount * 100) !== payment.amount * 100)
      return invalid('payment.amount must be a number of reais with at most two decimals');
    if (payment.currency !== undefined && payment.currency !== 'BRL') return invalid('payment.currency must be BRL');
    const endToEndId = e2e('E');
    const payout: Payout = {
      id: nextPayoutId++,
      endToEndId,
      idempotencyKey: key,
      pixKey: body.pixKey,
      cents: Math.round(payment.amount * 100),
      status: 'PROCESSING',
      createdAt: stamp(),
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      answer: options.payouts!.accepted === 'empty' ? { status: 202 } : { status: 202, body: { endToEndId, status: 'PROCESSING' } },
    };
    payouts.set(endToEndId, payout);
    payoutsByKey.set(key, payout);
    return payout.answer;
  }

  function token(request: StandInRequest): StandInReply {
    const json = request.headers['content-type']?.includes('application/json');
    if (options.token.body === 'form' && json) return { status: 404, body: { message: 'Application not found' } };
    if (options.token.body === 'json' && !json)
      return { status: 415, body: { error: 'invalid_request', error_description: 'Content-Type must be application/json' } };
    const body = isObject(request.body) ? request.body : {};
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
    const [basicId, basicSecret] = basic ? Buffer.from(basic[1]!, 'base64').toString('utf8').split(':') : [];
    const clientId = basicId ?? body.client_id;
    const clientSecret = basicSecret ?? body.client_secret;
    if (body.grant_type !== 'client_credentials') return { status: 400, body: { error: 'unsupported_grant_type' } };
    if (clientId !== options.clientId || clientSecret !== options.clientSecret) return { status: 401, body: { error: 'invalid_client' } };
    const accessToken = alphanumeric(40);
    tokens.add(accessToken);
    if (options.token.answer === 'onz') return { body: { accessToken, expiresAt: Math.floor(now().getTime() / 1000) + 3600 } };
    if (options.token.answer === 'pagstar') return { body: { access_token: accessToken, expires_in: 300, refresh_expires_in: 0, token_type: 'Bearer' } };
    return { body: { access_token: accessToken, token_type: 'Bearer', expires_in: 3600, scope: 'cob.write cob.read pix.write pix.read' } };
  }

  const seen: string[] = [];
  const refused = { count: 0 };
  const inner = await startStandIn({
    name: options.name,
    sources: options.sources ?? Object.values(BACEN_PIX_SOURCES),
    authenticate: (request) => {
      if (request.path === '/oauth/token') return undefined;
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      return bearer && tokens.has(bearer)
        ? undefined
        : { status: 401, body: { title: 'Não autorizado', status: 401, detail: 'token de acesso ausente ou inválido' } };
    },
    routes: [
      { method: 'POST', path: '/oauth/token', handle: token },
      { method: 'POST', path: '/cob', handle: (request) => createCob(alphanumeric(32), request.body) },
      {
        method: 'PUT',
        path: '/cob/{txid}',
        handle: (request) => {
          const txid = request.params.txid!;
          if (!TXID.test(txid)) return problem(400, 'CobOperacaoInvalida', 'Cobrança inválida.', 'O txid não respeita o _schema_.');
          if (cobs.get(txid)?.status === 'CONCLUIDA')
            return problem(
              400,
              'CobOperacaoInvalida',
              'Cobrança inválida.',
              'A cobrança já existe, não está no status ATIVA, e a presente requisição busca alterá-la.',
            );
          return createCob(txid, request.body);
        },
      },
      {
        method: 'GET',
        path: '/cob/{txid}',
        handle: (request) => {
          const cob = cobs.get(request.params.txid!);
          return cob ? { body: cobRead(cob) } : problem(404, 'CobNaoEncontrado', 'Cobrança não encontrada.', 'Cobrança não encontrada para o txid informado.');
        },
      },
      ...(options.devolucoes === false
        ? []
        : [
            {
              method: 'GET' as const,
              path: '/pix/{e2eid}',
              handle: (request: StandInRequest): StandInReply => {
                const pix = pixByE2e.get(request.params.e2eid!);
                return pix ? { body: pixView(pix) } : problem(404, 'PixNaoEncontrado', 'Pix não encontrado.', 'Pix não encontrado para o e2eid informado.');
              },
            },
            { method: 'PUT' as const, path: '/pix/{e2eid}/devolucao/{id}', handle: requestDevolucao },
            {
              method: 'GET' as const,
              path: '/pix/{e2eid}/devolucao/{id}',
              handle: (request: StandInRequest): StandInReply => {
                const devolucao = pixByE2e.get(request.params.e2eid!)?.devolucoes.find((each) => each.id === request.params.id);
                return devolucao
                  ? { body: devolucaoView(devolucao) }
                  : problem(404, 'PixDevolucaoNaoEncontrada', 'Devolução não encontrada.', 'Devolução não encontrada para o e2eid informado.');
              },
            },
          ]),
      ...(options.payouts
        ? [
            { method: 'POST' as const, path: '/pix/payments/dict', handle: requestPayout },
            options.payouts.lookup === 'idempotencyKey'
              ? {
                  method: 'GET' as const,
                  path: '/pix/payments/idempotencyKey/{key}',
                  handle: (request: StandInRequest): StandInReply => {
                    const payout = payoutsByKey.get(request.params.key!);
                    // Pagstar's transfer details name the SPI code that cancelled a transfer in `errorCode`.
                    return payout
                      ? { body: { data: { ...payoutView(payout), errorCode: payout.status === 'CANCELED' ? CANCELLED_ERROR_CODE : null } } }
                      : { status: 404, body: { type: 'onz-0002', title: 'Not found', detail: 'payment not found' } };
                  },
                }
              : {
                  method: 'GET' as const,
                  path: '/pix/payments/{e2eid}',
                  handle: (request: StandInRequest): StandInReply => {
                    const payout = payouts.get(request.params.e2eid!);
                    return payout ? { body: payoutView(payout) } : { status: 404, body: { type: 'onz-0002', title: 'Not found', detail: 'payment not found' } };
                  },
                },
          ]
        : []),
    ],
  });
  const front = await mtlsFront(inner.url, options.certificates, seen, refused);

  const receiveEvent = (cob: Cob, pix: Pix): Json => {
    const data = { id: cob.eventId, txId: cob.txid, status: 'LIQUIDATED', createdAt: pix.horario };
    if (options.receiveEvent === 'untyped') return { data };
    return {
      type: 'RECEIVE',
      data: {
        ...data,
        pixKey: cob.chave,
        payment: { amount: reais(pix.cents), currency: 'BRL' },
        refunds: [],
        errorCode: null,
        endToEndId: pix.endToEndId,
        webhookType: 'RECEIVE',
        debtorAccount: pix.debtorAccount,
        idempotencyKey: null,
        creditDebitType: 'CREDIT',
        localInstrument: 'DICT',
        transactionType: 'PIX',
      },
    };
  };

  return {
    ...inner,
    url: front.url,
    get webhookUrl() {
      return webhookUrl;
    },
    set webhookUrl(url: string | undefined) {
      webhookUrl = url;
    },
    clientCertificates: seen,
    get refusedHandshakes() {
      return refused.count;
    },
    delivered,
    async pay(txid) {
      const cob = cobs.get(txid);
      if (!cob || cob.status !== 'ATIVA') throw new Error(`${options.name} stand-in: no cob ${txid} to pay`);
      const pix: Pix = { endToEndId: e2e('E'), txid, cents: cob.cents, horario: stamp(), devolucoes: [], debtorAccount: debtorAccountOf(cob) };
      cob.status = 'CONCLUIDA';
      cob.pix = pix;
      pixByE2e.set(pix.endToEndId, pix);
      if (options.receiveEvent !== 'none') await notify('RECEIVE', receiveEvent(cob, pix));
      return pix.endToEndId;
    },
    async settleDevolucoes(txid, outcome = 'DEVOLVIDO') {
      const cob = cobs.get(txid);
      const pending = cob?.pix?.devolucoes.filter((devolucao) => devolucao.status === 'EM_PROCESSAMENTO') ?? [];
      if (!cob?.pix || !pending.length) throw new Error(`${options.name} stand-in: no devolução in progress for ${txid}`);
      for (const devolucao of pending) {
        devolucao.status = outcome;
        if (outcome === 'DEVOLVIDO') devolucao.liquidacao = stamp();
        else devolucao.motivo = 'Negado pelo PSP do pagador';
      }
      const returned = cob.pix.devolucoes.filter((devolucao) => devolucao.status === 'DEVOLVIDO');
      if (options.receiveEvent === 'untyped' || options.receiveEvent === 'none' || outcome !== 'DEVOLVIDO') return;
      await notify('REFUND', {
        type: 'REFUND',
        data: {
          id: cob.eventId,
          txId: cob.txid,
          pixKey: cob.chave,
          status: 'REFUNDED',
          payment: { amount: reais(cob.pix.cents), currency: 'BRL' },
          refunds: returned.map((devolucao) => ({
            status: 'LIQUIDATED',
            payment: { amount: devolucao.cents / 100, currency: 'BRL' },
            errorCode: null,
            eventDate: devolucao.liquidacao,
            endToEndId: devolucao.rtrId,
            information: null,
          })),
          createdAt: cob.pix.horario,
          errorCode: null,
          endToEndId: cob.pix.endToEndId,
          webhookType: 'REFUND',
          creditDebitType: 'DEBIT',
          localInstrument: 'DICT',
          transactionType: 'PIX',
        },
      });
    },
    async settlePayout(id, outcome = 'LIQUIDATED') {
      const payout = payouts.get(id) ?? payoutsByKey.get(id);
      if (!payout || payout.status !== 'PROCESSING') throw new Error(`${options.name} stand-in: no payout ${id} in progress`);
      payout.status = outcome;
      await notify('TRANSFER', {
        type: 'TRANSFER',
        data: {
          id: payout.id,
          idempotencyKey: payout.idempotencyKey,
          endToEndId: payout.endToEndId,
          pixKey: payout.pixKey,
          transactionType: 'PIX',
          status: outcome,
          errorCode: outcome === 'CANCELED' ? CANCELLED_ERROR_CODE : null,
          creditDebitType: 'DEBIT',
          localInstrument: 'DICT',
          createdAt: payout.createdAt,
          remittanceInformation: payout.description ?? null,
          txId: null,
          payment: { currency: 'BRL', amount: payout.cents / 100 },
          refunds: [],
        },
      });
    },
    cob: (txid) => {
      const cob = cobs.get(txid);
      return cob ? cobRead(cob) : undefined;
    },
    payout: (id) => {
      const payout = payouts.get(id) ?? payoutsByKey.get(id);
      return payout ? payoutView(payout) : undefined;
    },
    close: async () => {
      await front.close();
      await inner.close();
    },
  };
}

// ---------------------------------------------------------------- the members' acceptance scenario

export interface BacenPixAcceptance {
  /** The member's declaration, as registered. */
  member: BacenPixMember;
  /** How its PSP behaves where the members differ (the stand-in's options, less what the scenario sets). */
  standIn: Pick<BacenPixStandInOptions, 'token' | 'cobAnswer' | 'receiveEvent'>;
  /** The addresses its declaration may name as evidence; none: the member declares none (no public material of its own). */
  evidence?: readonly string[];
  /** The account's api_version: 'public' where the refund by devolução is the public dialect, not the specification's. */
  apiVersion?: string;
  /**
   * Payouts: the status at creation, and whether a TRANSFER notification can be
   * confirmed (a payout lookup). `cashOutHost`: the member pays out at a host of
   * its own, fixed in its declaration; the scenario registers the same
   * declaration under `testId` with that host pointed at the stand-in.
   */
  payout: { atCreation: 'PENDING' | 'APPROVED'; lookup: boolean; cashOutHost?: { testId: string } };
}

const CUSTOMER = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };
const CLIENT_SECRET = 'standin-secret-7f3c9e21';
const CHAVE = '7d9f0335-8dcc-4054-9bf9-0dbd61d36906';

/**
 * A member's acceptance test: the whole gateway, through its public gRPC
 * contract, against the stand-in over mTLS: a PIX charge (its cob, BR Code and
 * validity), read back, paid by the member's notification and confirmed with
 * GET /cob; partial and full refunds by devolução (one sent again with its key
 * is not made twice), returned by the payer's bank; a payout by
 * /pix/payments/dict settled by the TRANSFER notification; the PSP's own
 * refusal of a cob reaching the caller; a client without the platform's
 * certificate refused in the handshake.
 */
export function bacenPixAcceptance(scenario: BacenPixAcceptance): void {
  const { member } = scenario;
  const id = member.identity.id;
  const clientId = `${id.toLowerCase()}-standin-client`;
  let stack: TestStack;
  let standIn: BacenPixStandIn;
  let files: FileServer;
  let untrust: () => void;
  let accountId: string;
  let payoutAccountId: string;
  const extraProviders: BacenPixAdapter[] = [];

  beforeAll(async () => {
    const certificates = await testCertificates();
    files = await startFileServer({ '/platform/cash-in.pem': certificates.clientPem, '/platform/cash-out.pem': certificates.clientPem });
    standIn = await startBacenPixStandIn({
      name: id,
      clientId,
      clientSecret: CLIENT_SECRET,
      chave: CHAVE,
      ...scenario.standIn,
      payouts: { idempotencyKey: /^[a-zA-Z0-9]{1,50}$/ },
      certificates,
    });
    // The gateway runs in this process: its provider clients trust the stand-in's throwaway CA from here on.
    untrust = trustCertificateAuthority(certificates.ca);
    const cashOut = scenario.payout.cashOutHost;
    if (cashOut)
      extraProviders.push(
        new BacenPixAdapter({ ...member, identity: { ...member.identity, id: cashOut.testId }, payout: { ...member.payout!, baseUrl: standIn.url } }),
      );
    stack = await startTestStack({ extraProviders });
    const account = async (provider: string, chave = CHAVE) =>
      (
        await stack.client.call('accounts', 'createProviderAccount', {
          provider,
          name: `${provider} against the API Pix stand-in`,
          publicKey: `${clientId}|${chave}`,
          secretKey: CLIENT_SECRET,
          baseUrl: standIn.url,
          platformId: 'platform-standin',
          certCashInUrl: files.url('/platform/cash-in.pem'),
          certCashOutUrl: files.url('/platform/cash-out.pem'),
          ...(scenario.apiVersion ? { apiVersion: scenario.apiVersion } : {}),
        })
      ).providerAccount;
    const main = await account(id);
    accountId = main.id;
    // The PSP sends every notification of the client to the URL set in its panel.
    standIn.webhookUrl = main.notificationUrl;
    payoutAccountId = cashOut ? (await account(cashOut.testId)).id : accountId;
  });

  afterAll(async () => {
    await stack?.close();
    untrust?.();
    clearHttpsAgents();
    await standIn?.close();
    await files?.close();
  });

  const charge = async (amount: number, providerAccountId = accountId) =>
    (
      await stack.client.call(
        'gateway',
        'createTransaction',
        CreateTransactionRequest.fromPartial({
          providerAccountId,
          transaction: { amount, paymentMethod: PaymentMethod.PAYMENT_METHOD_PIX, customer: CUSTOMER, description: 'Pedido 42' },
        }),
      )
    ).transaction;
  const read = async (transactionId: string, refresh = false) =>
    (await stack.client.call('gateway', 'getTransaction', GetTransactionRequest.fromPartial({ id: transactionId, refresh }))).transaction;
  const refund = (transactionId: string, amount: number, idempotencyKey: string) =>
    stack.client.call(
      'gateway',
      'refoundTransaction',
      RefoundTransactionRequest.fromPartial({ providerAccountId: accountId, id: transactionId, amount, idempotencyKey }),
    );
  const becomes = (transactionId: string, status: TransactionStatus) =>
    eventually(
      async () => {
        const current = await read(transactionId);
        return current.status === status && current;
      },
      15_000,
      `${id} charge ${transactionId} ${TransactionStatus[status]}`,
    );
  const history = (transaction: { statusHistory: Array<{ status: number; source: number }> }) =>
    transaction.statusHistory.map((change) => [change.status, change.source]);
  const puts = () => standIn.received.filter((request) => request.method === 'PUT' && /\/devolucao\//.test(request.path));

  describe(`${id} against a stand-in written from the Banco Central's API Pix and the members' public material`, () => {
    it(scenario.evidence ? "declares the platform's documentation it was verified against" : 'claims no documentation: no public material of its own', () => {
      const evidence = member.evidence;
      if (!scenario.evidence) return expect(['documented', 'platform']).not.toContain(evidence?.level);
      expect(evidence?.level).toBe('platform');
      const addresses = evidence && 'addresses' in evidence ? evidence.addresses : [];
      expect(addresses.length).toBeGreaterThan(0);
      for (const address of addresses) expect(scenario.evidence).toContain(address);
    });

    it('PIX: the cob with its BR Code and validity, read back, paid by the notification confirmed with GET /cob', async () => {
      const transaction = await charge(2500);
      const cob = standIn.cob(transaction.transactionId)!;
      expect(transaction).toMatchObject({ provider: id, status: TransactionStatus.TRANSACTION_STATUS_PENDING, amount: 2500, pixCode: cob.pixCopiaECola });
      expect(brCodeCrcIsValid(transaction.pixCode)).toBe(true);
      expect(transaction.pixQrCode).toMatch(/^data:image\/png;base64,/);
      expect(cob).toMatchObject({
        status: 'ATIVA',
        chave: CHAVE,
        valor: { original: '25.00' },
        devedor: { cpf: '12345678909', nome: 'Ana Souza' },
        solicitacaoPagador: 'Pedido 42',
        calendario: { expiracao: member.expiry?.pixSeconds ?? 86_400 },
      });
      if (scenario.standIn.cobAnswer !== 'brief') {
        const calendario = cob.calendario as { criacao: string; expiracao: number };
        expect(transaction.expiresAt).toEqual(new Date(new Date(calendario.criacao).getTime() + calendario.expiracao * 1000));
      }
      expect((await read(transaction.id, true)).status).toBe(TransactionStatus.TRANSACTION_STATUS_PENDING);

      const reads = standIn.count('GET', '/cob/{txid}');
      const endToEndId = await standIn.pay(transaction.transactionId);
      const approved = await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);
      // The payment's end-to-end id (GET /cob's Pix states it); the payer's bank and masked document where RECEIVE states them.
      expect(approved.pixEndToEndId).toBe(endToEndId);
      expect(approved.pixPayer).toEqual(
        (scenario.standIn.receiveEvent ?? 'typed') === 'typed'
          ? { name: '', document: '123.xxx.xxx-xx', bankIspb: STAND_IN_PAYER_BANK.ispb, bankName: STAND_IN_PAYER_BANK.name }
          : undefined,
      );
      expect(history(approved)).toEqual([
        [TransactionStatus.TRANSACTION_STATUS_PENDING, StatusSource.STATUS_SOURCE_API],
        [TransactionStatus.TRANSACTION_STATUS_APPROVED, StatusSource.STATUS_SOURCE_WEBHOOK],
      ]);
      // Unsigned (the PSP authenticates by mTLS, which ends before the sidecar): the gateway asked GET /cob before approving.
      expect(standIn.count('GET', '/cob/{txid}')).toBeGreaterThan(reads);
      expect(standIn.delivered.at(-1)).toEqual({ type: 'RECEIVE', status: 200 });
    });

    it("refunds by devolução: partial then the rest, in progress until the payer's bank returns them; one sent again is not made twice", async () => {
      const transaction = await charge(2500);
      const endToEndId = await standIn.pay(transaction.transactionId);
      await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_APPROVED);

      const partial = await refund(transaction.id, 1000, `${id}-refund-part`);
      // EM_PROCESSAMENTO: the PSP took it, the payer's bank returns it later: reserved, not yet refunded.
      expect(partial.refund.status).toBe(true);
      expect([partial.transaction.status, Number(partial.transaction.refundedAmount)]).toEqual([TransactionStatus.TRANSACTION_STATUS_APPROVED, 0]);
      const devolucoes = () => ((standIn.cob(transaction.transactionId)!.pix as Array<{ devolucoes: Json[] }>)[0]!.devolucoes ?? []) as Json[];
      expect(devolucoes()).toEqual([expect.objectContaining({ valor: '10.00', status: 'EM_PROCESSAMENTO' })]);
      expect(puts().at(-1)!.path).toMatch(new RegExp(`^/pix/${endToEndId}/devolucao/[a-zA-Z0-9]{1,35}$`));

      const sent = puts().length;
      const again = await refund(transaction.id, 1000, `${id}-refund-part`);
      expect(again.refund).toEqual(partial.refund);
      expect(puts().length).toBe(sent);

      // More than is left is refused by the gateway, nothing asked of the PSP; the rest is.
      expect(await failureOf(refund(transaction.id, 2000, `${id}-refund-more`))).toMatchObject({ code: 'FAILED_PRECONDITION' });
      const rest = await refund(transaction.id, 1500, `${id}-refund-rest`);
      expect(rest.refund.status).toBe(true);
      expect(devolucoes().map((devolucao) => [devolucao.valor, devolucao.status])).toEqual([
        ['10.00', 'EM_PROCESSAMENTO'],
        ['15.00', 'EM_PROCESSAMENTO'],
      ]);
      expect(puts().length).toBe(sent + 1);

      // The payer's bank returns both: the whole Pix returned is CHARGEBACK (doc 2 §4, doc 3 §4: REFUND is CHARGEBACK).
      await standIn.settleDevolucoes(transaction.transactionId);
      const returned =
        scenario.standIn.receiveEvent === 'untyped'
          ? await read(transaction.id, true)
          : await becomes(transaction.id, TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);
      expect(returned.status).toBe(TransactionStatus.TRANSACTION_STATUS_CHARGEBACK);
      if (scenario.standIn.receiveEvent !== 'untyped') expect(standIn.delivered.at(-1)).toEqual({ type: 'REFUND', status: 200 });
    });

    it('a devolução sent again after its answer was lost names the same id; refused as already used, the first is read back: one devolução', async () => {
      // The adapter as the gateway runs it, twice with one key, as a resend after a lost answer would.
      const adapter = new BacenPixAdapter(member, { retry: false });
      const ctx: AdapterContext = {
        accountId: `${id}-direct`,
        publicKey: `${clientId}|${CHAVE}`,
        secretKey: CLIENT_SECRET,
        baseUrl: standIn.url,
        notificationUrl: 'http://127.0.0.1:1/unused',
        certCashInUrl: files.url('/platform/cash-in.pem'),
        certCashOutUrl: files.url('/platform/cash-out.pem'),
        platformId: 'platform-standin',
        ...(scenario.apiVersion ? { apiVersion: scenario.apiVersion } : {}),
      };
      const created = await adapter.createTransaction(ctx, {
        amount: 2000,
        paymentMethod: 'PIX',
        customer: CUSTOMER,
        items: [],
        installments: 1,
        fingerPrints: [],
        splits: [],
        currency: 'BRL',
      });
      await standIn.pay(created.transactionId);
      const first = await adapter.refoundTransaction(ctx, created.transactionId, 500, 'lost-answer-key');
      const resent = await adapter.refoundTransaction(ctx, created.transactionId, 500, 'lost-answer-key');
      expect(resent).toEqual(first);
      expect(first).toMatchObject({ status: true, pending: true });
      const [one, two] = puts().slice(-2);
      expect(one!.path).toBe(two!.path);
      expect(standIn.count('GET', '/pix/{e2eid}/devolucao/{id}')).toBe(1);
      expect((standIn.cob(created.transactionId)!.pix as Array<{ devolucoes: Json[] }>)[0]!.devolucoes).toHaveLength(1);
    });

    it(`PIX payout by /pix/payments/dict: ${scenario.payout.atCreation} at creation, settled by the TRANSFER notification`, async () => {
      const withdraw = (idempotencyKey: string) =>
        stack.client.call(
          'gateway',
          'withdraw',
          WithdrawRequest.fromPartial({
            providerAccountId: payoutAccountId,
            idempotencyKey,
            withdraw: {
              paymentMethod: WithdrawMethod.WITHDRAW_METHOD_PIX,
              amount: 1050,
              pixKey: '(11) 98765-4321',
              pixType: PixKeyType.PIX_KEY_TYPE_PHONE,
              document: '123.456.789-09',
            },
          }),
        );
      const created = (await withdraw(`${id}-payout-1`)).withdrawal;
      const atCreation = scenario.payout.atCreation === 'APPROVED' ? WithdrawStatus.WITHDRAW_STATUS_APPROVED : WithdrawStatus.WITHDRAW_STATUS_PENDING;
      expect(created).toMatchObject({ status: atCreation, amount: 1050 });
      expect(standIn.payout(created.withdrawId)).toMatchObject({ pixKey: '+5511987654321', status: 'PROCESSING', payment: { amount: 10.5 } });
      const posted = standIn.received.filter((request) => request.method === 'POST' && request.path === '/pix/payments/dict');
      expect(posted.at(-1)!.body).toMatchObject({ pixKey: '+5511987654321', creditorDocument: '12345678909', payment: { currency: 'BRL', amount: 10.5 } });
      // Sent again with its key: the gateway answers the first payout; the PSP is not asked twice.
      expect((await withdraw(`${id}-payout-1`)).withdrawal.id).toBe(created.id);
      expect(standIn.count('POST', '/pix/payments/dict')).toBe(posted.length);

      await standIn.settlePayout(created.withdrawId, 'LIQUIDATED');
      expect(standIn.delivered.at(-1)).toEqual({ type: 'TRANSFER', status: 200 });
      const settled = await eventually(
        async () => {
          const current = (await stack.client.call('gateway', 'getWithdraw', GetWithdrawRequest.fromPartial({ id: created.id }))).withdrawal;
          return current.status === WithdrawStatus.WITHDRAW_STATUS_APPROVED && current;
        },
        15_000,
        'the payout APPROVED',
      );
      expect(settled.status).toBe(WithdrawStatus.WITHDRAW_STATUS_APPROVED);
      if (scenario.payout.lookup) expect(standIn.count('GET', '/pix/payments/{e2eid}')).toBeGreaterThan(0);
    });

    it("a cob the PSP refuses (a chave that is not the client's) reaches the caller with the PSP's reason; nothing to pay", async () => {
      const other = (
        await stack.client.call('accounts', 'createProviderAccount', {
          provider: id,
          name: `${id} with another's key`,
          publicKey: `${clientId}|outra-chave@example.com`,
          secretKey: CLIENT_SECRET,
          baseUrl: standIn.url,
          platformId: 'platform-standin',
          certCashInUrl: files.url('/platform/cash-in.pem'),
          certCashOutUrl: files.url('/platform/cash-out.pem'),
        })
      ).providerAccount;
      expect(await failureOf(charge(1000, other.id))).toEqual({
        code: 'INVALID_ARGUMENT',
        message:
          'Erro ao criar transação: A requisição que busca alterar ou criar uma cobrança para pagamento imediato não respeita o _schema_ ou está semanticamente errada.',
      });
    });

    it("a client without the platform's certificate is refused in the handshake; the gateway presented it on every connection", async () => {
      const refusedBefore = standIn.refusedHandshakes;
      const certificates = await testCertificates();
      await expect(
        new Promise((resolve, reject) => {
          const request = httpsRequest(`${standIn.url}/oauth/token`, { method: 'POST', ca: certificates.ca }, resolve);
          request.on('error', reject);
          request.end();
        }),
      ).rejects.toThrow();
      await eventually(async () => standIn.refusedHandshakes > refusedBefore, 5_000, 'the handshake refused');
      expect(standIn.clientCertificates.length).toBeGreaterThan(0);
      expect(new Set(standIn.clientCertificates)).toEqual(new Set(['platform-client']));
    });

    it('the stand-in saw only documented routes, and never failed', () => {
      expect(standIn.unmatched).toEqual([]);
      expect(standIn.crashed).toEqual([]);
    });
  });
}
