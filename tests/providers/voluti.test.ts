import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import { createDynamicPix, hasError, type PixDynamicObject } from 'pix-utils';
import { VolutiAdapter } from '../../server/providers/voluti.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { clearHttpsAgents, trustCertificateAuthority } from '../../server/lib/http/index.js';
import { brCodeCrcIsValid } from '../support/brCode.js';
import {
  BODIES_WITHOUT_RESOURCE,
  GARBAGE_2XX_BODIES,
  startFakeProvider,
  startFileServer,
  testCertificates,
  type FakeProvider,
  type FileServer,
} from '../support/fakeProvider.js';

/**
 * VOLUTI against a fake of its API: HTTPS that requires the platform's client
 * certificate (mTLS), served to the adapter from a certificate URL as the
 * platform stores it. Canned answers follow the Banco Central's API Pix (cob)
 * and VOLUTI's payout and notification shapes.
 */

const CHAVE = 'c873834c-ed18-4e63-8e5d-90190392b744';
const TXID = '7978c0c97ea847e78e8849634473c1f1';
const TOKEN_BODY = { grant_type: 'client_credentials', client_id: 'voluti-client', client_secret: 'voluti-secret' };

let fake: FakeProvider;
let files: FileServer;
let untrust: () => void;
let pixCopiaECola: string;
const adapter = new VolutiAdapter({ retry: false, logger: pino({ level: 'silent' }) });

beforeAll(async () => {
  fake = await startFakeProvider({ tls: 'mtls' });
  const pki = await testCertificates();
  files = await startFileServer({ '/platform/cash-in.pem': pki.clientPem, '/platform/cash-out.pem': pki.clientPem });
  untrust = trustCertificateAuthority(fake.ca!);
  const pix = createDynamicPix({ merchantName: 'LOJA TESTE', merchantCity: 'SAO PAULO', url: `pix.voluti.com.br/qr/v3/at/${randomUUID()}` });
  if (hasError(pix)) throw new Error('could not build a test BR Code');
  pixCopiaECola = (pix as PixDynamicObject).toBRCode();
});

afterEach(() => {
  try {
    fake.assertAllDone();
  } finally {
    fake.reset();
  }
});

afterAll(async () => {
  untrust?.();
  clearHttpsAgents();
  await fake?.close();
  await files?.close();
});

/** A fresh account each time: its own token cache and circuit. */
const account = (extra: Partial<AdapterContext> = {}): AdapterContext => ({
  accountId: `voluti-${randomUUID()}`,
  publicKey: `voluti-client|${CHAVE}`,
  secretKey: 'voluti-secret',
  baseUrl: fake.url,
  certCashInUrl: files.url('/platform/cash-in.pem'),
  certCashOutUrl: files.url('/platform/cash-out.pem'),
  notificationUrl: 'http://127.0.0.1:1/webhooks/VOLUTI/acc',
  ...extra,
});

const expectToken = (token = 'voluti-token') =>
  fake.expect({
    method: 'POST',
    path: '/oauth/token',
    headers: { 'content-type': /application\/json/ },
    body: TOKEN_BODY,
    reply: { body: { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: 'cob.write cob.read' } },
  });

const cob = (status: string, extra: object = {}) => ({
  calendario: { criacao: '2026-01-10T12:00:00.000Z', expiracao: 86400 },
  txid: TXID,
  revisao: 0,
  location: 'pix.voluti.com.br/qr/v3/at/6ed39bf2-bdc2-42b8-a95b-13d2212146b2',
  status,
  devedor: { cpf: '12345678909', nome: 'Ana Souza' },
  valor: { original: '19.90' },
  chave: CHAVE,
  solicitacaoPagador: 'Pedido 42',
  pixCopiaECola,
  ...extra,
});

const pixCharge = {
  amount: 1990,
  paymentMethod: 'PIX' as const,
  customer: { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '11987654321' },
  description: 'Pedido 42',
  items: [],
  installments: 1,
  fingerPrints: [],
  splits: [],
  currency: 'BRL',
};

