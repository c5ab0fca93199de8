import { describe, expect, it } from '@jest/globals';
import {
  TRANSACTIONS_API_PATHS,
  TRANSACTIONS_API_STATUSES,
  apiTransactionRequest,
  fromApiRefund,
  fromApiTransaction,
  parseNotification,
  toApiRefund,
  toApiTransaction,
  transactionsApiAnswers,
  type RequestTerms,
  type ResponseTerms,
} from '../../server/providers/families/transactionsApi/index.js';
import { f1TransactionRequest, f1TransferRequest, toF1Transaction, toF1Transfer } from '../../server/providers/families/transactionsApi/platforms/f1.js';
import { parseAnswer } from '../../server/providers/kit/answers.js';
import { fillPath } from '../../server/providers/kit/declaration.js';
import { centsToReais, reaisToCents } from '../../server/lib/money.js';
import { declaredStatusTable, lookupStatus } from '../../server/lib/statusTable.js';
import type { TransactionStatus } from '../../server/domain/types.js';
import { bareTransactionInput } from './conformance/harness.js';

/** The family's pure parts, without HTTP: its status table, mappers and notification parser. */

const now = new Date('2025-03-10T12:00:00.000Z');
const DAY = 86_400;
const status = (value: unknown): TransactionStatus => lookupStatus(TRANSACTIONS_API_STATUSES, value);
const terms: RequestTerms = {
  amount: (cents) => cents,
  pixSeconds: DAY,
  boletoSeconds: 3 * DAY,
  notificationUrl: 'http://127.0.0.1:8081/webhooks/PAGUESAFE/acc-1',
};
const ctx = { notificationUrl: terms.notificationUrl };

const input = bareTransactionInput;

describe('the family status table (spec doc 1 §4, doc 2 §4 common pattern)', () => {
  const named: Array<[string, TransactionStatus]> = [
    ['waiting', 'PENDING'],
    ['waiting_payment', 'PENDING'],
    ['processing', 'PENDING'],
    ['pending', 'PENDING'],
    ['created', 'PENDING'],
    ['awaiting', 'PENDING'],
    ['authorized', 'PENDING'],
    ['paid', 'APPROVED'],
    ['approved', 'APPROVED'],
    ['confirmed', 'APPROVED'],
    ['received', 'APPROVED'],
    ['completed', 'APPROVED'],
    ['captured', 'APPROVED'],
    ['refunded', 'REFUNDED'],
    ['voided', 'REFUNDED'],
    ['chargeback', 'CHARGEBACK'],
    ['chargedback', 'CHARGEBACK'],
    ['in_protest', 'CHARGEBACK'],
    ['in_dispute', 'CHARGEBACK'],
    ['dispute', 'CHARGEBACK'],
    ['retained', 'CHARGEBACK'],
    ['refused', 'REJECTED'],
    ['failed', 'REJECTED'],
    ['declined', 'REJECTED'],
    ['expired', 'REJECTED'],
    ['canceled', 'CANCELED'],
    ['cancelled', 'CANCELED'],
  ];

  it.each(named)('%s → %s', (value, expected) => {
    expect(status(value)).toBe(expected);
  });

  it('is exactly the named statuses: nothing in the table escapes the test above', () => {
    expect(Object.keys(TRANSACTIONS_API_STATUSES.entries).sort()).toEqual(named.map(([value]) => value).sort());
  });

  it('ignores case and surrounding spaces; anything else (missing, not text, inherited keys) is the REJECTED default', () => {
    expect(status('PAID')).toBe('APPROVED');
    expect(status(' Waiting_Payment ')).toBe('PENDING');
    for (const value of [undefined, 42, 'constructor', 'in_analysis']) expect(status(value)).toBe('REJECTED');
  });

  it('takes a member\'s overrides and "unknown" default over the family\'s table', () => {
    const table = declaredStatusTable(TRANSACTIONS_API_STATUSES, { overrides: { Refunded: 'CHARGEBACK', infraction: 'CHARGEBACK' }, unknown: 'PENDING' });
    expect(['refunded', 'INFRACTION', 'paid', 'something_new'].map((value) => lookupStatus(table, value))).toEqual([
      'CHARGEBACK',
      'CHARGEBACK',
      'APPROVED',
      'PENDING',
    ]);
  });

  it('lets a member replace the table (VENITIP: only paid, received, confirmed approve; anything else PENDING)', () => {
    const table = declaredStatusTable(TRANSACTIONS_API_STATUSES, {
      table: { paid: 'APPROVED', received: 'APPROVED', confirmed: 'APPROVED', refused: 'REJECTED', refunded: 'REJECTED', infraction: 'REJECTED' },
      unknown: 'PENDING',
    });
    expect(['completed', 'refunded', 'received'].map((value) => lookupStatus(table, value))).toEqual(['PENDING', 'REJECTED', 'APPROVED']);
  });
});

