import { describe, expect, it } from '@jest/globals';
import { lookupStatus } from '../../server/lib/statusTable.js';
import { SPEC_GROUPS } from '../../server/providers/adapter.js';
import {
  BACEN_COB_CREATED,
  BACEN_COB_READ,
  BACEN_DEVOLUCAO,
  BACEN_PIX_CREDENTIALS,
  BacenPixAdapter,
  bacenPixAuth,
  DICT_PAYMENT_ACCEPTED,
  DICT_PAYMENT_CREATED,
  DICT_PAYMENT_READ,
  readBacenPixNotification,
  fromDevolucao,
  fromSellsRefund,
  SELLS_REFUND,
  COB_STATUSES,
  fromCob,
  fromDictPayment,
  PAYOUT_STATUSES,
  statusOfCob,
  toCobRequest,
  toDictPaymentRequest,
  type BacenPixMember,
} from '../../server/providers/families/bacenPix/index.js';
import { parseCredentials } from '../../server/providers/kit/credentials.js';
import { bacenPixConformance } from './conformance/bacenPix.suite.js';

/**
 * The BACEN API Pix family without HTTP: its payout rules and its pure
 * mappers' edge cases. What a member does over HTTP, its statuses and
 * notifications are the conformance suite's (conformance/bacenPix.suite.ts),
 * run at the end for a member that declares only the family's defaults; the
 * statuses the spec names for each member are the catalogue test's.
 */

const lookup = (value: unknown) => lookupStatus(COB_STATUSES, value);

describe('the payout table keeps the withdraw rules (doc 1 §4)', () => {
  it.each([
    ['LIQUIDATED', 'APPROVED'],
    ['CANCELED', 'CANCELED'],
    ['REJECTED', 'REJECTED'],
    ['PROCESSING', 'PENDING'],
    // A payout wrongly recorded as failed could be paid twice.
    ['ANYTHING_NEW', 'PENDING'],
  ])('%s is %s', (status, expected) => {
    expect(lookupStatus(PAYOUT_STATUSES, status)).toBe(expected);
  });
});

describe('cob status', () => {
  const received = (returned: string) => [
    {
      endToEndId: 'E1',
      txid: 't',
      valor: '10.00',
      devolucoes: [
        { id: 'd1', valor: returned, status: 'DEVOLVIDO' },
        { id: 'd2', valor: '10.00', status: 'NAO_REALIZADO' },
      ],
    },
  ];

  it('a paid cob whose Pix was wholly returned is CHARGEBACK; a partial devolução keeps it APPROVED; no status is PENDING', () => {
    const cob = (body: object) => BACEN_COB_READ.parse(body);
    expect(statusOfCob(cob({ status: 'CONCLUIDA', pix: received('10.00') }), lookup)).toBe('CHARGEBACK');
    expect(statusOfCob(cob({ status: 'CONCLUIDA', pix: received('4.00') }), lookup)).toBe('APPROVED');
    expect(statusOfCob(cob({ status: 'ATIVA', pix: [] }), lookup)).toBe('PENDING');
    expect(statusOfCob({}, () => 'REJECTED')).toBe('PENDING');
  });
});

