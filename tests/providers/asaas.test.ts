import { describe, expect, it } from '@jest/globals';
import {
  ASAAS,
  AsaasAdapter,
  asaasCustomerRequest,
  asaasPaymentRequest,
  asaasRefundAnswer,
  asaasRefundOutcome,
  asaasRefundRequest,
  asaasTransferRequest,
  toAsaasCustomer,
  toAsaasPayment,
  toAsaasRefund,
  toAsaasTransfer,
  type AsaasRefundOutcome,
} from '../../server/providers/asaas/adapter.js';
import { CustomerDirectory } from '../../server/providers/asaas/customers.js';
import { CATALOGUE } from '../../server/lib/providerMessages.js';
import { BODIES_WITHOUT_RESOURCE, partial } from '../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, notification, providerHarness, transactionInput } from './conformance/harness.js';
import { PIX_KEY_SAMPLES, expectBodiesOf } from './requestSchemas.js';

/** ASAAS (spec doc 2, group 1): its public API v3 (official documentation, research). */

const AUTH = { access_token: '$aact_key' };
const DAY_MS = 86_400_000;
const PIX_CODE = '00020101021226820014br.gov.bcb.pix2560pix.asaas.com/qr/cobv/pay_1520400005303986540519.905802BR6304ABCD';
const CUSTOMER = { name: 'Ana Souza', cpfCnpj: '12345678909', email: 'ana@example.com', mobilePhone: '11987654321' };
const customerList = (data: unknown[]) => ({ object: 'list', hasMore: false, totalCount: data.length, limit: 10, offset: 0, data });