describe('money through the helpers', () => {
  it("sends the refund amount in the member's unit", () => {
    expect(toApiRefund(1001, (cents) => cents)).toEqual({ amount: 1001 });
    expect(toApiRefund(1001, centsToReais)).toEqual({ amount: 10.01 });
  });
});

describe('request mapper', () => {
  it('builds a PIX charge with the sidecar as postback URL, one default item and the PIX validity', () => {
    expect(toApiTransaction(input({ description: 'Curso', orderId: 'ord-1', customerIp: '10.0.0.1' }), terms)).toEqual({
      amount: 1990,
      paymentMethod: 'pix',
      pix: { expiresInDays: 1 },
      items: [{ title: 'Curso', unitPrice: 1990, quantity: 1, tangible: false }],
      postbackUrl: ctx.notificationUrl,
      externalRef: 'ord-1',
      description: 'Curso',
      ip: '10.0.0.1',
      currency: 'BRL',
    });
  });

  it('maps the customer: document digits and type, national phone digits, address', () => {
    const body = toApiTransaction(
      input({
        paymentMethod: 'BILLET',
        customer: { name: 'Ana', email: 'ana@example.com', document: '123.456.789-09', phone: '+55 (11) 98765-4321' },
        address: { zipCode: '01310-100', address: 'Av. Paulista', number: '1000', district: 'Bela Vista', city: 'São Paulo', state: 'SP' },
      }),
      terms,
    );
    expect(body).toMatchObject({
      paymentMethod: 'boleto',
      boleto: { expiresInDays: 3 },
      customer: {
        name: 'Ana',
        email: 'ana@example.com',
        phone: '11987654321',
        document: { number: '12345678909', type: 'cpf' },
        address: {
          street: 'Av. Paulista',
          streetNumber: '1000',
          neighborhood: 'Bela Vista',
          city: 'São Paulo',
          state: 'SP',
          zipCode: '01310100',
          country: 'BR',
        },
      },
    });
    expect(body).not.toHaveProperty('pix');
    const company = toApiTransaction(input({ customer: { name: 'ACME', email: 'a@b.c', document: '11.222.333/0001-81', phone: '1133334444' } }), terms);
    expect(company.customer?.document).toEqual({ number: '11222333000181', type: 'cnpj' });
  });

  it('sends a card charge with the card id and installments', () => {
    expect(toApiTransaction(input({ paymentMethod: 'CREDIT_CARD', cardId: 'card_9', installments: 3 }), terms)).toMatchObject({
      paymentMethod: 'credit_card',
      installments: 3,
      card: { id: 'card_9' },
    });
  });

  it('converts every amount of a reais member: total, items and fixed splits (percentages stay)', () => {
    const body = toApiTransaction(
      input({
        amount: 3029,
        items: [
          { id: 'sku-1', title: 'Livro', unitPrice: 1029, quantity: 2, tangible: true },
          { id: 'sku-2', title: 'Frete', unitPrice: 971, quantity: 1, tangible: false },
        ],
        splits: [
          { recipientId: 're_1', amount: 529, type: 'FIXED', chargeProcessingFee: true, chargeRemainder: false, liable: true },
          { recipientId: 're_2', amount: 10, type: 'PERCENTAGE', chargeProcessingFee: false, chargeRemainder: true, liable: false },
        ],
      }),
      { ...terms, amount: centsToReais },
    );
    expect(body.amount).toBe(30.29);
    expect(body.items).toEqual([
      { externalRef: 'sku-1', title: 'Livro', unitPrice: 10.29, quantity: 2, tangible: true },
      { externalRef: 'sku-2', title: 'Frete', unitPrice: 9.71, quantity: 1, tangible: false },
    ]);
    expect(body.splits).toEqual([
      { recipientId: 're_1', type: 'fixed', amount: 5.29, chargeProcessingFee: true, chargeRemainder: false, liable: true },
      { recipientId: 're_2', type: 'percentage', amount: 10, chargeProcessingFee: false, chargeRemainder: true, liable: false },
    ]);
  });

  it('builds bodies of the request schema (wire.ts)', () => {
    const bodies = [
      toApiTransaction(input({ description: 'Curso', orderId: 'ord-1' }), terms),
      toApiTransaction(input({ paymentMethod: 'CREDIT_CARD', cardId: 'card_9', installments: 3, items: [] }), terms),
    ];
    for (const body of bodies) expect(apiTransactionRequest.parse(body)).toEqual(body);
  });

  it('fills path templates with the URL-encoded id', () => {
    expect(fillPath(TRANSACTIONS_API_PATHS.get, { id: 'tx 1/2' })).toBe('/transactions/tx%201%2F2');
    expect(fillPath(TRANSACTIONS_API_PATHS.refund.path, { id: '42' })).toBe('/transactions/42/refund');
  });
});