describe('VOLUTI cash-in', () => {
  it('fetches the token once over the client certificate, creates the cob with the API Pix body and reads it back', async () => {
    const ctx = account();
    const token = expectToken();
    const create = fake.expect({
      method: 'POST',
      path: '/cob',
      headers: { authorization: 'Bearer voluti-token' },
      body: {
        calendario: { expiracao: 86400 },
        devedor: { cpf: '12345678909', nome: 'Ana Souza' },
        valor: { original: '19.90' },
        chave: CHAVE,
        solicitacaoPagador: 'Pedido 42',
      },
      reply: { status: 201, body: cob('ATIVA') },
    });
    fake.expect({
      method: 'GET',
      path: `/cob/${TXID}`,
      headers: { authorization: 'Bearer voluti-token' },
      reply: { body: cob('CONCLUIDA', { pix: [{ endToEndId: 'E1234', txid: TXID, valor: '19.90', horario: '2026-01-10T12:05:00Z' }] }) },
    });

    const created = await adapter.createTransaction(ctx, pixCharge);
    expect(created).toMatchObject({
      paymentMethod: 'PIX',
      transactionId: TXID,
      status: 'PENDING',
      amount: 1990,
      pixCode: pixCopiaECola,
      expiresAt: new Date('2026-01-11T12:00:00.000Z'),
    });
    expect(brCodeCrcIsValid(created.pixCode!)).toBe(true);
    const png = Buffer.from(created.pixQrCode!.replace(/^data:image\/png;base64,/, ''), 'base64');
    expect(created.pixQrCode).toMatch(/^data:image\/png;base64,/);
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    await expect(adapter.getTransaction(ctx, TXID)).resolves.toMatchObject({ transactionId: TXID, status: 'APPROVED', amount: 1990 });
    expect(token.calls).toHaveLength(1);
    expect(create.calls).toHaveLength(1);
    expect(fake.received.map((request) => request.clientCertificate)).toEqual(['platform-client', 'platform-client', 'platform-client']);
  });

  it.each([
    ['ATIVA', 'PENDING'],
    ['REMOVIDA_PELO_PSP', 'PENDING'],
    ['LIQUIDATED', 'APPROVED'],
    ['CONCLUIDA', 'APPROVED'],
    ['REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REJECTED'],
  ])('GET /cob/{txid} answering %s is %s', async (status, expected) => {
    const ctx = account();
    expectToken();
    fake.expect({ method: 'GET', path: `/cob/${TXID}`, reply: { body: cob(status) } });
    await expect(adapter.getTransaction(ctx, TXID)).resolves.toMatchObject({ status: expected });
  });

  it.each(GARBAGE_2XX_BODIES)('a 2xx answer that is %s is an error, never a status (charges and payouts)', async (_label, body) => {
    const ctx = account();
    expectToken();
    fake.expect({ method: 'GET', path: `/cob/${TXID}`, reply: { body } });
    await expect(adapter.getTransaction(ctx, TXID)).rejects.toMatchObject({ message: expect.stringMatching(/^Erro ao buscar transação: /) });
    fake.expect({ method: 'GET', path: '/pix/payments/E1', reply: { body } });
    await expect(adapter.getWithdraw(ctx, 'E1')).rejects.toMatchObject({ message: expect.stringMatching(/^Erro ao buscar saque: /) });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('a refund answered with %s is an error, never "refunded"', async (_label, body) => {
    const ctx = account();
    expectToken();
    fake.expect({ method: 'POST', path: `/sells/${TXID}/refund`, reply: { body } });
    await expect(adapter.refoundTransaction(ctx, TXID, 1990)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Erro ao estornar transação: resposta do provedor sem dados do estorno',
    });
  });

  it('a 5xx from VOLUTI is UNAVAILABLE with the spec prefix, never a PENDING charge', async () => {
    const ctx = account();
    expectToken();
    fake.expect({ method: 'POST', path: '/cob', reply: { status: 503, body: { message: 'Serviço temporariamente indisponível' } } });
    await expect(adapter.createTransaction(ctx, pixCharge)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: Serviço temporariamente indisponível',
    });
  });

  it('a cob answer without pixCopiaECola is an error, not a charge nobody can pay', async () => {
    const ctx = account();
    expectToken();
    fake.expect({ method: 'POST', path: '/cob', reply: { status: 201, body: cob('ATIVA', { pixCopiaECola: undefined }) } });
    await expect(adapter.createTransaction(ctx, pixCharge)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: `Erro ao criar transação: a cobrança ${TXID} não trouxe pixCopiaECola`,
    });
  });

  it('refunds by POST /sells/{id}/refund', async () => {
    const ctx = account();
    expectToken();
    fake.expect({
      method: 'POST',
      path: `/sells/${TXID}/refund`,
      headers: { authorization: 'Bearer voluti-token' },
      body: { amount: 19.9 },
      reply: { body: { id: 'refund-77', status: 'PROCESSING' } },
    });
    await expect(adapter.refoundTransaction(ctx, TXID, 1990)).resolves.toEqual({ refundId: 'refund-77', status: true });
    fake.expect({ method: 'POST', path: `/sells/${TXID}/refund`, body: { amount: 5 }, reply: { body: { id: 'refund-78', status: 'REJECTED' } } });
    await expect(adapter.refoundTransaction(ctx, TXID, 500)).resolves.toEqual({ refundId: 'refund-78', status: false });
    fake.expect({ method: 'POST', path: `/sells/${TXID}/refund`, reply: { status: 422, body: { message: 'Venda já estornada' } } });
    await expect(adapter.refoundTransaction(ctx, TXID, 500)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao estornar transação: Venda já estornada',
    });
  });
});

