import { createHmac } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import {
  TRANSFEERA,
  TransfeeraAdapter,
  toTransfeeraBatch,
  toTransfeeraCharge,
  toTransfeeraRefund,
  transfeeraBatchRequest,
  transfeeraChargeRequest,
  transfeeraRefundIntegrationId,
  transfeeraRefundRequest,
  transfeeraTokenUrl,
  transfeeraTxid,
  transfeeraTxidAmount,
} from '../../server/providers/transfeera/adapter.js';
import { BODIES_WITHOUT_RESOURCE, absent } from '../support/fakeProvider.js';
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

/** TRANSFEERA (spec doc 2, group 1): its public API (official auth and signature pages, integrations; research). */

const BEARER = { authorization: 'Bearer tf-token', 'user-agent': /Transfeera integration/ };
const PIX_CODE = '00020101021226830014br.gov.bcb.pix2561qrcode.transfeera.com/cob/9d36b84f5204000053039865406019.905802BR6304ABCD';
const DAY_MS = 86_400_000;
const TXID = /^gw1990x[a-z0-9]{28}$/;

describe('TRANSFEERA (spec doc 2, group 1), a bespoke adapter', () => {
  const h = providerHarness({
    retry: false,
    create: (runtime) => new TransfeeraAdapter(TRANSFEERA, runtime),
    account: () => ({ publicKey: 'tf-client|loja@example.com', secretKey: 'tf-secret' }),
  });

  /** The JSON client-credentials token this test's account takes on its first call. */
  const withToken = () =>
    h.fake.expect({
      method: 'POST',
      path: '/authorization',
      headers: { authorization: absent },
      body: { grant_type: 'client_credentials', client_id: 'tf-client', client_secret: 'tf-secret' },
      reply: { body: { access_token: 'tf-token', expires_in: 1800 } },
    });

  it('offers PIX charges, their reads and refunds, PIX payouts and their reads, webhooks; the rest is not implemented', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'withdraw', 'getWithdraw', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
  });

  it('checks the keys at the door: client id, optional PIX key and User-Agent in the public key, the client secret in the secret key', () => {
    expect(() => h.adapter.checkAccount({ publicKey: '', secretKey: 'tf-secret' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'publicKey is required' }),
    );
    expect(() => h.adapter.checkAccount({ publicKey: 'tf-client', secretKey: '' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'secretKey is required' }),
    );
    expect(() => h.adapter.checkAccount({ publicKey: 'a|b|c|d', secretKey: 's' })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: 'Formato de credenciais inválido. Use: clientId|pixKey|userAgent' }),
    );
    expect(() => h.adapter.checkAccount({ publicKey: 'tf-client', secretKey: 'tf-secret' })).not.toThrow();
    expect(() => h.adapter.checkAccount({ publicKey: 'tf-client|loja@example.com|Loja Exemplo (dev@loja.example)', secretKey: 's' })).not.toThrow();
    expect(() => h.adapter.checkAccount({ publicKey: 'tf-client||Loja Exemplo (dev@loja.example)', secretKey: 's' })).not.toThrow();
  });

  it("refuses a User-Agent that does not name the company and a contact e-mail, Transfeera's 'Company (contact@company.com)'", () => {
    for (const userAgent of ['Loja Exemplo', 'Loja Exemplo (dev)', '(dev@loja.example)'])
      expect(() => h.adapter.checkAccount({ publicKey: `tf-client|loja@example.com|${userAgent}`, secretKey: 's' })).toThrow(
        expect.objectContaining({
          code: 'INVALID_ARGUMENT',
          message: "TRANSFEERA's User-Agent names the company and a contact e-mail: 'Company (contact@company.com)'",
        }),
      );
  });

  it("names the account's company and contact e-mail in the User-Agent of every call, the token's included", async () => {
    const ctx = { ...h.ctx, publicKey: 'tf-client|loja@example.com|Loja Exemplo (dev@loja.example)' };
    const token = h.fake.expect({
      method: 'POST',
      path: '/authorization',
      headers: { 'user-agent': 'Loja Exemplo (dev@loja.example)' },
      reply: { body: { access_token: 'tf-token-2', expires_in: 1800 } },
    });
    const read = h.fake.expect({
      method: 'GET',
      path: '/batch/4821/transfer',
      headers: { authorization: 'Bearer tf-token-2', 'user-agent': 'Loja Exemplo (dev@loja.example)' },
      reply: { body: [{ id: 99, status: 'FINALIZADO', value: 25 }] },
    });
    expect((await h.adapter.getWithdraw(ctx, '4821')).status).toBe('APPROVED');
    expect([token.calls.length, read.calls.length]).toEqual([1, 1]);
  });

  it('takes its token from the login host beside the API host; another base URL takes it at its own /authorization', () => {
    expect(transfeeraTokenUrl('https://api.transfeera.com')).toBe('https://login-api.transfeera.com/authorization');
    expect(transfeeraTokenUrl('https://api-sandbox.transfeera.com/')).toBe('https://login-api-sandbox.transfeera.com/authorization');
    expect(transfeeraTokenUrl('http://127.0.0.1:9000')).toBe('http://127.0.0.1:9000/authorization');
  });

  it("builds bodies of its request schemas (the adapter's wire section)", () => {
    const terms = { txid: transfeeraTxid(1990), pixKey: 'loja@example.com', value: 19.9, expirySeconds: 86_400 };
    expectBodiesOf(transfeeraChargeRequest, [
      toTransfeeraCharge(transactionInput({ description: 'Curso' }), terms),
      toTransfeeraCharge(bareTransactionInput(), terms),
    ]);
    expectBodiesOf(
      transfeeraBatchRequest,
      PIX_KEY_SAMPLES.map(([pixType, pixKey]) => toTransfeeraBatch({ paymentMethod: 'PIX', amount: 2500, pixKey, pixType }, { value: 25, reference: 'wd-1' })),
    );
    expectBodiesOf(transfeeraRefundRequest, [toTransfeeraRefund(5.5, transfeeraRefundIntegrationId('tx_1', 'idem-1'))]);
  });

  it('charges by an immediate collection with the account PIX key, reais and 1 day; the txid is the charge id and names its amount', async () => {
    withToken();
    const sent = h.fake.expect({
      method: 'POST',
      path: '/pix/qrcode/collection/immediate',
      headers: BEARER,
      body: (body) =>
        typeof body === 'object' &&
        body !== null &&
        TXID.test((body as { txid: string }).txid) &&
        JSON.stringify({ ...body, txid: 'X' }) ===
          JSON.stringify({
            txid: 'X',
            integration_id: 'order-77',
            pix_key: 'loja@example.com',
            original_value: 19.9,
            expiration: 86400,
            payer_question: 'Pedido 77',
            payer: { name: 'Ana Souza', document: '12345678909' },
          }),
      reply: (request) => ({
        status: 201,
        body: { id: 'qr_1', txid: (request.body as { txid: string }).txid, status: 'ATIVA', emv_payload: PIX_CODE, original_value: 19.9 },
      }),
    });
    const result = await h.adapter.createTransaction(h.ctx, transactionInput({ description: 'Pedido 77' }));
    expect(result).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: expect.stringMatching(TXID), status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
    expect((sent.calls[0]!.body as { txid: string }).txid).toBe(result.transactionId);
    expect(transfeeraTxidAmount(result.transactionId)).toBe(1990);
  });

  it('refuses a charge without the account PIX key before sending anything', async () => {
    const ctx = { ...h.ctx, publicKey: 'tf-client' };
    expect(await failure(h.adapter.createTransaction(ctx, transactionInput()))).toEqual({
      code: 'FAILED_PRECONDITION',
      message: "TRANSFEERA charges need the account's PIX key: set the public key to 'clientId|pixKey'",
    });
    expect(h.fake.received).toHaveLength(0);
  });

  it('refuses a collection answered with another txid or without its code', async () => {
    withToken();
    h.fake.expect({ method: 'POST', path: '/pix/qrcode/collection/immediate', reply: { body: { id: 'qr_1', txid: 'someone-else', emv_payload: PIX_CODE } } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'POST', path: '/pix/qrcode/collection/immediate', reply: { body: { id: 'qr_1', status: 'ATIVA' } } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
  });

  /** The CashIn object's payer as Transfeera's Eventos page shows it, and what the gateway keeps of it. */
  const PAYER = {
    ...{ name: 'João da Silva', document: '12312312355', account_type: 'CONTA_CORRENTE', account: '12345', account_digit: '9', agency: '4321' },
    bank: { name: 'Banco do Brasil', code: '001', ispb: '00000000' },
  };
  const PAYMENT_OF_PAYER = { payerName: 'João da Silva', payerDocument: '12312312355', payerBankName: 'Banco do Brasil', payerBankIspb: '00000000' };

  describe('reading a charge back from the PIX received for its txid', () => {
    const txid = 'gw1990xabcdefghijklmnopqrstuvwxyz01';
    const deposit = { id: 'ci_1', value: 19.9, type: 'DEPOSIT', end2end_id: 'E1234567820250310', txid };

    it.each([
      ['a deposit', 'APPROVED', [deposit]],
      ['a deposit and its refund', 'REFUNDED', [deposit, { ...deposit, id: 'ci_2', type: 'DEPOSIT_REFUND' }]],
      ['nothing yet', 'PENDING', []],
      ["another txid's deposit only", 'PENDING', [{ ...deposit, txid: 'other' }]],
    ])('%s is %s', async (_label, status, entries) => {
      withToken();
      h.fake.expect({
        method: 'GET',
        path: '/pix/cashin',
        query: { txid },
        headers: BEARER,
        reply: { body: { entries, pagination: { totalItems: entries.length } } },
      });
      const received = status === 'PENDING' ? {} : { pixPayment: { endToEndId: deposit.end2end_id } };
      expect(await h.adapter.getTransaction(h.ctx, txid)).toEqual({ paymentMethod: 'PIX', transactionId: txid, status, amount: 1990, ...received });
    });

    it.each([
      ['a partial refund', 'APPROVED', [deposit, { ...deposit, id: 'ci_2', type: 'DEPOSIT_REFUND', value: 5 }]],
      [
        'two refunds that cover it',
        'REFUNDED',
        [deposit, { ...deposit, id: 'ci_2', type: 'DEPOSIT_REFUND', value: 5 }, { ...deposit, id: 'ci_3', type: 'DEPOSIT_REFUND', value: '14.90' }],
      ],
      ['a whole refund still pending', 'APPROVED', [deposit, { ...deposit, id: 'ci_2', type: 'PENDING_DEPOSIT_REFUND' }]],
      ['a whole refund cancelled', 'APPROVED', [deposit, { ...deposit, id: 'ci_2', type: 'CANCELLED_DEPOSIT_REFUND' }]],
      ['a refund whose value cannot be read (counted whole)', 'REFUNDED', [deposit, { ...deposit, id: 'ci_2', type: 'DEPOSIT_REFUND', value: undefined }]],
    ])('a deposit with %s is %s: only refunds that cover the deposit make it REFUNDED', async (_label, status, entries) => {
      withToken();
      h.fake.expect({ method: 'GET', path: '/pix/cashin', query: { txid }, reply: { body: { entries } } });
      expect(await h.adapter.getTransaction(h.ctx, txid)).toEqual({
        ...{ paymentMethod: 'PIX', transactionId: txid, status, amount: 1990 },
        pixPayment: { endToEndId: deposit.end2end_id },
      });
    });

    it("the deposit's end2end_id and payer (the CashIn object: name, document, bank name and ISPB) are the charge's PIX payment", async () => {
      withToken();
      const refund = { ...deposit, id: 'ci_2', type: 'DEPOSIT_REFUND', value: 5, end2end_id: 'D9999999920250310', payer: { name: 'Outro' } };
      h.fake.expect({ method: 'GET', path: '/pix/cashin', query: { txid }, reply: { body: { entries: [refund, { ...deposit, payer: PAYER }] } } });
      expect(await h.adapter.getTransaction(h.ctx, txid)).toEqual({
        ...{ paymentMethod: 'PIX', transactionId: txid, status: 'APPROVED', amount: 1990 },
        pixPayment: { endToEndId: deposit.end2end_id, ...PAYMENT_OF_PAYER },
      });
      // A payer the list writes otherwise (no bank, a number as document) costs the read nothing.
      const odd = { ...deposit, payer: { name: 'João da Silva', document: 12312312355, bank: 'Banco do Brasil' } };
      h.fake.expect({ method: 'GET', path: '/pix/cashin', query: { txid }, reply: { body: { entries: [odd] } } });
      expect(await h.adapter.getTransaction(h.ctx, txid)).toMatchObject({
        status: 'APPROVED',
        pixPayment: { endToEndId: deposit.end2end_id, payerName: 'João da Silva' },
      });
    });

    it('cannot read an unpaid charge whose txid it did not make (no amount to report)', async () => {
      withToken();
      h.fake.expect({ method: 'GET', path: '/pix/cashin', reply: { body: { entries: [] } } });
      expect((await failure(h.adapter.getTransaction(h.ctx, 'foreign-txid-0000000000000000'))).code).toBe('UNAVAILABLE');
    });

    it('refunds the received PIX by its end2end_id, in reais, named by the idempotency key: a retried refund is the same refund', async () => {
      withToken();
      const integrationIds: string[] = [];
      for (const key of ['refund-key-1', 'refund-key-1', 'refund-key-2']) {
        h.fake.expect({ method: 'GET', path: '/pix/cashin', query: { txid }, reply: { body: { entries: [deposit] } } });
        h.fake.expect({
          method: 'POST',
          path: '/pix/cashin/E1234567820250310/refund',
          headers: BEARER,
          body: (body) => {
            const { value, integration_id: integrationId } = body as { value: number; integration_id: string };
            integrationIds.push(integrationId);
            return value === 10 && /^gw1990x.+-r[0-9a-f]{16}$/.test(integrationId);
          },
          reply: { body: { id: 'rf_1' } },
        });
        expect(await h.adapter.refoundTransaction(h.ctx, txid, 1000, key)).toEqual({ refundId: 'rf_1', status: true });
      }
      expect(integrationIds[0]).toBe(integrationIds[1]);
      expect(integrationIds[2]).not.toBe(integrationIds[0]);
    });

    it('refuses to refund a charge nothing was received for', async () => {
      withToken();
      h.fake.expect({ method: 'GET', path: '/pix/cashin', reply: { body: { entries: [] } } });
      const refused = h.adapter.refoundTransaction(h.ctx, txid, 1000);
      await expect(refused).rejects.toMatchObject({
        code: 'FAILED_PRECONDITION',
        message: `no PIX has been received for ${txid}: there is nothing to refund`,
        details: { reason: 'NO_PIX_RECEIVED' },
      });
    });
  });

  it('pays out by a batch of one transfer, auto-closed, in reais, Transfeera key names; the batch id is the payout id', async () => {
    withToken();
    h.fake.expect({
      method: 'POST',
      path: '/batch',
      headers: BEARER,
      body: {
        name: 'Saque wd-9',
        type: 'TRANSFERENCIA',
        auto_close: true,
        transfers: [
          {
            value: 25,
            integration_id: 'wd-9',
            idempotency_key: 'wd-9',
            pix_description: 'Saque solicitado',
            destination_bank_account: { pix_key_type: 'TELEFONE', pix_key: '+5511987654321' },
          },
        ],
      },
      reply: { status: 201, body: { id: 4821 } },
    });
    const payout = { paymentMethod: 'PIX' as const, amount: 2500, pixKey: '(11) 98765-4321', pixType: 'PHONE' as const, withdrawReference: 'wd-9' };
    expect(await h.adapter.withdraw(h.ctx, payout)).toEqual({ withdrawId: '4821', status: 'PENDING', amount: 2500 });
  });

  it.each([
    ['CRIADA', 'PENDING'],
    ['RECEBIDO', 'PENDING'],
    ['TRANSFERIDO', 'APPROVED'],
    ['FINALIZADO', 'APPROVED'],
    ['FALHA', 'REJECTED'],
    ['DEVOLVIDO', 'REJECTED'],
    ['MISTERIO', 'PENDING'],
  ])('reads the batch transfer back: %s is %s', async (status, expected) => {
    withToken();
    h.fake.expect({ method: 'GET', path: '/batch/4821/transfer', headers: BEARER, reply: { body: [{ id: 99, status, value: 25, integration_id: 'wd-9' }] } });
    expect(await h.adapter.getWithdraw(h.ctx, '4821')).toEqual({ withdrawId: '4821', status: expected, amount: 2500 });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE, never a payout or a status', async (_label, body) => {
    withToken();
    h.fake.expect({ method: 'POST', path: '/batch', reply: { body } });
    const payout = { paymentMethod: 'PIX' as const, amount: 2500, pixKey: '12345678909', pixType: 'CPF' as const };
    expect((await failure(h.adapter.withdraw(h.ctx, payout))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/batch/4821/transfer', reply: { body } });
    expect((await failure(h.adapter.getWithdraw(h.ctx, '4821'))).code).toBe('UNAVAILABLE');
  });

  describe('answers read by their schemas: a bad one is UNAVAILABLE, never a status and never INTERNAL', () => {
    const txid = 'gw1990xabcdefghijklmnopqrstuvwxyz01';
    const payout = { paymentMethod: 'PIX' as const, amount: 2500, pixKey: '12345678909', pixType: 'CPF' as const };

    it.each<[string, unknown]>([
      ['an HTML page', '<html><body>502</body></html>'],
      ['a code that is not text', { id: 'qr_1', status: 'ATIVA', emv_payload: 42 }],
      ['a status that is not text', { id: 'qr_1', status: 7, emv_payload: PIX_CODE }],
      ['an amount that is not money', { id: 'qr_1', emv_payload: PIX_CODE, original_value: '19,90' }],
    ])('a collection answered with %s', async (_label, body) => {
      withToken();
      h.fake.expect({ method: 'POST', path: '/pix/qrcode/collection/immediate', reply: { status: 201, body } });
      expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
        code: 'UNAVAILABLE',
        message: expect.stringMatching(/^Erro ao criar transação: resposta do provedor em formato inesperado/),
      });
    });

    it.each<[string, unknown]>([
      ['an HTML page', '<html><body>502</body></html>'],
      ['entries that are not a list', { entries: 'none' }],
      ['an entry whose type is not text', { entries: [{ txid, type: 3, value: 19.9, end2end_id: 'E1' }] }],
      ['an entry whose value is not money', { entries: [{ txid, type: 'DEPOSIT', value: 'dezenove', end2end_id: 'E1' }] }],
    ])('a cash-in list answered with %s: no read, no refund', async (_label, body) => {
      withToken();
      h.fake.expect({ method: 'GET', path: '/pix/cashin', reply: { body } });
      expect((await failure(h.adapter.getTransaction(h.ctx, txid))).code).toBe('UNAVAILABLE');
      h.fake.expect({ method: 'GET', path: '/pix/cashin', reply: { body } });
      expect((await failure(h.adapter.refoundTransaction(h.ctx, txid, 100))).code).toBe('UNAVAILABLE');
      expect(h.fake.received.filter((request) => request.path.endsWith('/refund'))).toHaveLength(0);
    });

    it('a deposit whose value reads as no amount is UNAVAILABLE', async () => {
      withToken();
      h.fake.expect({ method: 'GET', path: '/pix/cashin', reply: { body: { entries: [{ txid, type: 'DEPOSIT', value: 1e21, end2end_id: 'E1' }] } } });
      expect((await failure(h.adapter.getTransaction(h.ctx, txid))).code).toBe('UNAVAILABLE');
    });

    it('a refund answered with an HTML page is UNAVAILABLE (the refund may have been made)', async () => {
      withToken();
      h.fake.expect({ method: 'GET', path: '/pix/cashin', reply: { body: { entries: [{ txid, type: 'DEPOSIT', value: 19.9, end2end_id: 'E1' }] } } });
      h.fake.expect({ method: 'POST', path: '/pix/cashin/E1/refund', reply: { body: '<html>ok</html>' } });
      expect(await failure(h.adapter.refoundTransaction(h.ctx, txid, 100))).toMatchObject({ code: 'UNAVAILABLE' });
    });

    it.each<[string, unknown]>([
      ['a batch id that is not an id', { id: { value: 1 } }],
      [
        'two transfers in a batch of one',
        [
          { status: 'FINALIZADO', value: 25 },
          { status: 'FINALIZADO', value: 25 },
        ],
      ],
      ['a transfer without its status', [{ value: 25 }]],
    ])('a payout answered with %s', async (_label, body) => {
      withToken();
      h.fake.expect({ method: 'POST', path: '/batch', reply: { status: 201, body } });
      expect((await failure(h.adapter.withdraw(h.ctx, payout))).code).toBe('UNAVAILABLE');
      h.fake.expect({ method: 'GET', path: '/batch/4821/transfer', reply: { body } });
      expect((await failure(h.adapter.getWithdraw(h.ctx, '4821'))).code).toBe('UNAVAILABLE');
    });
  });

  describe('webhooks', () => {
    const cashIn = {
      id: 'evt_1',
      version: 'v1',
      account_id: 'acc_9',
      object: 'CashIn',
      date: '2025-03-10T12:00:00.000Z',
      data: { id: 'ci_1', txid: 'gw1990xabc', value: 19.9, end2end_id: 'E123', integration_id: 'order-77' },
    };
    const transfer = { ...cashIn, id: 'evt_2', object: 'Transfer', data: { id: 99, batch_id: 4821, status: 'FINALIZADO', value: 25 } };

    it('reads a received PIX (APPROVED) and a transfer (its batch, its status); ignores other objects and what it cannot use', async () => {
      expect(await h.adapter.processWebhook(h.ctx, notification(cashIn))).toEqual({
        ...{ type: 'TRANSACTION', transactionId: 'gw1990xabc', status: 'APPROVED' },
        pixPayment: { endToEndId: 'E123' },
      });
      const withPayer = { ...cashIn, data: { ...cashIn.data, payer: PAYER } };
      expect(await h.adapter.processWebhook(h.ctx, notification(withPayer))).toMatchObject({ pixPayment: { endToEndId: 'E123', ...PAYMENT_OF_PAYER } });
      expect(await h.adapter.processWebhook(h.ctx, notification(transfer))).toEqual({ type: 'WITHDRAW', transactionId: '4821', status: 'APPROVED' });
      const { batch_id: _batchId, ...withoutBatch } = transfer.data;
      for (const body of [
        { ...cashIn, object: 'PixKey' },
        { ...cashIn, data: { ...cashIn.data, type: 'DEPOSIT_REFUND' } },
        { ...cashIn, data: { value: 19.9 } },
        { ...transfer, data: withoutBatch },
        { id: 'evt_3' },
        'not json',
      ])
        expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
      expect(h.adapter.notificationKey(h.ctx, notification(cashIn))).toBe('event:evt_1');
    });

    it('checks Transfeera-Signature: t in milliseconds, v1 = HMAC-SHA256("t.body"), within 5 minutes; unsigned without a secret', () => {
      const body = Buffer.from(JSON.stringify(cashIn));
      const withSecret = { ...h.ctx, webhookSecret: 'tf-whsec' };
      const at = NOW.getTime();
      const sign = (secret: string, t: number) => `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body.toString()}`).digest('hex')}`;
      const verify = (signature?: string) =>
        h.adapter.verifyNotification(withSecret, { body, headers: signature ? { 'transfeera-signature': signature } : {}, receivedAt: NOW });
      expect(verify(sign('tf-whsec', at))).toBe('valid');
      expect(verify(`${sign('tf-whsec', at)},v0=deadbeef`)).toBe('valid');
      expect(verify(sign('other', at))).toBe('invalid');
      expect(verify(sign('tf-whsec', at - 301_000))).toBe('invalid');
      expect(verify(`t=${at},v0=${createHmac('sha256', 'tf-whsec').update(`${at}.${body.toString()}`).digest('hex')}`)).toBe('invalid');
      expect(verify()).toBe('invalid');
      expect(h.adapter.verifyNotification(h.ctx, { body, headers: {} })).toBe('unsigned');
    });
  });
});