describe('ASAAS (spec doc 2, group 1), a bespoke adapter on its public API', () => {
  const h = providerHarness({ create: (runtime) => new AsaasAdapter(ASAAS, runtime), account: () => ({ publicKey: '', secretKey: '$aact_key' }) });
  /** The first charge for the document: Asaas has no customer for it (GET /customers?cpfCnpj=), so one is created. */
  const customerCreated = () => {
    h.fake.expect({ method: 'GET', path: '/customers', query: { cpfCnpj: '12345678909' }, headers: AUTH, reply: { body: customerList([]) } });
    h.fake.expect({ method: 'POST', path: '/customers', headers: AUTH, body: CUSTOMER, reply: { body: { object: 'customer', id: 'cus_1' } } });
  };

  it('offers PIX, boleto and card charges, reads, refunds, PIX transfers and their reads, webhooks; the secret key at the door', async () => {
    expect(h.adapter.operations).toEqual([
      'createTransaction',
      'getTransaction',
      'refoundTransaction',
      'withdraw',
      'getWithdraw',
      'processWebhook',
      'getAccountBalance',
    ]);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
  });

  it('a charge needs a customer (Asaas charges one) and a card its token, refused before anything is sent', async () => {
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ customer: undefined })))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'transaction.customer is required for ASAAS charges',
    });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD' })))).toEqual(CATALOGUE.CARD_ID_REQUIRED);
    expect(h.fake.received).toHaveLength(0);
  });

  it("builds bodies of its request schemas (the adapter's wire section)", () => {
    expectBodiesOf(asaasCustomerRequest, [
      toAsaasCustomer(transactionInput().customer!),
      toAsaasCustomer({ name: 'ACME', email: ' ', document: '11.222.333/0001-81', phone: '' }),
    ]);
    const terms = { customer: 'cus_1', value: 19.9, dueDate: NOW };
    expectBodiesOf(asaasPaymentRequest, [
      toAsaasPayment(transactionInput({ description: 'Curso' }), terms),
      toAsaasPayment(transactionInput({ paymentMethod: 'BILLET', orderId: undefined }), terms),
      toAsaasPayment(transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_1', customerIp: '203.0.113.7', installments: 3 }), terms),
    ]);
    expectBodiesOf(asaasRefundRequest, [toAsaasRefund(5.5)]);
    expectBodiesOf(asaasTransferRequest, [
      ...PIX_KEY_SAMPLES.map(([pixType, pixKey]) => toAsaasTransfer({ paymentMethod: 'PIX', amount: 2500, pixKey, pixType }, 25)),
      toAsaasTransfer({ paymentMethod: 'PIX', amount: 2500, pixKey: 'ana@example.com', pixType: 'EMAIL', description: 'Saque', withdrawReference: 'wd-1' }, 25),
    ]);
  });

  it('PIX: creates the customer, then POST /payments (billingType PIX, reais, due day), then reads the QR code', async () => {
    customerCreated();
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      headers: AUTH,
      body: { customer: 'cus_1', billingType: 'PIX', value: 19.9, dueDate: '2025-03-11', externalReference: 'order-77' },
      reply: { body: { object: 'payment', id: 'pay_1', status: 'PENDING', value: 19.9, billingType: 'PIX' } },
    });
    h.fake.expect({ method: 'GET', path: '/payments/pay_1/pixQrCode', headers: AUTH, reply: { body: { encodedImage: 'iVBORw0KGgo=', payload: PIX_CODE } } });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'pay_1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ pixQrCode: 'data:image/png;base64,iVBORw0KGgo=', expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it('boleto: the line from /identificationField and the bankSlipUrl, due in 3 days', async () => {
    customerCreated();
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      body: { customer: 'cus_1', billingType: 'BOLETO', value: 19.9, dueDate: '2025-03-13', externalReference: 'order-77' },
      reply: { body: { id: 'pay_2', status: 'PENDING', value: 19.9, bankSlipUrl: 'https://www.asaas.com/b/pdf/pay_2' } },
    });
    h.fake.expect({
      method: 'GET',
      path: '/payments/pay_2/identificationField',
      reply: { body: { identificationField: '00190000090281913600966281313172600000000019990' } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' }))).toEqual({
      ...{ paymentMethod: 'BILLET', transactionId: 'pay_2', status: 'PENDING', amount: 1990 },
      ...{ billetCode: '00190000090281913600966281313172600000000019990', billetUrl: 'https://www.asaas.com/b/pdf/pay_2' },
      expiresAt: new Date(NOW.getTime() + 3 * DAY_MS),
    });
  });

  it('card: the token as creditCardToken, the buyer IP and the installments', async () => {
    customerCreated();
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      body: {
        ...{ customer: 'cus_1', billingType: 'CREDIT_CARD', value: 19.9, dueDate: '2025-03-11', externalReference: 'order-77' },
        ...{ creditCardToken: 'tok_1', remoteIp: '203.0.113.7', installmentCount: 3, totalValue: 19.9 },
      },
      reply: { body: { id: 'pay_3', status: 'CONFIRMED', value: 19.9 } },
    });
    const input = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_1', customerIp: '203.0.113.7', installments: 3 });
    expect(await h.adapter.createTransaction(h.ctx, input)).toEqual({ paymentMethod: 'CREDIT_CARD', transactionId: 'pay_3', status: 'APPROVED', amount: 1990 });
  });

  it("reads Asaas' fee of a charge as its value less its netValue, in cents", async () => {
    customerCreated();
    // 2.99 % + R$ 0,49 of R$ 19,90: R$ 1,09, so a net of R$ 18,81.
    h.fake.expect({ method: 'POST', path: '/payments', reply: { body: { id: 'pay_4', status: 'CONFIRMED', value: 19.9, netValue: 18.81 } } });
    const input = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_1', customerIp: '203.0.113.7', installments: 3 });
    expect(await h.adapter.createTransaction(h.ctx, input)).toMatchObject({ transactionId: 'pay_4', amount: 1990, providerFee: 109 });
  });

  it.each([
    ['PENDING', 'PENDING'],
    ['AWAITING_RISK_ANALYSIS', 'PENDING'],
    ['CONFIRMED', 'APPROVED'],
    ['RECEIVED', 'APPROVED'],
    ['RECEIVED_IN_CASH', 'APPROVED'],
    ['DUNNING_RECEIVED', 'APPROVED'],
    ['REFUND_REQUESTED', 'APPROVED'],
    ['REFUNDED', 'REFUNDED'],
    ['CHARGEBACK_REQUESTED', 'CHARGEBACK'],
    ['CHARGEBACK_DISPUTE', 'CHARGEBACK'],
    ['OVERDUE', 'REJECTED'],
    ['DUNNING_REQUESTED', 'REJECTED'],
    ['MYSTERY', 'REJECTED'],
  ])('reads GET /payments/{id}: %s is %s', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/payments/pay_1', headers: AUTH, reply: { body: { id: 'pay_1', status, value: 19.9, billingType: 'BOLETO' } } });
    expect(await h.adapter.getTransaction(h.ctx, 'pay_1')).toEqual({ paymentMethod: 'BILLET', transactionId: 'pay_1', status: expected, amount: 1990 });
  });

  it("reads Asaas' fee from a payment's netValue too (value less netValue), so a read after the charge keeps it", async () => {
    const body = { id: 'pay_1', status: 'RECEIVED', value: 19.9, netValue: 18.91, billingType: 'PIX' };
    h.fake.expect({ method: 'GET', path: '/payments/pay_1', headers: AUTH, reply: { body } });
    expect(await h.adapter.getTransaction(h.ctx, 'pay_1')).toEqual({
      paymentMethod: 'PIX',
      transactionId: 'pay_1',
      status: 'APPROVED',
      amount: 1990,
      providerFee: 99,
    });
  });

  it('refunds by POST /payments/{id}/refund {value in reais}', async () => {
    h.fake.expect({ method: 'POST', path: '/payments/pay_1/refund', headers: AUTH, body: { value: 5 }, reply: { body: { id: 'pay_1', status: 'REFUNDED' } } });
    expect(await h.adapter.refoundTransaction(h.ctx, 'pay_1', 500)).toEqual({ refundId: 'pay_1', status: true });
  });

  it.each<[string, Record<string, unknown>, AsaasRefundOutcome]>([
    ['REFUNDED', { status: 'REFUNDED' }, 'done'],
    ['REFUND_IN_PROGRESS', { status: 'REFUND_IN_PROGRESS' }, 'in_progress'],
    ['REFUND_REQUESTED', { status: 'REFUND_REQUESTED' }, 'in_progress'],
    ['a partial PIX refund done', { status: 'RECEIVED', refunds: [{ status: 'DONE', value: 5, dateCreated: '2025-03-10 12:00:00' }] }, 'done'],
    ['a partial PIX refund pending', { status: 'RECEIVED', refunds: [{ status: 'PENDING', value: 5, dateCreated: '2025-03-10 12:00:00' }] }, 'in_progress'],
    [
      'a refund awaiting the account owner',
      { status: 'RECEIVED', refunds: [{ status: 'AWAITING_CRITICAL_ACTION_AUTHORIZATION', value: 5, dateCreated: '2025-03-10 12:00:00' }] },
      'in_progress',
    ],
    ['a partial card refund of a CONFIRMED payment', { status: 'CONFIRMED', refunds: [{ status: 'DONE', value: '5.00' }] }, 'done'],
    ['a CONFIRMED payment, the refund not listed yet', { status: 'CONFIRMED' }, 'in_progress'],
    ['a RECEIVED payment with an empty refunds list', { status: 'RECEIVED', refunds: null }, 'in_progress'],
    ['the refund cancelled', { status: 'RECEIVED', refunds: [{ status: 'CANCELLED', value: 5, dateCreated: '2025-03-10 12:00:00' }] }, 'refused'],
    [
      'an older refund of the same value done, the new one cancelled',
      {
        status: 'RECEIVED',
        refunds: [
          { status: 'DONE', value: 5, dateCreated: '2025-03-09 08:00:00' },
          { status: 'CANCELLED', value: 5, dateCreated: '2025-03-10 12:00:00' },
        ],
      },
      'refused',
    ],
    [
      'an older refund cancelled, the new one pending',
      {
        status: 'RECEIVED',
        refunds: [
          { status: 'PENDING', value: 5, dateCreated: '2025-03-10 12:00:00' },
          { status: 'CANCELLED', value: 5, dateCreated: '2025-03-09 08:00:00' },
        ],
      },
      'in_progress',
    ],
    ['only a refund of another value', { status: 'RECEIVED', refunds: [{ status: 'CANCELLED', value: 7, dateCreated: '2025-03-10 12:00:00' }] }, 'in_progress'],
  ])('a refund answer with %s (%j) is %s', (_label, answer, outcome) => {
    const parsed = asaasRefundAnswer.parse({ object: 'payment', id: 'pay_1', value: 19.9, ...answer });
    expect(asaasRefundOutcome(parsed, 500, (value) => Math.round(Number(value) * 100))).toBe(outcome);
  });

  it('a refund Asaas took is never "nothing happened": a partial refund of a CONFIRMED card payment counts, a cancelled one does not', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payments/pay_3/refund',
      body: { value: 5 },
      reply: {
        body: {
          object: 'payment',
          id: 'pay_3',
          status: 'CONFIRMED',
          value: 19.9,
          refunds: [{ status: 'PENDING', value: 5, dateCreated: '2025-03-10 12:00:00' }],
        },
      },
    });
    expect(await h.adapter.refoundTransaction(h.ctx, 'pay_3', 500)).toEqual({ refundId: 'pay_3', status: true });
    h.fake.expect({
      method: 'POST',
      path: '/payments/pay_3/refund',
      reply: {
        body: {
          object: 'payment',
          id: 'pay_3',
          status: 'CONFIRMED',
          value: 19.9,
          refunds: [{ status: 'CANCELLED', value: 5, dateCreated: '2025-03-10 12:01:00' }],
        },
      },
    });
    expect(await h.adapter.refoundTransaction(h.ctx, 'pay_3', 500)).toEqual({ refundId: 'pay_3', status: false });
  });

  it('pays out by POST /transfers {value, pixAddressKey, pixAddressKeyType (RANDOM as EVP), operationType PIX} and reads GET /transfers/{id}', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transfers',
      headers: AUTH,
      body: { value: 25, pixAddressKey: 'c873834c-ed18-4e63-8e5d-90190392b744', pixAddressKeyType: 'EVP', operationType: 'PIX', externalReference: 'wd-1' },
      reply: { body: { object: 'transfer', id: 'tra_1', status: 'PENDING', value: 25 } },
    });
    const payout = {
      paymentMethod: 'PIX' as const,
      amount: 2500,
      pixKey: 'c873834c-ed18-4e63-8e5d-90190392b744',
      pixType: 'RANDOM' as const,
      withdrawReference: 'wd-1',
    };
    expect(await h.adapter.withdraw(h.ctx, payout)).toEqual({ withdrawId: 'tra_1', status: 'PENDING', amount: 2500 });
    for (const [status, expected] of [
      ['DONE', 'APPROVED'],
      ['CANCELLED', 'CANCELED'],
      ['FAILED', 'REJECTED'],
      ['BANK_PROCESSING', 'PENDING'],
    ] as const) {
      h.fake.expect({ method: 'GET', path: '/transfers/tra_1', reply: { body: { id: 'tra_1', status, value: 25 } } });
      expect(await h.adapter.getWithdraw(h.ctx, 'tra_1')).toEqual({ withdrawId: 'tra_1', status: expected, amount: 2500 });
    }
    // PENDING and BANK_PROCESSING are Asaas's own transfer statuses, not unknown ones.
    expect(h.warn).not.toHaveBeenCalled();
  });

  it("a FAILED transfer's failReason is the payout's refusal reason, read or notified; a done one's is not kept (Events for transfers)", async () => {
    // docs.asaas.com/docs/transfer-events: transfer.failReason, "Failure reason, when applicable" (null otherwise).
    const failReason = 'Conta de destino encerrada.'; // invented: the pages show the field only as null
    h.fake.expect({ method: 'GET', path: '/transfers/tra_1', reply: { body: { id: 'tra_1', status: 'FAILED', value: 25, failReason } } });
    expect(await h.adapter.getWithdraw(h.ctx, 'tra_1')).toEqual({ withdrawId: 'tra_1', status: 'REJECTED', amount: 2500, refusalReason: failReason });
    h.fake.expect({ method: 'GET', path: '/transfers/tra_1', reply: { body: { id: 'tra_1', status: 'DONE', value: 25, failReason: null } } });
    expect(await h.adapter.getWithdraw(h.ctx, 'tra_1')).toEqual({ withdrawId: 'tra_1', status: 'APPROVED', amount: 2500 });
    const failed = { id: 'evt_9', event: 'TRANSFER_FAILED', transfer: { object: 'transfer', id: 'tra_1', status: 'FAILED', failReason } };
    expect(await h.adapter.processWebhook(h.ctx, notification(failed))).toEqual({
      type: 'WITHDRAW',
      transactionId: 'tra_1',
      status: 'REJECTED',
      refusalReason: failReason,
    });
  });

  /** Answers that are not what any call asked for: each call's failure is the one bad answer (UNAVAILABLE), never a status, never INTERNAL. */
  const BAD_ANSWERS: ReadonlyArray<[label: string, body: unknown]> = [
    ...BODIES_WITHOUT_RESOURCE,
    ['fields of the wrong types', { id: true, status: 3, value: '19,90', data: { id: 'cus_1' }, payload: 5, identificationField: 5 }],
  ];
  const bad = async (call: Promise<unknown>) => {
    const { code, message } = await failure(call);
    expect([code, message]).toEqual([
      'UNAVAILABLE',
      expect.stringMatching(/^Erro ao (criar|buscar|estornar|realizar) .*: resposta do provedor em formato inesperado/),
    ]);
  };

  it.each(BAD_ANSWERS)('an answer that is %s is UNAVAILABLE at every step, never a charge, a refund or a transfer', async (_label, body) => {
    h.fake.expect({ method: 'GET', path: '/customers', reply: { body } });
    await bad(h.adapter.createTransaction(h.ctx, transactionInput()));
    h.fake.expect({ method: 'GET', path: '/customers', reply: { body: customerList([]) } });
    h.fake.expect({ method: 'POST', path: '/customers', reply: { body } });
    await bad(h.adapter.createTransaction(h.ctx, transactionInput()));
    h.fake.expect({ method: 'GET', path: '/customers', reply: { body: customerList([{ object: 'customer', id: 'cus_1' }]) } });
    h.fake.expect({ method: 'POST', path: '/payments', reply: { body } });
    await bad(h.adapter.createTransaction(h.ctx, transactionInput()));
    // The charge's answer is unknown, not refused: the customer stays remembered.
    h.fake.expect({ method: 'POST', path: '/payments', reply: { body: { id: 'pay_1', status: 'PENDING', value: 19.9 } } });
    h.fake.expect({ method: 'GET', path: '/payments/pay_1/pixQrCode', reply: { body } });
    await bad(h.adapter.createTransaction(h.ctx, transactionInput()));
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      reply: { body: { id: 'pay_2', status: 'PENDING', value: 19.9, bankSlipUrl: 'https://www.asaas.com/b/pdf/pay_2' } },
    });
    h.fake.expect({ method: 'GET', path: '/payments/pay_2/identificationField', reply: { body } });
    await bad(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })));
    h.fake.expect({ method: 'GET', path: '/payments/pay_1', reply: { body } });
    await bad(h.adapter.getTransaction(h.ctx, 'pay_1'));
    h.fake.expect({ method: 'POST', path: '/payments/pay_1/refund', reply: { body } });
    await bad(h.adapter.refoundTransaction(h.ctx, 'pay_1', 500));
    h.fake.expect({ method: 'POST', path: '/transfers', reply: { body } });
    await bad(h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 2500, pixKey: 'ana@example.com', pixType: 'EMAIL' }));
    h.fake.expect({ method: 'GET', path: '/transfers/tra_1', reply: { body } });
    await bad(h.adapter.getWithdraw(h.ctx, 'tra_1'));
  });

  it.each<[string, Record<string, unknown>]>([
    ['an amount written with a comma', { value: '19,90' }],
    ['an amount that is not money', { value: { cents: 1990 } }],
    ['no amount', { value: null }],
    ['a status that is not text', { status: 7 }],
    ['a blank id', { id: ' ' }],
  ])('a read or a transfer with %s is UNAVAILABLE, and moves nothing', async (_label, change) => {
    h.fake.expect({ method: 'GET', path: '/payments/pay_1', reply: { body: { id: 'pay_1', status: 'RECEIVED', value: 19.9, ...change } } });
    await bad(h.adapter.getTransaction(h.ctx, 'pay_1'));
    h.fake.expect({ method: 'GET', path: '/transfers/tra_1', reply: { body: { id: 'tra_1', status: 'DONE', value: 25, ...change } } });
    await bad(h.adapter.getWithdraw(h.ctx, 'tra_1'));
  });

  it('a PIX charge whose QR code has no payload is UNAVAILABLE (nobody could pay it), naming the field', async () => {
    customerCreated();
    h.fake.expect({ method: 'POST', path: '/payments', reply: { body: { id: 'pay_1', status: 'PENDING', value: 19.9 } } });
    h.fake.expect({ method: 'GET', path: '/payments/pay_1/pixQrCode', reply: { body: { success: false } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: resposta do provedor em formato inesperado (payload: esperado string)',
    });
  });

  it('a boleto without its bankSlipUrl is UNAVAILABLE', async () => {
    customerCreated();
    h.fake.expect({ method: 'POST', path: '/payments', reply: { body: { id: 'pay_2', status: 'PENDING', value: 19.9, billingType: 'BOLETO' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).toEqual({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: resposta do provedor em formato inesperado (bankSlipUrl: esperado string)',
    });
  });

  it("Asaas's own reason (errors[].description) reaches the caller under the operation's prefix", async () => {
    customerCreated();
    h.fake.expect({
      method: 'POST',
      path: '/payments',
      reply: { status: 400, body: { errors: [{ code: 'invalid_creditCard', description: 'Transação não autorizada. Verifique os dados do cartão.' }] } },
    });
    const input = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'tok_1', customerIp: '203.0.113.7' });
    expect(await failure(h.adapter.createTransaction(h.ctx, input))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: Transação não autorizada. Verifique os dados do cartão.',
    });
    h.fake.expect({
      method: 'POST',
      path: '/payments/pay_1/refund',
      reply: { status: 400, body: { errors: [{ code: 'invalid_action', description: 'Saldo insuficiente para estornar a cobrança.' }] } },
    });
    expect(await failure(h.adapter.refoundTransaction(h.ctx, 'pay_1', 1990))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao estornar transação: Saldo insuficiente para estornar a cobrança.',
    });
  });

  describe("the buyer's customer at Asaas (a card token belongs to the customer it was created for)", () => {
    const card = (cardId: string) => transactionInput({ paymentMethod: 'CREDIT_CARD', cardId, customerIp: '203.0.113.7' });
    const paid = (id: string) => ({ body: { object: 'payment', id, status: 'CONFIRMED', value: 19.9, billingType: 'CREDIT_CARD' } });

    it('charges the card on the customer Asaas already has for the document (the first not deleted), creating none', async () => {
      h.fake.expect({
        method: 'GET',
        path: '/customers',
        query: { cpfCnpj: '12345678909' },
        headers: AUTH,
        reply: {
          body: customerList([
            { object: 'customer', id: 'cus_old', deleted: true },
            { object: 'customer', id: 'cus_owner', deleted: false },
          ]),
        },
      });
      h.fake.expect({ method: 'POST', path: '/payments', body: partial({ customer: 'cus_owner', creditCardToken: 'tok_of_owner' }), reply: paid('pay_9') });
      expect(await h.adapter.createTransaction(h.ctx, card('tok_of_owner'))).toMatchObject({ transactionId: 'pay_9', status: 'APPROVED' });
      expect(h.fake.received.filter((request) => request.method === 'POST' && request.path === '/customers')).toHaveLength(0);
    });

    it("reuses the account's customer for every later charge of the document, whatever the method: no second customer", async () => {
      customerCreated();
      h.fake.expect({
        method: 'POST',
        path: '/payments',
        body: partial({ customer: 'cus_1', billingType: 'PIX' }),
        reply: { body: { id: 'pay_1', status: 'PENDING', value: 19.9 } },
      });
      h.fake.expect({ method: 'GET', path: '/payments/pay_1/pixQrCode', reply: { body: { payload: PIX_CODE } } });
      await h.adapter.createTransaction(h.ctx, transactionInput());
      h.fake.expect({
        method: 'POST',
        path: '/payments',
        body: partial({ customer: 'cus_1', billingType: 'CREDIT_CARD', creditCardToken: 'tok_1' }),
        reply: paid('pay_2'),
      });
      expect(await h.adapter.createTransaction(h.ctx, card('tok_1'))).toMatchObject({ transactionId: 'pay_2' });
      // The same document written with its mask is the same customer.
      h.fake.expect({ method: 'POST', path: '/payments', body: partial({ customer: 'cus_1' }), reply: paid('pay_3') });
      await h.adapter.createTransaction(h.ctx, card('tok_1'));
      expect(h.fake.received.filter((request) => request.path === '/customers')).toHaveLength(2);
    });

    it('charges arriving together for a new document create one customer', async () => {
      customerCreated();
      h.fake.expect({
        method: 'POST',
        path: '/payments',
        body: partial({ customer: 'cus_1' }),
        times: 3,
        reply: (request) => paid(`pay_${request.rawBody.length}`),
      });
      await Promise.all([1, 2, 3].map(() => h.adapter.createTransaction(h.ctx, card('tok_1'))));
      expect(h.fake.received.filter((request) => request.path === '/customers')).toHaveLength(2);
    });

    it("keeps each account's customers apart, and looks the customer up again after Asaas refused a charge on it", async () => {
      customerCreated();
      h.fake.expect({
        method: 'POST',
        path: '/payments',
        reply: { status: 400, body: { errors: [{ code: 'invalid_customer', description: 'Cliente removido.' }] } },
      });
      expect((await failure(h.adapter.createTransaction(h.ctx, card('tok_1')))).message).toBe('Erro ao criar transação: Cliente removido.');
      h.fake.expect({ method: 'GET', path: '/customers', reply: { body: customerList([{ id: 'cus_2' }]) } });
      h.fake.expect({ method: 'POST', path: '/payments', body: partial({ customer: 'cus_2' }), reply: paid('pay_4') });
      await h.adapter.createTransaction(h.ctx, card('tok_1'));
      const other = { ...h.ctx, accountId: 'another-account' };
      h.fake.expect({ method: 'GET', path: '/customers', reply: { body: customerList([{ id: 'cus_elsewhere' }]) } });
      h.fake.expect({ method: 'POST', path: '/payments', body: partial({ customer: 'cus_elsewhere' }), reply: paid('pay_5') });
      await h.adapter.createTransaction(other, card('tok_2'));
    });

    it('a charge without a document is refused before anything is sent', async () => {
      const input = transactionInput({ customer: { name: 'Ana Souza', email: 'ana@example.com', document: ' ', phone: '' } });
      expect(await failure(h.adapter.createTransaction(h.ctx, input))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: 'transaction.customer.document is required for ASAAS charges',
      });
      expect(h.fake.received).toHaveLength(0);
    });

    it('a new customer is sent without the email or phone the buyer did not give', () => {
      expect(toAsaasCustomer({ name: 'Ana Souza', email: ' ', document: '123.456.789-09', phone: '' })).toEqual({ name: 'Ana Souza', cpfCnpj: '12345678909' });
    });

    it('the directory keeps at most its capacity, the least recently used going first', async () => {
      const directory = new CustomerDirectory(2);
      const ctx = h.ctx;
      const ids = async (document: string, id: string) => directory.customerFor(ctx, document, async () => id);
      await ids('1', 'cus_a');
      await ids('2', 'cus_b');
      await ids('1', 'cus_other');
      await ids('3', 'cus_c');
      expect(directory.size).toBe(2);
      expect(await ids('1', 'cus_new')).toBe('cus_a');
      expect(await ids('2', 'cus_new')).toBe('cus_new');
      const failed = directory.customerFor(ctx, '4', async () => Promise.reject(new Error('down')));
      await expect(failed).rejects.toThrow('down');
      expect(await ids('4', 'cus_d')).toBe('cus_d');
    });
  });

  describe('the account balance (GET /finance/balance)', () => {
    it('reads `balance` in reais as cents, with no pending figure', async () => {
      h.fake.expect({ method: 'GET', path: '/finance/balance', headers: AUTH, reply: { body: { balance: 1234.56 } } });
      expect(await h.adapter.getAccountBalance(h.ctx)).toEqual({ available: 123_456, currency: 'BRL' });
    });

    it('keeps a negative balance as Asaas states it', async () => {
      h.fake.expect({ method: 'GET', path: '/finance/balance', headers: AUTH, reply: { body: { balance: -0.29 } } });
      expect(await h.adapter.getAccountBalance(h.ctx)).toEqual({ available: -29, currency: 'BRL' });
    });

    it("an answer without a balance is a bad answer, under the balance read's prefix", async () => {
      h.fake.expect({ method: 'GET', path: '/finance/balance', headers: AUTH, reply: { body: { object: 'balance' } } });
      expect(await failure(h.adapter.getAccountBalance(h.ctx))).toMatchObject({ code: 'UNAVAILABLE' });
    });
  });

  describe('webhooks', () => {
    const received = {
      id: 'evt_05b7&368604920',
      event: 'PAYMENT_RECEIVED',
      dateCreated: '2025-03-10 12:00:00',
      payment: { object: 'payment', id: 'pay_1', status: 'RECEIVED' },
    };

    it('reads PAYMENT_* as the payment, TRANSFER_* as the transfer; ignores the rest', async () => {
      expect(await h.adapter.processWebhook(h.ctx, notification(received))).toEqual({ type: 'TRANSACTION', transactionId: 'pay_1', status: 'APPROVED' });
      const transfer = { id: 'evt_2', event: 'TRANSFER_DONE', transfer: { object: 'transfer', id: 'tra_1', status: 'DONE' } };
      expect(await h.adapter.processWebhook(h.ctx, notification(transfer))).toEqual({ type: 'WITHDRAW', transactionId: 'tra_1', status: 'APPROVED' });
      for (const body of [{ id: 'evt_3', event: 'INVOICE_CREATED', invoice: { id: 'inv_1', status: 'PENDING' } }, { event: 'PAYMENT_RECEIVED' }, 'x'])
        expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    });

    it("is deduplicated by Asaas's event id", () => {
      expect(h.adapter.notificationKey(h.ctx, notification(received))).toBe('event:evt_05b7&368604920');
    });

    it("checks asaas-access-token against the account's webhook secret; without the header (a stored one) it is unsigned", () => {
      const secret = { ...h.ctx, webhookSecret: 'token-of-32-characters-at-least-1' };
      const body = Buffer.from(JSON.stringify(received));
      expect(h.adapter.verifyNotification(secret, { body, headers: { 'asaas-access-token': 'token-of-32-characters-at-least-1' } })).toBe('valid');
      expect(h.adapter.verifyNotification(secret, { body, headers: { 'asaas-access-token': 'guess' } })).toBe('invalid');
      expect(h.adapter.verifyNotification(secret, { body, headers: {} })).toBe('unsigned');
      expect(h.adapter.verifyNotification(h.ctx, { body, headers: { 'asaas-access-token': 'anything' } })).toBe('unsigned');
    });
  });
});