describe('answers read by schema, then mapped', () => {
  const context = (extra: Partial<ResponseTerms> = {}): ResponseTerms => ({ status, pixSeconds: DAY, boletoSeconds: 3 * DAY, now, ...extra });
  /** A cents member's reader, as DeclaredAdapter.fromProviderAmount: anything but an integer is no amount. */
  const cents = transactionsApiAnswers((value) => {
    if (!Number.isSafeInteger(Number(value))) throw new RangeError('not cents');
    return Number(value);
  });
  const reais = transactionsApiAnswers(reaisToCents);
  /** The transaction answer parsed as a cents member's, then mapped. */
  const transaction = (body: unknown, terms = context(), answers = cents) => {
    const answer = parseAnswer(answers.transaction, body);
    if (answer.refused) throw new Error(`refused: ${answer.message}`);
    return fromApiTransaction(answer.value, terms);
  };
  const refund = (body: unknown, transactionId: string) => fromApiRefund(parseAnswer(cents.refund, body), transactionId);

  it("maps a PIX answer: numeric id as text, status, code and the provider's expiry", () => {
    expect(
      transaction({
        id: 123,
        status: 'waiting_payment',
        amount: 1990,
        paymentMethod: 'pix',
        pix: { qrcode: '00020126...6304ABCD', expirationDate: '2025-03-11T12:00:00.000Z' },
      }),
    ).toEqual({
      paymentMethod: 'PIX',
      transactionId: '123',
      status: 'PENDING',
      amount: 1990,
      pixCode: '00020126...6304ABCD',
      expiresAt: new Date('2025-03-11T12:00:00.000Z'),
    });
  });

  it("gives a refused card's refusedReason as its decline reason and text (it has no code); none for a card not refused or another method", () => {
    const refused = { id: 9, status: 'refused', amount: 4100, paymentMethod: 'credit_card', refusedReason: 'Cartão recusado pelo emissor' };
    expect(transaction(refused)).toMatchObject({
      status: 'REJECTED',
      declineReason: 'Cartão recusado pelo emissor',
      declineMessage: 'Cartão recusado pelo emissor',
    });
    expect(transaction({ ...refused, status: 'paid', refusedReason: null })).not.toHaveProperty('declineReason');
    expect(transaction({ ...refused, status: 'paid', refusedReason: null })).not.toHaveProperty('declineMessage');
    expect(transaction({ ...refused, paymentMethod: 'pix', pix: { qrcode: 'x' } })).not.toHaveProperty('declineReason');
  });

  it("computes the expiry from the member's validity when the provider gives none, or one that is no date", () => {
    expect(transaction({ id: 'a', status: 'pending', amount: 100, paymentMethod: 'pix', pix: { qrcode: 'x' } }).expiresAt).toEqual(
      new Date('2025-03-11T12:00:00.000Z'),
    );
    expect(transaction({ id: 'b', status: 'pending', amount: 100, paymentMethod: 'boleto', boleto: {} }).expiresAt).toEqual(
      new Date('2025-03-13T12:00:00.000Z'),
    );
    expect(transaction({ id: 'c', status: 'pending', paymentMethod: 'pix', pix: { qrcode: 'x', expirationDate: 'amanhã' } }).expiresAt).toEqual(
      new Date('2025-03-11T12:00:00.000Z'),
    );
  });

  it('maps a boleto answer and a reais amount', () => {
    expect(
      transaction(
        {
          id: 'bol_1',
          status: 'waiting_payment',
          amount: 1234.56,
          paymentMethod: 'boleto',
          boleto: { url: 'https://b/1.pdf', digitableLine: '2379', barcode: '237', expirationDate: '2025-03-13' },
        },
        context(),
        reais,
      ),
    ).toEqual({
      paymentMethod: 'BILLET',
      transactionId: 'bol_1',
      status: 'PENDING',
      amount: 123456,
      billetCode: '2379',
      billetUrl: 'https://b/1.pdf',
      expiresAt: new Date('2025-03-13'),
    });
  });

  it('reads an answer inside { data }, and falls back to what was requested for missing fields', () => {
    expect(transaction({ data: { id: 'c1', status: 'paid' } }, context({ requested: { paymentMethod: 'CREDIT_CARD', amount: 5000 } }))).toEqual({
      paymentMethod: 'CREDIT_CARD',
      transactionId: 'c1',
      status: 'APPROVED',
      amount: 5000,
    });
  });

  it("passes on the read's refunded total where the member's platform documents it, in cents; unreadable, it is absent", () => {
    const read = (refundedAmount: unknown, answers = cents) =>
      transaction({ id: 'r1', status: 'paid', amount: 15000, paymentMethod: 'credit_card', refundedAmount }, context({ refundedAmount: true }), answers)
        .providerRefundedAmount;
    expect(read(4000)).toBe(4000);
    expect(read('4000')).toBe(4000);
    expect(read(0)).toBe(0);
    expect(read(40.5, reais)).toBe(4050);
    for (const malformed of [19.9, -100, 'quatro mil', true, { value: 4000 }, null, '', undefined]) expect(read(malformed)).toBeUndefined();
    // The rest of the answer stands: a malformed total is no bad answer.
    expect(transaction({ id: 'r2', status: 'paid', amount: 15000, refundedAmount: 'x' }, context({ refundedAmount: true })).amount).toBe(15000);
    // A member whose platform documents no such field: never read.
    expect(transaction({ id: 'r3', status: 'paid', amount: 15000, refundedAmount: 4000 })).not.toHaveProperty('providerRefundedAmount');
  });

  it('reads `success: false` with a message as the refusal it is, keeping the message (and no card number in it)', () => {
    expect(parseAnswer(cents.transaction, { success: false, message: 'Cartão 4111111111111111 recusado' })).toEqual({
      refused: true,
      message: expect.not.stringContaining('4111111111111111'),
    });
    expect(parseAnswer(cents.withdrawal, { success: false, error: 'Saldo insuficiente' })).toEqual({ refused: true, message: 'Saldo insuficiente' });
  });

  it.each<[string, unknown, string]>([
    ['a message without the refusal flag', { message: 'CPF inválido' }, 'id:'],
    ['an id without a status', { id: 'x' }, 'status:'],
    ['a bare text', 'oops', 'corpo:'],
    ['a refusal flag without a message', { success: false }, 'id:'],
    ['an amount that is not money in the unit', { id: 'x', status: 'paid', amount: 19.9 }, 'amount:'],
    ['a status that is not text', { id: 'x', status: 2 }, 'status:'],
    ['a PIX code that is not text', { id: 'x', status: 'paid', pix: { qrcode: 5 } }, 'pix.qrcode:'],
  ])('is a bad answer (outcome unknown, naming the field), never a refusal: %s', (_label, body, field) => {
    expect(() => parseAnswer(cents.transaction, body)).toThrow(
      expect.objectContaining({ code: 'UNAVAILABLE', reason: 'PROVIDER_BAD_RESPONSE', outcome: 'unknown', message: expect.stringContaining(field) }),
    );
  });

  it('maps a refund answer: the newest refund id; a refusal in a 2xx body is status false', () => {
    expect(refund({ id: 9, status: 'refunded', refunds: [{ id: 'r1' }, { id: 'r2' }] }, '9')).toEqual({ refundId: 'r2', status: true });
    expect(refund({ id: 9, status: 'paid' }, '9')).toEqual({ refundId: '9', status: true });
    expect(refund({ id: 9, status: 'refused' }, '9')).toEqual({ refundId: '9', status: false });
    expect(refund({ id: 9, status: 'FAILED' }, '9')).toEqual({ refundId: '9', status: false });
  });

  it('never reads an answer that says nothing of the refund as "refunded"', () => {
    for (const body of ['', {}, { refunds: [] }, { success: false, message: 'erro' }])
      expect(() => refund(body, 'tx-1')).toThrow(expect.objectContaining({ reason: 'PROVIDER_BAD_RESPONSE', outcome: 'unknown' }));
  });
});

