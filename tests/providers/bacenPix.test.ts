import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { pino } from 'pino';
import {
  BacenPixAdapter,
  bacenPixCredentials,
  bacenPixNotificationKey,
  CASH_IN_EVENTS,
  COB_STATUS,
  fromCob,
  fromDictPayment,
  PAYOUT_STATUS,
  readBacenPixNotification,
  statusOfCob,
  toCobRequest,
  toDictPaymentRequest,
  type BacenPixMember,
} from '../../server/providers/families/bacenPix.js';
import { VolutiAdapter } from '../../server/providers/voluti.js';
import type { AdapterContext } from '../../server/providers/adapter.js';
import { logger } from '../../server/lib/logger.js';
import { trustCertificateAuthority } from '../../server/lib/http/index.js';
import { startFakeProvider, startFileServer, testCertificates, type FakeProvider, type FileServer } from '../support/fakeProvider.js';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));
const receive = (status: string | undefined, extra: object = {}) =>
  json({
    type: 'RECEIVE',
    data: {
      id: 6750828,
      txId: 'tx-1',
      status,
      endToEndId: 'E00416968202501110034KOJECGjkSiZ',
      payment: { amount: '1.00', currency: 'BRL' },
      refunds: [],
      ...extra,
    },
  });

describe('status tables', () => {
  it('maps every cob status the spec names, and the API Pix status it leaves out', () => {
    expect(COB_STATUS).toEqual({
      ATIVA: 'PENDING',
      REMOVIDA_PELO_PSP: 'PENDING',
      CONCLUIDA: 'APPROVED',
      LIQUIDATED: 'APPROVED',
      REMOVIDA_PELO_USUARIO_RECEBEDOR: 'REJECTED',
    });
    for (const [status, expected] of Object.entries(COB_STATUS)) expect(statusOfCob({ status })).toBe(expected);
  });

  it('an unknown cob status is REJECTED and logged as a warning; a missing one is PENDING', () => {
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      expect(statusOfCob({ status: 'EXPIRADA' })).toBe('REJECTED');
      expect(warn).toHaveBeenCalledWith({ status: 'EXPIRADA', mappedTo: 'REJECTED' }, 'unknown BACEN API Pix cob status');
      expect(statusOfCob({})).toBe('PENDING');
    } finally {
      warn.mockRestore();
    }
  });

  it('a CONCLUIDA cob whose Pix was wholly returned is CHARGEBACK; a partial devolução keeps it APPROVED', () => {
    const pix = (devolvido: string) => [
      {
        endToEndId: 'E1',
        txid: 't',
        valor: '10.00',
        devolucoes: [
          { id: 'd1', valor: devolvido, status: 'DEVOLVIDO' },
          { id: 'd2', valor: '10.00', status: 'NAO_REALIZADO' },
        ],
      },
    ];
    expect(statusOfCob({ status: 'CONCLUIDA', pix: pix('10.00') })).toBe('CHARGEBACK');
    expect(statusOfCob({ status: 'CONCLUIDA', pix: pix('4.00') })).toBe('APPROVED');
    expect(statusOfCob({ status: 'ATIVA', pix: [] })).toBe('PENDING');
  });

  it('cash-in events follow the common PIX-cob pattern', () => {
    expect(CASH_IN_EVENTS).toEqual({
      RECEIVE: { byDataStatus: { LIQUIDATED: 'APPROVED' }, otherwise: 'PENDING' },
      REFUND: { status: 'CHARGEBACK' },
      CANCELED: 'ignore',
    });
  });

  it('payout statuses: LIQUIDATED is APPROVED, CANCELED is CANCELED, failures REJECTED, anything unknown stays PENDING', () => {
    expect(PAYOUT_STATUS).toMatchObject({
      PENDING: 'PENDING',
      PROCESSING: 'PENDING',
      LIQUIDATED: 'APPROVED',
      CANCELED: 'CANCELED',
      REJECTED: 'REJECTED',
      REFUNDED: 'REJECTED',
    });
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined);
    try {
      expect(fromDictPayment({ endToEndId: 'E1', status: 'SOMETHING_NEW' }).status).toBe('PENDING');
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('notifications', () => {
  it('RECEIVE is APPROVED only when LIQUIDATED, otherwise PENDING', () => {
    expect(readBacenPixNotification(receive('LIQUIDATED'))).toEqual({ type: 'TRANSACTION', transactionId: 'tx-1', status: 'APPROVED' });
    expect(readBacenPixNotification(receive('PROCESSING'))).toEqual({ type: 'TRANSACTION', transactionId: 'tx-1', status: 'PENDING' });
    expect(readBacenPixNotification(receive(undefined))).toEqual({ type: 'TRANSACTION', transactionId: 'tx-1', status: 'PENDING' });
  });

  it('REFUND is CHARGEBACK; CANCELED and events the spec does not name are ignored', () => {
    expect(readBacenPixNotification(json({ type: 'REFUND', data: { txId: 'tx-9', status: 'LIQUIDATED', endToEndId: 'D1' } }))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'tx-9',
      status: 'CHARGEBACK',
    });
    expect(readBacenPixNotification(json({ type: 'CANCELED', data: { txId: 'tx-9', status: 'CANCELED' } }))).toBeUndefined();
    expect(readBacenPixNotification(json({ type: 'INFRACTION', data: { txId: 'tx-9' } }))).toBeUndefined();
  });

  it('a payout notification (TRANSFER) is a WITHDRAW result keyed by its endToEndId', () => {
    expect(readBacenPixNotification(json({ type: 'TRANSFER', data: { id: 7, endToEndId: 'E330', status: 'LIQUIDATED' } }))).toEqual({
      type: 'WITHDRAW',
      transactionId: 'E330',
      status: 'APPROVED',
    });
    expect(readBacenPixNotification(json({ type: 'TRANSFER', data: { id: 7, status: 'CANCELED' } }))).toEqual({
      type: 'WITHDRAW',
      transactionId: '7',
      status: 'CANCELED',
    });
  });

  it('the standard API Pix body is APPROVED for the txid of its first charged entry; a full devolução is CHARGEBACK', () => {
    const standard = (entries: object[]) => json({ pix: entries });
    const paid = { endToEndId: 'E1234', txid: 'cob-1', chave: 'k', valor: '19.90', horario: '2020-09-09T20:15:00.358Z', infoPagador: 'obrigado' };
    expect(readBacenPixNotification(standard([{ endToEndId: 'E0', valor: '1.00', horario: '2020-09-09T20:15:00Z' }, paid]))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'cob-1',
      status: 'APPROVED',
    });
    expect(readBacenPixNotification(standard([{ ...paid, devolucoes: [{ id: 'd1', rtrId: 'D1', valor: '19.90', status: 'DEVOLVIDO' }] }]))).toMatchObject({
      status: 'CHARGEBACK',
    });
    expect(readBacenPixNotification(standard([{ endToEndId: 'E0', valor: '1.00' }]))).toBeUndefined();
  });

  it('bodies that cannot be parsed or name no charge yield nothing', () => {
    for (const body of ['not json', '', 'null', '[]', '{"type":"RECEIVE"}', '{"type":"RECEIVE","data":{"status":"LIQUIDATED"}}', '{"pix":"x"}']) {
      expect(readBacenPixNotification(Buffer.from(body))).toBeUndefined();
    }
  });

  it('dedup keys tell a status change from a re-delivery', () => {
    expect(bacenPixNotificationKey(receive('LIQUIDATED'))).toBe('bacen-pix:RECEIVE:E00416968202501110034KOJECGjkSiZ:LIQUIDATED');
    expect(bacenPixNotificationKey(receive('LIQUIDATED'))).toBe(bacenPixNotificationKey(receive('LIQUIDATED', { createdAt: 'later' })));
    expect(bacenPixNotificationKey(receive('PROCESSING'))).not.toBe(bacenPixNotificationKey(receive('LIQUIDATED')));
    const paid = { endToEndId: 'E1', txid: 'cob-1', valor: '5.00' };
    expect(bacenPixNotificationKey(json({ pix: [paid] }))).toBe('bacen-pix:pix:E1');
    expect(bacenPixNotificationKey(json({ pix: [{ ...paid, devolucoes: [{ id: 'd1', status: 'EM_PROCESSAMENTO' }] }] }))).toBe(
      'bacen-pix:pix:E1,d1=EM_PROCESSAMENTO',
    );
    expect(bacenPixNotificationKey(Buffer.from('junk'))).toBeUndefined();
  });
});

describe('request mappers', () => {
  const customer = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '11987654321' };

  it('writes valor.original as a decimal string in reais, without float rounding', () => {
    for (const [amount, original] of [
      [1990, '19.90'],
      [29, '0.29'],
      [1, '0.01'],
      [100, '1.00'],
      [123456789, '1234567.89'],
    ] as const) {
      expect(toCobRequest({ amount }, { expirySeconds: 60 }).valor.original).toBe(original);
    }
  });

  it('builds the cob: expiracao in seconds, devedor {cpf|cnpj, nome}, chave, solicitacaoPagador', () => {
    expect(toCobRequest({ amount: 1990, customer, description: 'Pedido 42' }, { expirySeconds: 86400, chave: 'c873834c-ed18-4e63-8e5d-90190392b744' })).toEqual(
      {
        calendario: { expiracao: 86400 },
        devedor: { cpf: '12345678909', nome: 'Ana Souza' },
        valor: { original: '19.90' },
        chave: 'c873834c-ed18-4e63-8e5d-90190392b744',
        solicitacaoPagador: 'Pedido 42',
      },
    );
    expect(toCobRequest({ amount: 100, customer: { ...customer, document: '11.222.333/0001-81' } }, { expirySeconds: 60 }).devedor).toEqual({
      cnpj: '11222333000181',
      nome: 'Ana Souza',
    });
    // devedor is optional in the API Pix, and a half devedor is refused by it.
    expect(toCobRequest({ amount: 100, customer: { ...customer, document: '123' } }, { expirySeconds: 60 })).not.toHaveProperty('devedor');
    expect(toCobRequest({ amount: 100, customer: { ...customer, name: ' ' } }, { expirySeconds: 60 })).not.toHaveProperty('devedor');
    expect(toCobRequest({ amount: 100, description: 'x'.repeat(200) }, { expirySeconds: 60 }).solicitacaoPagador).toHaveLength(140);
  });

  it('builds the payout: PHONE keys with +55, documents as digits, amount in reais', () => {
    const style = { phonePrefix: '+55' } as const;
    expect(
      toDictPaymentRequest({ amount: 1050, pixKey: '(11) 98765-4321', pixType: 'PHONE', description: 'Saque', document: '123.456.789-09' }, style),
    ).toEqual({
      pixKey: '+5511987654321',
      description: 'Saque',
      creditorDocument: '12345678909',
      paymentFlow: 'INSTANT',
      payment: { currency: 'BRL', amount: 10.5 },
    });
    expect(toDictPaymentRequest({ amount: 29, pixKey: '123.456.789-09', pixType: 'CPF' }, style)).toMatchObject({
      pixKey: '12345678909',
      payment: { amount: 0.29 },
    });
    expect(toDictPaymentRequest({ amount: 1, pixKey: 'Ana@Example.com', pixType: 'EMAIL' }, style).pixKey).toBe('Ana@Example.com');
    expect(toDictPaymentRequest({ amount: 1, pixKey: 'c873834c-ed18-4e63-8e5d-90190392b744', pixType: 'RANDOM' }, style).pixKey).toBe(
      'c873834c-ed18-4e63-8e5d-90190392b744',
    );
  });

  it('reads packed credentials: clientId|chave and clientSecret|certificatePassphrase', () => {
    expect(bacenPixCredentials({ publicKey: 'client-1|chave@example.com', secretKey: 's3cret|p12-pass' })).toEqual({
      clientId: 'client-1',
      chave: 'chave@example.com',
      clientSecret: 's3cret',
      certificatePassphrase: 'p12-pass',
    });
    expect(bacenPixCredentials({ publicKey: 'client-1', secretKey: 's3cret' })).toEqual({
      clientId: 'client-1',
      chave: undefined,
      clientSecret: 's3cret',
      certificatePassphrase: undefined,
    });
  });
});