describe('VOLUTI cash-out', () => {
  const withdrawal = {
    paymentMethod: 'PIX' as const,
    amount: 1050,
    pixKey: '(11) 98765-4321',
    pixType: 'PHONE' as const,
    description: 'Saque de R$ 10,50',
    document: '123.456.789-09',
  };

  it('pays out to a PIX key with the idempotency header, then reads the payout back', async () => {
    const ctx = account();
    expectToken();
    fake.expect({
      method: 'POST',
      path: '/pix/payments/dict',
      headers: { authorization: 'Bearer voluti-token', 'x-idempotency-key': 'saque-123' },
      body: {
        pixKey: '+5511987654321',
        description: 'Saque de R$ 10,50',
        creditorDocument: '12345678909',
        paymentFlow: 'INSTANT',
        payment: { currency: 'BRL', amount: 10.5 },
      },
      reply: {
        status: 201,
        body: {
          endToEndId: 'E33053580202501090356212912f6b8',
          eventDate: '2025-01-09T03:56:21.291+00:00',
          status: 'PENDING',
          id: 1448625,
          payment: { currency: 'BRL', amount: 10.5 },
          type: 'QUEUED',
        },
      },
    });
    fake.expect({
      method: 'GET',
      path: '/pix/payments/E33053580202501090356212912f6b8',
      headers: { authorization: 'Bearer voluti-token' },
      reply: {
        body: {
          id: 1448625,
          endToEndId: 'E33053580202501090356212912f6b8',
          status: 'LIQUIDATED',
          eventDate: '2025-01-09T03:56:23.000+00:00',
          payment: { currency: 'BRL', amount: 10.5 },
        },
      },
    });

    await expect(adapter.withdraw(ctx, { ...withdrawal, withdrawReference: 'saque-123' })).resolves.toEqual({
      withdrawId: 'E33053580202501090356212912f6b8',
      amount: 1050,
      status: 'PENDING',
    });
    await expect(adapter.getWithdraw(ctx, 'E33053580202501090356212912f6b8')).resolves.toEqual({
      withdrawId: 'E33053580202501090356212912f6b8',
      amount: 1050,
      status: 'APPROVED',
      approvedAt: new Date('2025-01-09T03:56:23.000Z'),
    });
    expect(fake.received.every((request) => request.clientCertificate === 'platform-client')).toBe(true);
  });

  it('without a withdraw reference the idempotency key is a fresh UUID per payout', async () => {
    const ctx = account();
    expectToken();
    const payouts = fake.expect({
      method: 'POST',
      path: '/pix/payments/dict',
      times: 2,
      headers: { 'x-idempotency-key': /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/ },
      reply: (request) => ({ status: 201, body: { endToEndId: `E-${request.headers['x-idempotency-key']}`, status: 'PROCESSING' } }),
    });
    await adapter.withdraw(ctx, withdrawal);
    await adapter.withdraw(ctx, withdrawal);
    const keys = payouts.calls.map((call) => call.headers['x-idempotency-key']);
    expect(new Set(keys).size).toBe(2);
  });

  it("a refused payout keeps VOLUTI's message under the spec prefix", async () => {
    const ctx = account();
    expectToken();
    fake.expect({ method: 'POST', path: '/pix/payments/dict', reply: { status: 400, body: { title: 'Saldo insuficiente' } } });
    await expect(adapter.withdraw(ctx, withdrawal)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: 'Erro ao realizar saque: Saldo insuficiente' });
  });
});