describe('notifications', () => {
  const parse = (body: unknown) => parseNotification(Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)));

  it('reads the envelope, the data-only shape and the bare transaction', () => {
    const transaction = (id: string, value: string) => ({ kind: 'transaction', id, status: value });
    expect(parse({ id: 'pb_1', type: 'transaction', objectId: '123', url: 'x', data: { id: 123, status: 'paid' } })).toEqual({
      ...transaction('123', 'paid'),
      event: 'transaction',
    });
    expect(parse({ type: 'transaction', objectId: 777, data: { status: 'refunded' } })).toEqual({ ...transaction('777', 'refunded'), event: 'transaction' });
    expect(parse({ data: { id: 'tx_1', status: 'waiting_payment' } })).toEqual(transaction('tx_1', 'waiting_payment'));
    expect(parse({ id: 'tx_2', status: ' chargedback ' })).toEqual(transaction('tx_2', 'chargedback'));
    expect(parse({ event: 'transaction.paid', data: { id: 'tx_3', status: 'paid' } })).toEqual({ ...transaction('tx_3', 'paid'), event: 'transaction.paid' });
  });

  it('lets the event stand in for a missing status only where the member says its events name the status', () => {
    expect(parse({ event: 'transaction.paid', data: { id: 'tx_4' } })).toBeUndefined();
    expect(parseNotification(Buffer.from(JSON.stringify({ event: 'transaction.paid', data: { id: 'tx_4' } })), { statusFromEvent: true })).toEqual({
      kind: 'transaction',
      id: 'tx_4',
      status: 'transaction.paid',
      event: 'transaction.paid',
    });
  });

  it("does not take an envelope's own id for the transaction's", () => {
    expect(parse({ id: 'pb_1', type: 'transaction', data: { status: 'paid' } })).toBeUndefined();
  });

  it('reads payout events as withdrawals', () => {
    expect(parse({ type: 'transfer', objectId: '5', data: { id: 5, status: 'paid' } })).toEqual({
      kind: 'withdrawal',
      id: '5',
      status: 'paid',
      event: 'transfer',
    });
    expect(parse({ event: 'withdrawal.failed', data: { id: 'w1', status: 'failed' } })).toEqual({
      kind: 'withdrawal',
      id: 'w1',
      status: 'failed',
      event: 'withdrawal.failed',
    });
  });

  it('ignores other event types and bodies without an id or status, and what is not JSON', () => {
    expect(parse({ type: 'subscription', objectId: '5', data: { id: 5, status: 'paid' } })).toBeUndefined();
    expect(parse({ type: 42, data: { id: 5, status: 'paid' } })).toBeUndefined();
    expect(parse({ type: 'transaction', objectId: '5' })).toBeUndefined();
    expect(parse({ status: 'paid' })).toBeUndefined();
    expect(parse([{ id: 1, status: 'paid' }])).toBeUndefined();
    expect(parse('not json')).toBeUndefined();
    expect(parse('null')).toBeUndefined();
  });
});

