import { describe, expect, it } from '@jest/globals';
import type { WithdrawInput } from '../../server/domain/types.js';
import { PAGSTAR, PAGSTAR_DEFAULT_USER_AGENT, PagstarAdapter } from '../../server/providers/pagstar/adapter.js';
import { GARBAGE_2XX_BODIES, absent } from '../support/fakeProvider.js';
import {
  NOW,
  expectUnsupportedOperationsRejected,
  failure,
  itRefusesGarbageAnswers,
  notification,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';

/** PAGSTAR (spec doc 2, group 1): Pagstar's partner wallet API as public integrations call it. */

const USER_AGENT = 'Loja Exemplo (contato@loja.example)';
const KEYS = { publicKey: `tenant-42|${USER_AGENT}`, secretKey: 'pagstar-access-token' };
const HEADERS = { authorization: 'Bearer pagstar-access-token', 'user-agent': USER_AGENT };
const PIX_CODE = '00020126360014br.gov.bcb.pix0114+5511999999999520400005303986540519.905802BR5910PAGSTAR6009SAO PAULO6304ABCD';
const DAY_MS = 86_400_000;

const payout = (extra: Partial<WithdrawInput> = {}): WithdrawInput => ({
  paymentMethod: 'PIX',
  amount: 2500,
  pixKey: '123.456.789-09',
  pixType: 'CPF',
  withdrawReference: 'wd-9',
  ...extra,
});

describe('PAGSTAR (spec doc 2, group 1), the partner wallet API', () => {
  const h = providerHarness({ create: (runtime) => new PagstarAdapter(PAGSTAR, runtime), account: () => KEYS });

  it('offers PIX charges and PIX payouts, both checked, and callbacks; tenant id and token are required at the door; 20 s timeout', async () => {
    expect(PAGSTAR.identity.defaultBaseUrl).toBe('https://api.pagstar.com/api');
    expect(PAGSTAR.timeoutMs).toBe(20_000);
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'withdraw', 'getWithdraw', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(() => h.adapter.checkAccount(KEYS)).not.toThrow();
    expect(() => h.adapter.checkAccount({ ...KEYS, publicKey: 'tenant-42' })).not.toThrow();
    expect(() => h.adapter.checkAccount({ ...KEYS, publicKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'publicKey is required' }),
    );
    expect(() => h.adapter.checkAccount({ ...KEYS, secretKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
    expect(() => h.adapter.checkAccount({ ...KEYS, publicKey: 'a|b|c' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'Formato de credenciais inválido. Use: tenantId|userAgent' }),
    );
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' })))).message).toBe(
      'Payment method not supported by PAGSTAR',
    );
  });

  it('charges by POST generate-anonymous-pix {value in reais, name, document, tenant_id, expiration 86400, transaction_id, callback, description}', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v2/wallet/partner/transactions/generate-anonymous-pix',
      headers: { ...HEADERS, 'content-type': /^application\/json/ },
      body: {
        value: 19.9,
        name: 'Ana Souza',
        document: '12345678909',
        tenant_id: 'tenant-42',
        expiration: 86400,
        transaction_id: 'order-77',
        callback: h.ctx.notificationUrl,
        description: 'Pedido 77',
      },
      reply: {
        body: {
          message: 'Pagamento PIX gerado com sucesso.',
          data: {
            external_reference: 'ps-ref-1',
            pix_key: PIX_CODE,
            qr_code_url: 'https://api.pagstar.com/qr/ps-ref-1.png',
            expiration_date: '2025-03-11T12:00:00.000Z',
          },
        },
      },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ description: 'Pedido 77' }))).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'ps-ref-1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ expiresAt: new Date('2025-03-11T12:00:00.000Z') },
    });
  });

  it('names itself when the account gives no User-Agent, sends no description without one, and dates the charge itself without an expiration_date', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v2/wallet/partner/transactions/generate-anonymous-pix',
      headers: { 'user-agent': PAGSTAR_DEFAULT_USER_AGENT },
      body: (body) => !('description' in (body as object)) && (body as { transaction_id: string }).transaction_id === 'idem-1',
      reply: { body: { data: { external_reference: 'ps-ref-2', pix_key: PIX_CODE } } },
    });
    const result = await h.adapter.createTransaction(
      { ...h.ctx, publicKey: 'tenant-42' },
      transactionInput({ orderId: undefined, description: undefined, idempotencyKey: 'idem-1' }),
    );
    expect(result.expiresAt).toEqual(new Date(NOW.getTime() + DAY_MS));
  });

  it('refuses a charge without a payer before anything is sent', async () => {
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ customer: undefined })))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(h.fake.received).toHaveLength(0);
  });

  it("keeps Pagstar's refusal of a charge under the spec's prefix; an answer without data, reference or code is UNAVAILABLE", async () => {
    h.fake.expect({ method: 'POST', path: /.*generate-anonymous-pix$/, reply: { status: 422, body: { message: 'O campo document é inválido.' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'Erro ao criar transação: O campo document é inválido.',
    });
    for (const body of [{ message: 'ok' }, { data: { pix_key: PIX_CODE } }, { data: { external_reference: 'ps-ref-3' } }, '<html></html>']) {
      h.fake.expect({ method: 'POST', path: /.*generate-anonymous-pix$/, reply: { body } });
      const { code, message } = await failure(h.adapter.createTransaction(h.ctx, transactionInput()));
      expect([code, message.startsWith('Erro ao criar transação: ')]).toEqual(['UNAVAILABLE', true]);
    }
  });

  it.each([
    [200, 'APPROVED'],
    [404, 'PENDING'],
    [400, 'PENDING'],
    [422, 'PENDING'],
  ])('checks a charge by GET …/transactions/{ref}/check: %s is %s, the amount not said (0)', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/v2/wallet/partner/transactions/ps-ref-1/check', headers: HEADERS, reply: { status, body: { message: 'x' } } });
    expect(await h.adapter.getTransaction(h.ctx, 'ps-ref-1')).toEqual({ paymentMethod: 'PIX', transactionId: 'ps-ref-1', status: expected, amount: 0 });
  });

  it('fails a check refused for its credentials or by an outage, never reading it as unpaid', async () => {
    h.fake.expect({ method: 'GET', path: /.*\/check$/, reply: { status: 401, body: { message: 'Unauthenticated.' } } });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'ps-ref-1'))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: 'Erro ao buscar transação: Unauthenticated.',
    });
    h.fake.expect({ method: 'GET', path: /.*\/check$/, times: 3, reply: { status: 503, body: { message: 'indisponível' } } });
    expect((await failure(h.adapter.getWithdraw(h.ctx, 'wd-9'))).message).toBe('Erro ao buscar saque: indisponível');
  });

  it('pays out by POST solicit-for-customer {pix_key, customer_document, value, transaction_id}, known by that transaction_id', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/v2/wallet/partner/withdrawals/solicit-for-customer',
      headers: HEADERS,
      body: { pix_key: '12345678909', customer_document: '12345678909', value: 25, transaction_id: 'wd-9' },
      reply: { body: { message: 'Saque solicitado com sucesso.' } },
    });
    h.fake.expect({ method: 'GET', path: '/v2/wallet/partner/transfers/wd-9/check', headers: HEADERS, reply: { status: 200, body: {} } });
    expect(await h.adapter.withdraw(h.ctx, payout())).toEqual({ withdrawId: 'wd-9', status: 'PENDING', amount: 2500 });
    expect(await h.adapter.getWithdraw(h.ctx, 'wd-9')).toEqual({ withdrawId: 'wd-9', status: 'APPROVED', amount: 0 });
  });

  it('sends an e-mail key as it is with the caller document, and refuses one without a document before anything is sent', async () => {
    h.fake.expect({
      method: 'POST',
      path: /.*solicit-for-customer$/,
      headers: { 'x-idempotency-key': absent },
      body: { pix_key: 'Ana@Example.com', customer_document: '98765432100', value: 25, transaction_id: 'idem-po' },
      reply: { body: { data: { external_reference: 'ps-po-7' } } },
    });
    const email = { pixType: 'EMAIL' as const, pixKey: 'Ana@Example.com', withdrawReference: undefined, idempotencyKey: 'idem-po' };
    expect(await h.adapter.withdraw(h.ctx, payout({ ...email, document: '987.654.321-00' }))).toMatchObject({ withdrawId: 'ps-po-7' });
    expect(await failure(h.adapter.withdraw(h.ctx, payout(email)))).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: expect.stringContaining('withdraw.document'),
    });
    expect(h.fake.received).toHaveLength(1);
  });

  it('fails a payout with the response body as text (document 1 §8), the code from its status', async () => {
    const body = { success: false, errors: { pix_key: ['Chave PIX inválida'] } };
    h.fake.expect({ method: 'POST', path: /.*solicit-for-customer$/, reply: { status: 400, body } });
    expect(await failure(h.adapter.withdraw(h.ctx, payout()))).toEqual({ code: 'INVALID_ARGUMENT', message: JSON.stringify(body) });
    h.fake.expect({ method: 'POST', path: /.*solicit-for-customer$/, reply: { status: 400, body: 'Saldo insuficiente' } });
    expect(await failure(h.adapter.withdraw(h.ctx, payout()))).toEqual({ code: 'INVALID_ARGUMENT', message: 'Saldo insuficiente' });
    h.fake.expect({ method: 'POST', path: /.*solicit-for-customer$/, reply: { status: 500, body: '' } });
    expect(await failure(h.adapter.withdraw(h.ctx, payout()))).toEqual({ code: 'UNAVAILABLE', message: expect.stringMatching(/^Erro ao realizar saque: /) });
  });

  describe('a garbage 2xx charge answer is UNAVAILABLE under the operation prefix', () => {
    itRefusesGarbageAnswers(h, [
      ['createTransaction', 'POST /v2/wallet/partner/transactions/generate-anonymous-pix', () => h.adapter.createTransaction(h.ctx, transactionInput())],
    ]);
  });

  // An empty object is what a check or an accepted payout answers; anything that is not a JSON object, or says it failed, is no answer.
  const notAnswers = GARBAGE_2XX_BODIES.filter(([label]) => label !== 'an empty object');

  it.each(notAnswers)('a 200 check answered with %s is UNAVAILABLE, never paid', async (_label, body) => {
    h.fake.expect({ method: 'GET', path: '/v2/wallet/partner/transactions/ps-ref-1/check', reply: { status: 200, body } });
    const charge = await failure(h.adapter.getTransaction(h.ctx, 'ps-ref-1'));
    expect([charge.code, charge.message.startsWith('Erro ao buscar transação: ')]).toEqual(['UNAVAILABLE', true]);
    h.fake.expect({ method: 'GET', path: '/v2/wallet/partner/transfers/wd-9/check', reply: { status: 200, body } });
    const transfer = await failure(h.adapter.getWithdraw(h.ctx, 'wd-9'));
    expect([transfer.code, transfer.message.startsWith('Erro ao buscar saque: ')]).toEqual(['UNAVAILABLE', true]);
  });

  it.each(notAnswers)('a 200 payout answered with %s is UNAVAILABLE (outcome unknown), never accepted nor refused', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: /.*solicit-for-customer$/, reply: { status: 200, body } });
    const { code, message } = await failure(h.adapter.withdraw(h.ctx, payout()));
    expect([code, message.startsWith('Erro ao realizar saque: ')]).toEqual(['UNAVAILABLE', true]);
  });

  describe('callbacks', () => {
    it('a callback {external_reference, transaction_id} claims the charge APPROVED, which the gateway confirms by the check (it is unsigned)', async () => {
      const body = { external_reference: 'ps-ref-1', transaction_id: 'order-77' };
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'TRANSACTION', transactionId: 'ps-ref-1', status: 'APPROVED' });
      expect(await h.adapter.processWebhook(h.ctx, notification({ data: body }))).toMatchObject({ transactionId: 'ps-ref-1' });
      expect(h.adapter.verifyNotification(h.ctx, notification(body))).toBe('unsigned');
      expect(h.adapter.notificationKey(h.ctx, notification(body))).toBe('transaction:ps-ref-1:paid');
    });

    it('ignores bodies without a reference and what it cannot parse', async () => {
      for (const body of [{ transaction_id: 'order-77' }, { external_reference: ' ' }, 'not json', [{ external_reference: 'ps-ref-1' }]])
        expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
      expect(h.adapter.notificationKey(h.ctx, notification('not json'))).toMatch(/^sha256:/);
    });
  });
});
