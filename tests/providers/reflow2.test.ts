import { describe, expect, it } from '@jest/globals';
import type { WithdrawInput } from '../../server/domain/types.js';
import { CATALOGUE, failureMessage } from '../../server/lib/providerMessages.js';
import { REFLOW2, Reflow2Adapter, cashInRequest, cashOutRequest, reflow2CashOutUrl, toCashIn, toCashOut } from '../../server/providers/reflow2/adapter.js';
import { BODIES_WITHOUT_RESOURCE, GARBAGE_2XX_BODIES } from '../support/fakeProvider.js';
import {
  NOW,
  bareTransactionInput,
  expectUnsupportedOperationsRejected,
  failure,
  notification,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';
import { PIX_KEY_SAMPLES, expectBodiesOf } from './requestSchemas.js';

/**
 * REFLOW2 (spec doc 3, group 4), a bespoke adapter: Bearer, POST
 * /transaction/qrcode/cashin on the cash-in host, POST /transaction/cashout on
 * the cash-out host (§7), its webhook words and withdraw codes (§4), PIX only
 * (§5), the fourth group's texts (§8), 1-day PIX and the payout's placeholder
 * phone (§9); bodies from the research's F6 (IntegraPay / SafePayments).
 */

const BEARER = { authorization: 'Bearer rf2-key' };
const EMV = '00020126580014br.gov.bcb.pix0136reflow2-qr-id5204000053039865406019.905802BR5907REFLOW26009SAO PAULO62070503***6304ABCD';
const PAYOUT: WithdrawInput = {
  paymentMethod: 'PIX',
  amount: 1050,
  pixKey: '(11) 98765-4321',
  pixType: 'PHONE',
  document: '123.456.789-09',
  name: 'Ana Souza',
  email: 'ana@example.com',
  withdrawReference: 'saque-42',
};

describe('REFLOW2 (spec doc 3, group 4), a bespoke adapter', () => {
  const h = providerHarness({ create: (runtime) => new Reflow2Adapter(REFLOW2, runtime), account: () => ({ publicKey: '', secretKey: 'rf2-key' }) });

  it('takes PIX charges and PIX payouts, their reads and notifications; the rest rejects with the spec text', async () => {
    expect(h.adapter.identity).toEqual({ id: 'REFLOW2', aliases: [], specGroup: 'document 3 (group 4)', defaultBaseUrl: 'https://cashin.safepayments.cloud' });
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'withdraw', 'getWithdraw', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'c' })))).code).toBe('UNIMPLEMENTED');
    await expect(h.adapter.withdraw(h.ctx, { ...PAYOUT, paymentMethod: 'BANK_ACCOUNT' })).rejects.toMatchObject(CATALOGUE.WITHDRAW_METHOD_NAO_IMPLEMENTADO);
    expect(h.fake.received).toHaveLength(0);
  });

  it('needs the API key (the secret key), at the door and before any call', async () => {
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
    expect(await failure(h.adapter.getTransaction({ ...h.ctx, secretKey: '' }, 'tx-1'))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'secretKey is required',
    });
  });

  it.each([
    ['https://cashin.safepayments.cloud', 'https://cashout.safepayments.cloud'],
    ['https://CASHIN.safepayments.cloud/v2', 'https://cashout.safepayments.cloud/v2'],
    ['https://proxy.example.com/cashin.x', 'https://proxy.example.com/cashin.x'],
    ['http://127.0.0.1:9999', 'http://127.0.0.1:9999'],
  ])('the cash-out host of base_url %s is %s', (baseUrl, cashOut) => {
    expect(reflow2CashOutUrl(baseUrl)).toBe(cashOut);
  });

  it("builds bodies of its request schemas (the platform's Cash-In and Cash-Out)", () => {
    const terms = { amount: 1990, orderId: 'order-77', postbackUrl: 'https://gateway.example/webhooks/acc_1' };
    expectBodiesOf(cashInRequest, [toCashIn(transactionInput(), terms), toCashIn(transactionInput({ items: [], description: 'Curso' }), terms)]);
    expectBodiesOf(
      cashOutRequest,
      PIX_KEY_SAMPLES.map(([pixType, pixKey]) => toCashOut({ ...PAYOUT, pixKey, pixType }, terms)),
    );
  });

  it('creates a PIX charge by POST /transaction/qrcode/cashin, in cents, valid 1 day (§9)', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transaction/qrcode/cashin',
      headers: BEARER,
      body: {
        ...{ payerName: 'Ana Souza', payerDocument: '12345678909', payerEmail: 'ana@example.com', payerPhone: '11987654321' },
        ...{ productName: 'Curso', productDescription: 'Curso', value: 1990, orderId: 'order-77', postbackUrl: h.ctx.notificationUrl },
      },
      reply: { body: { transactionId: 'tx-1', externalId: 'ext-1', orderId: 'order-77', qrCode: EMV, qrCodeBase64: 'iVBORw0KGgo=' } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'tx-1', status: 'PENDING', amount: 1990, pixCode: EMV },
      ...{ expiresAt: new Date(NOW.getTime() + 86_400_000) },
    });
  });

  it('a charge without items names the product by its description', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transaction/qrcode/cashin',
      body: {
        ...{ payerName: 'Ana Souza', payerDocument: '12345678909', payerEmail: 'ana@example.com', payerPhone: '11987654321' },
        ...{ productName: 'Assinatura', productDescription: 'Assinatura', value: 1990, orderId: 'o-1', postbackUrl: h.ctx.notificationUrl },
      },
      reply: { body: { transactionId: 2, qrCode: EMV } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ items: [], description: 'Assinatura', orderId: 'o-1' }))).toMatchObject({
      transactionId: '2',
    });
  });

  it.each([
    ['no customer', undefined, 'transaction.customer'],
    ['a blank name', { name: ' ' }, 'transaction.customer.name'],
    ['no document', { document: '' }, 'transaction.customer.document'],
    ['no email', { email: '' }, 'transaction.customer.email'],
    ['no phone', { phone: '' }, 'transaction.customer.phone'],
  ])("a charge with %s is refused before sending: the platform's Cash-In requires the whole payer", async (_label, change, field) => {
    const customer = change && { ...transactionInput().customer!, ...change };
    expect(await failure(h.adapter.createTransaction(h.ctx, bareTransactionInput({ description: 'Assinatura', ...(customer ? { customer } : {}) })))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: `${field} is required for REFLOW2 charges`,
    });
    expect(h.fake.received).toHaveLength(0);
  });

  it("a refused charge is 'Erro na criação da transação PIX: …' (§8, fourth group)", async () => {
    h.fake.expect({ method: 'POST', path: '/transaction/qrcode/cashin', reply: { status: 400, body: { message: 'payerDocument inválido' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: failureMessage.CREATE_PIX_TRANSACTION_FOURTH_GROUP('payerDocument inválido'),
    });
  });

  it.each([
    ['created', 'PENDING'],
    ['paid', 'APPROVED'],
    ['infraction', 'APPROVED'],
    ['refund', 'CHARGEBACK'],
    ['failed', 'REJECTED'],
    ['canceled', 'REJECTED'],
    [0, 'PENDING'],
    ['1', 'APPROVED'],
    [4, 'CHARGEBACK'],
    ['mystery', 'PENDING'],
  ])('reads GET /transaction/get/by/id/{id}: %s → %s (§4; unknown PENDING)', async (status, expected) => {
    h.fake.expect({
      method: 'GET',
      path: '/transaction/get/by/id/tx-1',
      headers: BEARER,
      reply: { body: { data: { transactionId: 'tx-1', status, value: 1990 } } },
    });
    expect(await h.adapter.getTransaction(h.ctx, 'tx-1')).toEqual({ paymentMethod: 'PIX', transactionId: 'tx-1', status: expected, amount: 1990 });
  });

  it.each([
    ['PHONE', '(11) 98765-4321', 3, '11987654321'],
    ['CPF', '123.456.789-09', 0, '12345678909'],
    ['CNPJ', '12.345.678/0001-99', 1, '12345678000199'],
    ['EMAIL', 'ana@example.com', 2, 'ana@example.com'],
    ['RANDOM', 'c873834c-ed18-4e63-8e5d-90190392b744', 4, 'c873834c-ed18-4e63-8e5d-90190392b744'],
  ] as const)(
    'pays out to the %s key %s by POST /transaction/cashout (type code %s, key sent as %s), with the placeholder phone (§9)',
    async (pixType, pixKey, code, sent) => {
      h.fake.expect({
        method: 'POST',
        path: '/transaction/cashout',
        headers: BEARER,
        body: {
          ...{ value: 1050, pixKeyType: code, pixKey: sent, cpfCnpj: '12345678909' },
          ...{ person: { name: 'Ana Souza', email: 'ana@example.com', phone: '11999999999' }, orderId: 'saque-42', postbackUrl: h.ctx.notificationUrl },
        },
        reply: { body: { transactionId: 'wd-1', orderId: 'saque-42', gross: 10.5, tax: 0, liquid: 10.5, status: '0', success: true } },
      });
      expect(await h.adapter.withdraw(h.ctx, { ...PAYOUT, pixType, pixKey })).toEqual({ withdrawId: 'wd-1', status: 'PENDING', amount: 1050 });
    },
  );

  it('a payout without a document takes a CPF or CNPJ key as cpfCnpj, and refuses any other before sending', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transaction/cashout',
      body: {
        value: 1050,
        pixKeyType: 0,
        pixKey: '12345678909',
        cpfCnpj: '12345678909',
        person: { name: 'Ana Souza', email: 'ana@example.com', phone: '11999999999' },
        orderId: 'saque-42',
        postbackUrl: h.ctx.notificationUrl,
      },
      reply: { body: { transactionId: 'wd-2', status: 1 } },
    });
    const bare = { paymentMethod: 'PIX', amount: 1050, withdrawReference: 'saque-42', name: 'Ana Souza', email: 'ana@example.com' } as const;
    expect(await h.adapter.withdraw(h.ctx, { ...bare, pixType: 'CPF', pixKey: '123.456.789-09' })).toEqual({
      withdrawId: 'wd-2',
      status: 'APPROVED',
      amount: 1050,
    });
    await expect(h.adapter.withdraw(h.ctx, { ...bare, pixType: 'EMAIL', pixKey: 'a@b.co' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(h.adapter.withdraw(h.ctx, { ...PAYOUT, pixType: undefined })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(h.fake.received).toHaveLength(1);
  });

  it.each([
    ['name', { name: undefined }],
    ['name', { name: '  ' }],
    ['email', { email: undefined }],
  ])("a payout without the payee's %s is refused before sending: the platform's Cash-Out requires person.name and person.email", async (field, change) => {
    await expect(h.adapter.withdraw(h.ctx, { ...PAYOUT, ...change })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `withdraw.${field} is required for REFLOW2 withdrawals`,
    });
    expect(h.fake.received).toHaveLength(0);
  });

  it("a refused payout is 'Erro no saque: …' (§8, fourth group)", async () => {
    h.fake.expect({ method: 'POST', path: '/transaction/cashout', reply: { status: 422, body: { message: 'Saldo insuficiente' } } });
    expect(await failure(h.adapter.withdraw(h.ctx, PAYOUT))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: failureMessage.WITHDRAW_FOURTH_GROUP('Saldo insuficiente'),
    });
  });

  it.each([
    [0, 'PENDING'],
    [1, 'APPROVED'],
    [2, 'REJECTED'],
    ['3', 'REJECTED'],
    [4, 'REJECTED'],
  ])('reads a payout: code %s → %s (§4)', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/transaction/get/by/id/wd-1', headers: BEARER, reply: { body: { transactionId: 'wd-1', status, value: 1050 } } });
    expect(await h.adapter.getWithdraw(h.ctx, 'wd-1')).toEqual({ withdrawId: 'wd-1', status: expected, amount: 1050 });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('a charge or a read answered with %s is UNAVAILABLE, never a result', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/transaction/qrcode/cashin', reply: { body } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/transaction/get/by/id/tx-1', reply: { body } });
    expect((await failure(h.adapter.getTransaction(h.ctx, 'tx-1'))).code).toBe('UNAVAILABLE');
  });

  it.each(GARBAGE_2XX_BODIES)('a payout or its read answered with %s is UNAVAILABLE, never a status', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/transaction/cashout', reply: { body } });
    expect(await failure(h.adapter.withdraw(h.ctx, PAYOUT))).toEqual({ code: 'UNAVAILABLE', message: expect.stringMatching(/^Erro no saque/) });
    h.fake.expect({ method: 'GET', path: '/transaction/get/by/id/wd-1', reply: { body } });
    expect((await failure(h.adapter.getWithdraw(h.ctx, 'wd-1'))).code).toBe('UNAVAILABLE');
  });

  it.each([
    ['an id of the wrong type', { transactionId: { id: 1 }, qrCode: '000201', status: 0 }, 'transactionId'],
    ['a status that is an object', { transactionId: 'tx-1', qrCode: '000201', status: { code: 1 } }, 'status'],
    ['a fractional status code', { data: { transactionId: 'tx-1', qrCode: '000201', status: 1.5 } }, 'status'],
    ['no copy-and-paste code', { transactionId: 'tx-1', status: 0 }, 'qrCode'],
  ])('an answer with %s is the kit bad answer under each prefix, never a status', async (_label, body, field) => {
    const badAnswer = expect.stringContaining(`resposta do provedor em formato inesperado (${field}`);
    h.fake.expect({ method: 'POST', path: '/transaction/qrcode/cashin', reply: { body } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({ code: 'UNAVAILABLE', message: badAnswer });
    if (field === 'qrCode') return;
    h.fake.expect({ method: 'GET', path: '/transaction/get/by/id/tx-1', reply: { body } });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'tx-1'))).toEqual({ code: 'UNAVAILABLE', message: badAnswer });
    h.fake.expect({ method: 'POST', path: '/transaction/cashout', reply: { body } });
    expect(await failure(h.adapter.withdraw(h.ctx, PAYOUT))).toEqual({ code: 'UNAVAILABLE', message: badAnswer });
  });

  it.each([
    ['cashin', 'created', { type: 'TRANSACTION', status: 'PENDING' }],
    ['cashin', 'paid', { type: 'TRANSACTION', status: 'APPROVED' }],
    ['cashin', 'infraction', { type: 'TRANSACTION', status: 'APPROVED' }],
    ['cashin', 'refund', { type: 'TRANSACTION', status: 'CHARGEBACK' }],
    ['cashin', 'failed', { type: 'TRANSACTION', status: 'REJECTED' }],
    ['cashin', 'canceled', { type: 'TRANSACTION', status: 'REJECTED' }],
    ['transfer', 'paid', { type: 'WITHDRAW', status: 'APPROVED' }],
    ['transfer', 'failed', { type: 'WITHDRAW', status: 'REJECTED' }],
  ])('a %s webhook with status %s is %j (§4)', async (object, status, expected) => {
    const body = { transactionId: 'tx-1', object, status, method: 'pix', value: 1990, endToEndId: 'E1' };
    // A cashin's endToEndId is its charge's PIX payment; a transfer's is the payout's, not kept.
    const payment = object === 'cashin' ? { pixPayment: { endToEndId: 'E1' } } : {};
    expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ ...expected, transactionId: 'tx-1', ...payment });
    expect(h.adapter.notificationKey(h.ctx, notification(body))).toBe(`${object === 'transfer' ? 'withdrawal' : 'transaction'}:tx-1:${status}`);
  });

  it("a paid cashin webhook's payer {name, documentId, bankName, bankIspb} is the charge's payer; null parts left out", async () => {
    const payer = { transactionId: 'tx-1', name: 'Fulano Pagador', documentId: '80683806556', bankName: null, bankCode: null, bankIspb: '18236120' };
    const body = { transactionId: 'tx-1', object: 'cashin', status: 'paid', method: 'pix', value: 1990, endToEndId: 'E1', payer };
    expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'tx-1',
      status: 'APPROVED',
      pixPayment: { endToEndId: 'E1', payerName: 'Fulano Pagador', payerDocument: '80683806556', payerBankIspb: '18236120' },
    });
  });

  it('ignores webhooks of another object, without id or status, and unparseable ones', async () => {
    for (const body of [
      { transactionId: 'tx-1', object: 'refund', status: 'paid' },
      { object: 'cashin', status: 'paid' },
      { transactionId: 'tx-1', object: 'cashin' },
      '{not json',
    ])
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
  });
});
