import { describe, expect, it } from '@jest/globals';
import { lookupStatus } from '../../server/lib/statusTable.js';
import { SPEC_GROUPS } from '../../server/providers/adapter.js';
import {
  BACEN_PIX_CREDENTIALS,
  BacenPixAdapter,
  bacenPixAuth,
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
    expect(statusOfCob({ status: 'CONCLUIDA', pix: received('10.00') }, lookup)).toBe('CHARGEBACK');
    expect(statusOfCob({ status: 'CONCLUIDA', pix: received('4.00') }, lookup)).toBe('APPROVED');
    expect(statusOfCob({ status: 'ATIVA', pix: [] }, lookup)).toBe('PENDING');
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
    expect(fromCob({ txid: 't', status: 'ATIVA', valor: { original } }, lookup).amount).toBe(cents);
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
    expect(fromDictPayment({ id: 1448625, status: 'LIQUIDATED', eventDate: '2025-01-09T03:56:21.291+00:00' }, approved, { amount: 50 })).toEqual({
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
  });

  bacenPixConformance(STANDARD, { keys: { clientId: 'std-client', clientSecret: 'std-secret', chave: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906' } });
});