describe('response mappers', () => {
  it('reads valor.original back into cents', () => {
    for (const [original, cents] of [
      ['19.90', 1990],
      ['0.29', 29],
      ['19.9', 1990],
      ['10', 1000],
      ['1234567.89', 123456789],
    ] as const) {
      expect(fromCob({ txid: 't', status: 'ATIVA', valor: { original } }).amount).toBe(cents);
    }
  });

  it('maps a created cob; expiresAt is calendario.criacao plus expiracao', () => {
    const cob = {
      txid: '7978c0c97ea847e78e8849634473c1f1',
      revisao: 0,
      status: 'ATIVA',
      calendario: { criacao: '2026-01-10T12:00:00.000Z', expiracao: 86400 },
      location: 'pix.example.com/qr/v2/9d36b84fc70b478fb95c12729b90ca25',
      valor: { original: '19.90' },
      chave: 'c873834c-ed18-4e63-8e5d-90190392b744',
      pixCopiaECola: '00020101021226...6304ABCD',
    };
    expect(fromCob(cob)).toEqual({
      paymentMethod: 'PIX',
      transactionId: '7978c0c97ea847e78e8849634473c1f1',
      status: 'PENDING',
      amount: 1990,
      pixCode: '00020101021226...6304ABCD',
      expiresAt: new Date('2026-01-11T12:00:00.000Z'),
    });
    const requestedAt = new Date('2026-02-01T00:00:00Z');
    expect(fromCob({ txid: 't' }, { amount: 500, requestedAt, expirySeconds: 3600 })).toMatchObject({
      amount: 500,
      status: 'PENDING',
      expiresAt: new Date('2026-02-01T01:00:00Z'),
    });
  });

  it('maps payouts: id from endToEndId, else the numeric id; APPROVED carries approvedAt', () => {
    expect(
      fromDictPayment({
        endToEndId: 'E330',
        eventDate: '2025-01-09T03:56:21.291+00:00',
        status: 'PENDING',
        id: 1448625,
        payment: { currency: 'BRL', amount: 0.5 },
      }),
    ).toEqual({
      withdrawId: 'E330',
      amount: 50,
      status: 'PENDING',
    });
    expect(fromDictPayment({ id: 1448625, status: 'LIQUIDATED', eventDate: '2025-01-09T03:56:21.291+00:00' }, { amount: 50 })).toEqual({
      withdrawId: '1448625',
      amount: 50,
      status: 'APPROVED',
      approvedAt: new Date('2025-01-09T03:56:21.291Z'),
    });
    const now = new Date('2026-03-01T00:00:00Z');
    expect(fromDictPayment({ endToEndId: 'E1' }, { amount: 70, approvedAtCreation: true, now })).toEqual({
      withdrawId: 'E1',
      amount: 70,
      status: 'APPROVED',
      approvedAt: now,
    });
  });
});