describe('request mappers', () => {
  const customer = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '11987654321' };

  it.each([
    [1990, '19.90'],
    [29, '0.29'],
    [1, '0.01'],
    [100, '1.00'],
    [123456789, '1234567.89'],
  ])('valor.original for %i cents is %s, without float rounding', (amount, original) => {
    expect(toCobRequest({ amount }, { expirySeconds: 60 }).valor.original).toBe(original);
  });

  it('devedor is {cnpj, nome} for 14 digits and left out when half known; solicitacaoPagador is cut at 140; no chave, none sent', () => {
    const cob = (extra: object) => toCobRequest({ amount: 100, customer: { ...customer, ...extra } }, { expirySeconds: 60 });
    expect(cob({ document: '11.222.333/0001-81' }).devedor).toEqual({ cnpj: '11222333000181', nome: 'Ana Souza' });
    // devedor is optional in the API Pix, and a half devedor is refused by it.
    expect(cob({ document: '123' })).not.toHaveProperty('devedor');
    expect(cob({ name: ' ' })).not.toHaveProperty('devedor');
    expect(cob({})).not.toHaveProperty('chave');
    expect(toCobRequest({ amount: 100, description: 'x'.repeat(200) }, { expirySeconds: 60 }).solicitacaoPagador).toHaveLength(140);
  });

  it('payout keys: CPF as digits, e-mail and random keys as given; the amount in reais', () => {
    const style = { phonePrefix: '+55' } as const;
    expect(toDictPaymentRequest({ amount: 29, pixKey: '123.456.789-09', pixType: 'CPF' }, style)).toMatchObject({
      pixKey: '12345678909',
      payment: { amount: 0.29 },
    });
    expect(toDictPaymentRequest({ amount: 1, pixKey: 'Ana@Example.com', pixType: 'EMAIL' }, style).pixKey).toBe('Ana@Example.com');
    const random = 'c873834c-ed18-4e63-8e5d-90190392b744';
    expect(toDictPaymentRequest({ amount: 1, pixKey: random, pixType: 'RANDOM' }, style).pixKey).toBe(random);
    expect(toDictPaymentRequest({ amount: 1, pixKey: ' any-key ' }, style)).not.toHaveProperty('creditorDocument');
  });

  it('credentials: publicKey clientId|chave?, secretKey clientSecret|certificatePassphrase?', () => {
    expect(parseCredentials(BACEN_PIX_CREDENTIALS, { publicKey: 'client-1|chave@example.com', secretKey: 's3cret|p12-pass' })).toMatchObject({
      clientId: 'client-1',
      chave: 'chave@example.com',
      clientSecret: 's3cret',
      certificatePassphrase: 'p12-pass',
    });
    expect(parseCredentials(BACEN_PIX_CREDENTIALS, { publicKey: 'client-1', secretKey: 's3cret' })).toMatchObject({
      chave: undefined,
      certificatePassphrase: undefined,
    });
    expect(() => parseCredentials(BACEN_PIX_CREDENTIALS, { publicKey: 'a|b|c', secretKey: 's' })).toThrow(
      expect.objectContaining({ code: 'FAILED_PRECONDITION' }),
    );
    expect(() => parseCredentials(BACEN_PIX_CREDENTIALS, { publicKey: 'a', secretKey: '' })).toThrow(expect.objectContaining({ code: 'FAILED_PRECONDITION' }));
  });
});