describe('the F1 platform bodies (platforms/f1.ts)', () => {
  const f1 = { ...terms, now };

  it("charges a card by its hash and dates a boleto by Brazil's day, in the platform's request schema", () => {
    const card = toF1Transaction(input({ paymentMethod: 'CREDIT_CARD', cardId: 'hash_abc', installments: 2 }), f1);
    expect(card).toMatchObject({ paymentMethod: 'credit_card', installments: 2, card: { hash: 'hash_abc' } });
    // 2025-03-10T12:00Z plus 3 days is 2025-03-13 in Brazil; at 02:00Z the day there is still the one before.
    const boleto = toF1Transaction(input({ paymentMethod: 'BILLET' }), f1);
    expect(boleto.boleto).toEqual({ expirationDate: '2025-03-13' });
    expect(toF1Transaction(input({ paymentMethod: 'BILLET' }), { ...f1, now: new Date('2025-03-10T02:00:00.000Z') }).boleto).toEqual({
      expirationDate: '2025-03-12',
    });
    for (const body of [card, boleto]) expect(f1TransactionRequest.strict().parse(body)).toEqual(body);
  });

  it("pays out with method fiat and the key type it is given, in the platform's transfer schema", () => {
    const transfer = toF1Transfer({ paymentMethod: 'PIX', amount: 2500, pixKey: '(11) 98765-4321', pixType: 'PHONE' }, 'phone', terms);
    expect(transfer).toEqual({ method: 'fiat', amount: 2500, pixKey: '11987654321', pixKeyType: 'phone', postbackUrl: terms.notificationUrl });
    expect(f1TransferRequest.strict().parse(transfer)).toEqual(transfer);
  });
});