describe('members declare what they offer', () => {
  it('VOLUTI offers cash-in, refunds, payouts and their lookup, and notifications', () => {
    const voluti = new VolutiAdapter();
    expect(voluti.identity).toMatchObject({
      id: 'VOLUTI',
      specGroup: 'document 2 (group 2)',
      paymentMethods: ['PIX'],
      withdrawMethods: ['PIX'],
      defaultBaseUrl: 'https://api.pix.voluti.com.br',
    });
    expect(voluti.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'withdraw', 'getWithdraw', 'processWebhook']);
  });

  it('a member without refunds or payouts does not offer them, and says so', async () => {
    const cashInOnly = new BacenPixAdapter({ id: 'CASHINONLY', specGroup: 'test', defaultBaseUrl: 'https://127.0.0.1:1', pixExpirySeconds: 3600 });
    expect(cashInOnly.identity.withdrawMethods).toEqual([]);
    expect(cashInOnly.operations).toEqual(['createTransaction', 'getTransaction', 'processWebhook']);
    await expect(cashInOnly.refoundTransaction({} as AdapterContext, 't', 1)).rejects.toMatchObject({
      code: 'UNIMPLEMENTED',
      message: 'Method not implemented.',
    });
    await expect(cashInOnly.withdraw({} as AdapterContext, { paymentMethod: 'PIX', amount: 1, pixKey: 'k', pixType: 'EMAIL' })).rejects.toMatchObject({
      message: 'Method not implemented.',
    });
  });
});