describe('response mappers', () => {
  it.each([
    ['19.90', 1990],
    ['0.29', 29],
    ['19.9', 1990],
    ['10', 1000],
    ['1234567.89', 123456789],
  ])('valor.original %s is %i cents', (original, cents) => {
    expect(fromCob(BACEN_COB_READ.parse({ txid: 't', status: 'ATIVA', valor: { original } }), lookup).amount).toBe(cents);
  });

  it('a cob without valor or calendario takes the amount asked for and expires after the validity asked, from the request', () => {
    const requestedAt = new Date('2026-02-01T00:00:00Z');
    expect(fromCob({ txid: 't' }, lookup, { amount: 500, requestedAt, expirySeconds: 3600 })).toEqual({
      paymentMethod: 'PIX',
      transactionId: 't',
      status: 'PENDING',
      amount: 500,
      expiresAt: new Date('2026-02-01T01:00:00Z'),
    });
  });

  it('payouts: the id is the endToEndId, else the numeric id; APPROVED carries approvedAt (eventDate, else now)', () => {
    const approved = () => 'APPROVED' as const;
    const read = DICT_PAYMENT_READ.parse({ id: 1448625, status: 'LIQUIDATED', eventDate: '2025-01-09T03:56:21.291+00:00' });
    expect(fromDictPayment(read, approved, { amount: 50 })).toEqual({
      withdrawId: '1448625',
      amount: 50,
      status: 'APPROVED',
      approvedAt: new Date('2025-01-09T03:56:21.291Z'),
    });
    const now = new Date('2026-03-01T00:00:00Z');
    expect(fromDictPayment({ endToEndId: 'E1' }, () => 'REJECTED', { amount: 70, approvedAtCreation: true, now })).toEqual({
      withdrawId: 'E1',
      amount: 70,
      status: 'APPROVED',
      approvedAt: now,
    });
    expect(fromDictPayment({ endToEndId: 'E1' }, approved)).toMatchObject({ status: 'PENDING', amount: 0 });
  });

  it("a payout read back failed carries its errorCode as the refusal's reason (Pagstar's transfer details); in progress, none", () => {
    const status = (value: string) => lookupStatus(PAYOUT_STATUSES, value);
    // docs.pagstar.com/reference/account-api-get-transfer-details: CANCELED with the SPI code that caused it in `errorCode`.
    const cancelled = DICT_PAYMENT_READ.parse({ data: { id: 1, idempotencyKey: 'k1', status: 'CANCELED', errorCode: 'AC06', payment: { amount: 10.5 } } });
    expect(fromDictPayment(cancelled, status)).toEqual({ withdrawId: '1', amount: 1050, status: 'CANCELED', refusalReason: 'AC06' });
    const processing = DICT_PAYMENT_READ.parse({ data: { id: 1, status: 'PROCESSING', errorCode: 'AC06' } });
    expect(fromDictPayment(processing, status)).not.toHaveProperty('refusalReason');
    // A code that is not a text is no reason to refuse the answer: the payout is still read.
    expect(fromDictPayment(DICT_PAYMENT_READ.parse({ id: 1, status: 'CANCELED', errorCode: 42 }), status)).toEqual({
      withdrawId: '1',
      amount: 0,
      status: 'CANCELED',
    });
  });
});