describe("'Unauthorized.' without the platform's certificate", () => {
  it('cash-in needs certCashInUrl, cash-out needs certCashOutUrl; nothing reaches VOLUTI', async () => {
    const noCertificates = account({ certCashInUrl: undefined, certCashOutUrl: undefined });
    const unauthorized = { code: 'FAILED_PRECONDITION', message: 'Unauthorized.' };
    await expect(adapter.createTransaction(noCertificates, pixCharge)).rejects.toMatchObject(unauthorized);
    await expect(adapter.getTransaction(noCertificates, TXID)).rejects.toMatchObject(unauthorized);
    await expect(adapter.refoundTransaction(noCertificates, TXID, 100)).rejects.toMatchObject(unauthorized);
    const cashInOnly = account({ certCashOutUrl: undefined });
    await expect(adapter.withdraw(cashInOnly, { paymentMethod: 'PIX', amount: 100, pixKey: 'ana@example.com', pixType: 'EMAIL' })).rejects.toMatchObject(
      unauthorized,
    );
    await expect(adapter.getWithdraw(cashInOnly, 'E1')).rejects.toMatchObject(unauthorized);
    expect(fake.received).toHaveLength(0);
  });
});

describe('VOLUTI notifications', () => {
  const ctx = () => account();
  const notification = (body: unknown) => ({
    body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
    headers: { 'content-type': 'application/json' },
  });
  const event = (type: string, status: string, extra: object = {}) => ({
    data: {
      id: 557737461,
      txId: TXID,
      pixKey: CHAVE,
      status,
      payment: { amount: '19.90', currency: 'BRL' },
      refunds: [],
      endToEndId: 'E11275560202410261929IvFSvxqf4cs',
      webhookType: type,
      idempotencyKey: null,
      ...extra,
    },
    type,
  });

  it('accepts RECEIVE (APPROVED only when LIQUIDATED) and REFUND (CHARGEBACK), unsigned and keyed by endToEndId', async () => {
    const liquidated = notification(event('RECEIVE', 'LIQUIDATED'));
    await expect(adapter.processWebhook(ctx(), liquidated)).resolves.toEqual({ type: 'TRANSACTION', transactionId: TXID, status: 'APPROVED' });
    await expect(adapter.processWebhook(ctx(), notification(event('RECEIVE', 'PROCESSING')))).resolves.toEqual({
      type: 'TRANSACTION',
      transactionId: TXID,
      status: 'PENDING',
    });
    await expect(adapter.processWebhook(ctx(), notification(event('REFUND', 'LIQUIDATED')))).resolves.toEqual({
      type: 'TRANSACTION',
      transactionId: TXID,
      status: 'CHARGEBACK',
    });
    expect(adapter.verifyNotification(ctx(), liquidated)).toBe('unsigned');
    expect(adapter.notificationKey(ctx(), liquidated)).toBe('bacen-pix:RECEIVE:E11275560202410261929IvFSvxqf4cs:LIQUIDATED');
  });

  it('accepts the standard API Pix body for the charge it names', async () => {
    await expect(
      adapter.processWebhook(
        ctx(),
        notification({ pix: [{ endToEndId: 'E1234', txid: TXID, chave: CHAVE, valor: '19.90', horario: '2026-01-10T12:05:00.000Z' }] }),
      ),
    ).resolves.toEqual({
      type: 'TRANSACTION',
      transactionId: TXID,
      status: 'APPROVED',
    });
  });

  it('ignores CANCELED events and answers nothing for bodies it cannot parse', async () => {
    await expect(adapter.processWebhook(ctx(), notification(event('CANCELED', 'CANCELED')))).resolves.toBeUndefined();
    await expect(adapter.processWebhook(ctx(), notification('this is not json'))).resolves.toBeUndefined();
    await expect(adapter.processWebhook(ctx(), notification({ type: 'RECEIVE' }))).resolves.toBeUndefined();
    expect(adapter.notificationKey(ctx(), notification('this is not json'))).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