/**
 * A member that speaks only the Banco Central's standard: token by form with
 * HTTP Basic, refund by devolução. Proves the family works with any PSP
 * implementing the API Pix, not only VOLUTI's dialect.
 */
describe('a standard API Pix PSP', () => {
  const STANDARD: BacenPixMember = {
    id: 'STANDARDPSP',
    specGroup: 'test',
    defaultBaseUrl: 'https://127.0.0.1:1',
    pixExpirySeconds: 3600,
    refund: { kind: 'devolucao' },
  };
  let fake: FakeProvider;
  let files: FileServer;
  let untrust: () => void;

  beforeAll(async () => {
    fake = await startFakeProvider({ tls: 'mtls' });
    files = await startFileServer({ '/platform/cash-in.pem': (await testCertificates()).clientPem });
    untrust = trustCertificateAuthority(fake.ca!);
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
    await fake?.close();
    await files?.close();
  });

  it('takes the token by form with HTTP Basic and refunds by PUT /pix/{e2eid}/devolucao/{id}', async () => {
    const adapter = new BacenPixAdapter(STANDARD, { retry: false, logger: pino({ level: 'silent' }) });
    const ctx: AdapterContext = {
      accountId: `acc-${randomUUID()}`,
      publicKey: 'std-client|chave@example.com',
      secretKey: 'std-secret',
      baseUrl: fake.url,
      certCashInUrl: files.url('/platform/cash-in.pem'),
      notificationUrl: 'http://127.0.0.1:1/webhooks/STANDARDPSP/x',
    };
    fake.expect({
      method: 'POST',
      path: '/oauth/token',
      headers: { authorization: `Basic ${Buffer.from('std-client:std-secret').toString('base64')}`, 'content-type': /application\/x-www-form-urlencoded/ },
      body: { grant_type: 'client_credentials' },
      reply: { body: { access_token: 'std-token', token_type: 'Bearer', expires_in: 3600 } },
    });
    fake.expect({
      method: 'GET',
      path: '/cob/cob-1',
      headers: { authorization: 'Bearer std-token' },
      reply: {
        body: {
          txid: 'cob-1',
          status: 'CONCLUIDA',
          valor: { original: '19.90' },
          pix: [{ endToEndId: 'E9999', txid: 'cob-1', valor: '19.90', horario: '2026-01-01T00:00:00Z' }],
        },
      },
    });
    const devolucao = fake.expect({
      method: 'PUT',
      path: /\/pix\/E9999\/devolucao\/[a-zA-Z0-9]{1,35}/,
      headers: { authorization: 'Bearer std-token' },
      body: { valor: '7.50' },
      reply: { status: 201, body: { id: 'd1', rtrId: 'D9999', valor: '7.50', status: 'EM_PROCESSAMENTO', horario: { solicitacao: '2026-01-01T00:00:01Z' } } },
    });
    await expect(adapter.refoundTransaction(ctx, 'cob-1', 750)).resolves.toEqual({ refundId: 'D9999', status: true });
    expect(devolucao.calls).toHaveLength(1);
    expect(fake.received.every((request) => request.clientCertificate === 'platform-client')).toBe(true);
  });
});