/** A PSP that speaks only the Banco Central's standard: form token with HTTP Basic, its own validity, a status of its own, cash-in only. */
const STANDARD: BacenPixMember = {
  identity: { id: 'STANDARDPSP', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://127.0.0.1:1' },
  capabilities: { paymentMethods: ['PIX'], webhooks: true },
  auth: bacenPixAuth(),
  money: 'reais',
  sources: 'a test declaration',
  expiry: { pixSeconds: 3600 },
  statuses: { transaction: { overrides: { EXPIRADA: 'CANCELED' } } },
};

describe('a member declaring only the family defaults', () => {
  it('a member must say how it refunds, pays out and looks payouts up when it offers them', () => {
    expect(() => new BacenPixAdapter({ ...STANDARD, capabilities: { ...STANDARD.capabilities, refunds: true } })).toThrow(/without saying how \(refund\)/);
    expect(() => new BacenPixAdapter({ ...STANDARD, capabilities: { ...STANDARD.capabilities, withdrawMethods: ['PIX'] } })).toThrow(/\(payout\)/);
    expect(() => new BacenPixAdapter({ ...STANDARD, capabilities: { ...STANDARD.capabilities, withdrawalLookup: true }, payout: {} })).toThrow(/lookupPath/);
    expect(() => new BacenPixAdapter({ ...STANDARD, money: 'cents' })).toThrow(/carries amounts in reais/);
    const refunds = { ...STANDARD, capabilities: { ...STANDARD.capabilities, refunds: true }, refund: { kind: 'post', path: '/sells/{id}/refund' } } as const;
    expect(() => new BacenPixAdapter({ ...refunds, publicRefund: { kind: 'devolucao' } })).toThrow(/api_version that chooses it/);
  });

  bacenPixConformance(STANDARD, { keys: { clientId: 'std-client', clientSecret: 'std-secret', chave: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906' } });
});

/**
 * A PSP of the family with the spec's fixed texts declared for its failures
 * (issue 27 §1): the family once had a failure path of its own (its HTTP
 * client's error prefix) that ignored them. Every call now fails through the
 * kit's `failure`, so the suite expects the declared text wherever one is.
 */
const WITH_FIXED_TEXTS: BacenPixMember = {
  identity: { id: 'FIXEDTEXTPSP', specGroup: SPEC_GROUPS.DOC2_GROUP2, defaultBaseUrl: 'https://127.0.0.1:1' },
  capabilities: { paymentMethods: ['PIX'], withdrawMethods: ['PIX'], withdrawalLookup: true, refunds: true, webhooks: true },
  auth: bacenPixAuth({ clientAuth: 'body' }),
  money: 'reais',
  sources: 'a test declaration',
  refund: { kind: 'devolucao' },
  payout: { lookupPath: '/pix/payments/{id}' },
  failures: { createTransaction: 'CREATE_TRANSACTION_FAILED', refoundTransaction: 'REFUND_APPROVAL_FAILED', withdraw: 'ERROR_ON_WITHDRAW' },
  notFound: { getTransaction: 'TRANSACAO_NAO_ENCONTRADA' },
};

describe('a member declaring fixed failure texts', () => {
  bacenPixConformance(WITH_FIXED_TEXTS, { keys: { clientId: 'fixed-client', clientSecret: 'fixed-secret', chave: 'pix@loja.example' } });
});

describe('answers are read by schema: a bad answer is refused, the leniency the PSPs need is explicit', () => {
  const refusedBy = (schema: { safeParse(value: unknown): { success: boolean } }, body: unknown) => !schema.safeParse(body).success;

  it.each([
    ['an HTML page', '<html>Bad gateway</html>'],
    ['no txid', { status: 'ATIVA', pixCopiaECola: '000201' }],
    ['no BR Code', { txid: 't1', status: 'ATIVA' }],
    ['an amount that is not one', { txid: 't1', pixCopiaECola: '000201', valor: { original: 'dez reais' } }],
    ['a status of another type', { txid: 't1', pixCopiaECola: '000201', status: 7 }],
    ['a Pix list that is not one', { txid: 't1', pixCopiaECola: '000201', pix: 'E1' }],
  ])('POST /cob answered with %s is a bad answer', (_label, body) => {
    expect(refusedBy(BACEN_COB_CREATED, body)).toBe(true);
  });

  it('GET /cob needs a status; a payout answer needs an id; a devolução a status; a /sells answer something about the refund', () => {
    expect(refusedBy(BACEN_COB_READ, { txid: 't1', valor: { original: '1.00' } })).toBe(true);
    expect(refusedBy(DICT_PAYMENT_CREATED, { status: 'PROCESSING' })).toBe(true);
    expect(refusedBy(DICT_PAYMENT_READ, { endToEndId: 'E1' })).toBe(true);
    expect(refusedBy(BACEN_DEVOLUCAO, { id: 'd1', rtrId: 'D1', valor: '1.00' })).toBe(true);
    expect(refusedBy(SELLS_REFUND, {})).toBe(true);
  });

  it("reads ids as text, reais as a number or a decimal text, seconds as digits, and the API Pix example's single devolução object as a list", () => {
    expect(BACEN_COB_READ.parse({ status: 'CONCLUIDA', calendario: { expiracao: '3600' }, valor: { original: 19.9 } })).toMatchObject({
      calendario: { expiracao: 3600 },
      valor: { original: 1990 },
    });
    expect(DICT_PAYMENT_CREATED.parse({ id: 1448625, e2eId: 'E9', payment: { amount: '10.50' } })).toMatchObject({
      id: '1448625',
      e2eId: 'E9',
      payment: { amount: 1050 },
    });
    const pix = BACEN_COB_READ.parse({
      status: 'CONCLUIDA',
      pix: [{ endToEndId: 'E1', txid: 't', valor: '110.00', devolucoes: { id: '123ABC', valor: '10.00', status: 'EM_PROCESSAMENTO' } }],
    }).pix![0]!;
    expect(pix.devolucoes).toEqual([{ id: '123ABC', valor: 1000, status: 'EM_PROCESSAMENTO' }]);
  });

  it("a payout read in {data} (Onz's Accounts API, Pagstar) is the payout; a 202 with no body is accepted where payouts are known by their key", () => {
    expect(DICT_PAYMENT_READ.parse({ data: { id: 7, idempotencyKey: 'k1', status: 'LIQUIDATED', payment: { amount: 10.5 } } })).toMatchObject({
      id: '7',
      status: 'LIQUIDATED',
      payment: { amount: 1050 },
    });
    expect(refusedBy(DICT_PAYMENT_READ, { data: { id: 7 } })).toBe(true);
    expect(DICT_PAYMENT_ACCEPTED.parse('')).toEqual({});
    expect(DICT_PAYMENT_ACCEPTED.parse({ status: 'PROCESSING' })).toEqual({ status: 'PROCESSING' });
    expect(refusedBy(DICT_PAYMENT_ACCEPTED, '<html>Bad gateway</html>')).toBe(true);
  });
});

describe('the TRANSFER notification names the payout as the member knows it', () => {
  const body = Buffer.from(JSON.stringify({ type: 'TRANSFER', data: { id: 7, idempotencyKey: 'k1', endToEndId: 'E1', status: 'LIQUIDATED' } }));
  const status = (value: string) => lookupStatus(PAYOUT_STATUSES, value);

  it('by its endToEndId (default), or by the idempotency key sent (knownBy idempotencyKey)', () => {
    expect(readBacenPixNotification(body, status)).toEqual({ type: 'WITHDRAW', transactionId: 'E1', status: 'APPROVED' });
    expect(readBacenPixNotification(body, status, { payoutKnownBy: 'idempotencyKey' })).toEqual({ type: 'WITHDRAW', transactionId: 'k1', status: 'APPROVED' });
  });

  it("a failed payout carries its errorCode as the refusal's reason (Pagstar's CANCELED, Avista's ERROR); a settled one none", () => {
    // docs.pagstar.com/reference/account-api-configure-webhook: {data{…, status CANCELED, errorCode AB03, …}, type TRANSFER}.
    const cancelled = Buffer.from(
      JSON.stringify({ type: 'TRANSFER', data: { id: 0, idempotencyKey: 'k2', endToEndId: 'E2', status: 'CANCELED', errorCode: 'AB03' } }),
    );
    expect(readBacenPixNotification(cancelled, status, { payoutKnownBy: 'idempotencyKey' })).toEqual({
      type: 'WITHDRAW',
      transactionId: 'k2',
      status: 'CANCELED',
      refusalReason: 'AB03',
    });
    // Avista's "PIX Bacen" TRANSFER page: status LIQUIDATED | ERROR, errorCode null on success. (AC03 is an SPI code of Pagstar's table.)
    const failed = Buffer.from(JSON.stringify({ type: 'TRANSFER', data: { id: 456, endToEndId: 'E3', status: 'ERROR', errorCode: 'AC03' } }));
    expect(readBacenPixNotification(failed, status)).toEqual({ type: 'WITHDRAW', transactionId: 'E3', status: 'REJECTED', refusalReason: 'AC03' });
    const settled = Buffer.from(JSON.stringify({ type: 'TRANSFER', data: { id: 456, endToEndId: 'E3', status: 'LIQUIDATED', errorCode: null } }));
    expect(readBacenPixNotification(settled, status)).toEqual({ type: 'WITHDRAW', transactionId: 'E3', status: 'APPROVED' });
  });
});

describe("the PIX payment that paid a charge: the API Pix's endToEndId; RECEIVE's payer's bank and masked document", () => {
  const status = (value: string) => lookupStatus(PAYOUT_STATUSES, value);
  const notification = (body: unknown) => readBacenPixNotification(Buffer.from(JSON.stringify(body)), status);
  const E2E = 'E12345678202009091221kkkkkkkkkkk';

  it("the API Pix's webhook and GET /cob state the endToEndId only: its Pix names no payer", () => {
    expect(notification({ pix: [{ endToEndId: E2E, txid: 't1', valor: '110.00', horario: '2020-09-09T20:15:00.358Z', infoPagador: '0123456789' }] })).toEqual({
      type: 'TRANSACTION',
      transactionId: 't1',
      status: 'APPROVED',
      pixPayment: { endToEndId: E2E },
    });
    const cob = BACEN_COB_READ.parse({ txid: 't1', status: 'CONCLUIDA', pix: [{ endToEndId: E2E, txid: 't1', valor: '1.00', horario: 'x' }] });
    expect(fromCob(cob, lookup).pixPayment).toEqual({ endToEndId: E2E });
    expect(fromCob(BACEN_COB_READ.parse({ txid: 't1', status: 'ATIVA' }), lookup).pixPayment).toBeUndefined();
  });

  it("RECEIVE: the endToEndId and debtorAccount's ispb, bank name and masked document; null parts left out; other events state none", () => {
    const debtorAccount = { ispb: '18236120', name: 'NU PAGAMENTOS S.A.', issuer: '260', number: '12345-6', document: '123.xxx.xxx-xx', accountType: null };
    const data = { id: 123, txId: 't1', status: 'LIQUIDATED', endToEndId: E2E, debtorAccount };
    expect(notification({ type: 'RECEIVE', data })).toEqual({
      type: 'TRANSACTION',
      transactionId: 't1',
      status: 'APPROVED',
      pixPayment: { endToEndId: E2E, payerDocument: '123.xxx.xxx-xx', payerBankIspb: '18236120', payerBankName: 'NU PAGAMENTOS S.A.' },
    });
    expect(notification({ type: 'RECEIVE', data: { ...data, endToEndId: null, debtorAccount: { ...debtorAccount, document: null, name: 7 } } })).toEqual({
      type: 'TRANSACTION',
      transactionId: 't1',
      status: 'APPROVED',
      pixPayment: { payerBankIspb: '18236120' },
    });
    expect(notification({ type: 'REFUND', data })).toEqual({ type: 'TRANSACTION', transactionId: 't1', status: 'CHARGEBACK' });
  });
});

describe('refund outcomes (docs/decisions.md: done, in progress, refused)', () => {
  it.each([
    ['EM_PROCESSAMENTO', { refundId: 'D1', status: true, pending: true }],
    ['DEVOLVIDO', { refundId: 'D1', status: true }],
    ['NAO_REALIZADO', { refundId: 'D1', status: false }],
    ['A_STATUS_NOT_NAMED', { refundId: 'D1', status: true, pending: true }],
  ])('a devolução %s', (status, expected) => {
    expect(fromDevolucao(BACEN_DEVOLUCAO.parse({ id: 'd1', rtrId: 'D1', status }), 'E1')).toEqual(expected);
  });

  it("the /sells refund: its id or the charge's; a failure flag refused, an answer without a status in progress", () => {
    expect(fromSellsRefund(SELLS_REFUND.parse({ success: false }), 'tx1')).toEqual({ refundId: 'tx1', status: false });
    expect(fromSellsRefund(SELLS_REFUND.parse({ id: 77, success: true }), 'tx1')).toEqual({ refundId: '77', status: true, pending: true });
    expect(fromSellsRefund(SELLS_REFUND.parse({ refundId: 'r1', status: 'LIQUIDATED' }), 'tx1')).toEqual({ refundId: 'r1', status: true });
  });
});
