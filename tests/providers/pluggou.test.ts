import { describe, expect, it } from '@jest/globals';
import { PLUGGOU, PluggouAdapter, pluggouChargeRequest, toPluggouCharge } from '../../server/providers/pluggou/adapter.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import {
  NOW,
  bareTransactionInput,
  expectUnsupportedOperationsRejected,
  failure,
  itRefusesGarbageAnswers,
  notification,
  providerHarness,
  transactionInput,
} from './conformance/harness.js';
import { expectBodiesOf } from './requestSchemas.js';

/** PLUGGOU (spec doc 3, group 3; not PLUGGO): PIX charges and their reads on §7's two paths (or the documented ones), and webhooks. */

const HEADERS = { 'x-public-key': 'pk_plg', 'x-secret-key': 'sk_plg' };
const PIX_CODE = '00020126580014br.gov.bcb.pix0136pluggou-qr520400005303986540519.905802BR6304ABCD';
const DAY_MS = 86_400_000;
const BUYER = { buyer_name: 'Ana Souza', buyer_document: '12345678909', buyer_phone: '11987654321', buyer_email: 'ana@example.com' };
/** The documented answer to a created charge. */
const CREATED = {
  success: true,
  message: 'Pagamento criado com sucesso!',
  data: { id: 'tx_1', amount: 1990, platform_tax: 80, liquid_amount: 1910, pix: { emv: PIX_CODE } },
};

describe('PLUGGOU (spec doc 3, group 3), a bespoke adapter', () => {
  const h = providerHarness({
    create: (runtime) => new PluggouAdapter(PLUGGOU, runtime),
    account: () => ({ publicKey: 'pk_plg|org-42', secretKey: 'sk_plg', webhookSecret: 'whk-code-1' }),
  });
  const publicCtx = () => ({ ...h.ctx, apiVersion: 'public' });

  it('offers PIX charges, their reads and notifications (§7 names nothing else); a card is refused before anything is sent', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'processWebhook']);
    expect(h.adapter.apiVersions).toEqual(['specification', 'public']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'c' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Payment method not supported by PLUGGOU',
    });
    expect(h.fake.received).toHaveLength(0);
  });

  it("checks at the door both keys, and the organization id packed in the public key where the specification's dialect needs it", async () => {
    const refused = (account: { publicKey: string; secretKey: string; apiVersion?: string }, message: string) =>
      expect(() => h.adapter.checkAccount(account)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message }));
    refused({ publicKey: 'pk_plg|org-42', secretKey: '' }, 'secretKey is required');
    refused({ publicKey: '', secretKey: 'sk_plg' }, 'publicKey is required');
    refused({ publicKey: 'pk_plg', secretKey: 'sk_plg' }, 'Formato de credenciais inválido. Use: publicKey|organizationId');
    expect(() => h.adapter.checkAccount({ publicKey: 'pk_plg|org-42', secretKey: 'sk_plg' })).not.toThrow();
    // The documented dialect has no organization id.
    expect(() => h.adapter.checkAccount({ publicKey: 'pk_plg', secretKey: 'sk_plg', apiVersion: 'public' })).not.toThrow();
    expect((await failure(h.adapter.createTransaction({ ...h.ctx, publicKey: 'pk_plg' }, transactionInput()))).code).toBe('FAILED_PRECONDITION');
    expect(h.fake.received).toHaveLength(0);
  });

  it('creates by POST /payments/transactions?organizationId with both headers, cents and the buyer; PENDING whatever the answer says (§4), valid the default day', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payments/transactions',
      query: { organizationId: 'org-42' },
      headers: HEADERS,
      body: { payment_method: 'pix', amount: 1990, buyer: BUYER },
      reply: { status: 201, body: { ...CREATED, data: { ...CREATED.data, status: 'paid' } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'tx_1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      // `platform_tax`: Pluggou's fee, in cents like the amount.
      ...{ expiresAt: new Date(NOW.getTime() + DAY_MS), providerFee: 80 },
    });
  });

  it('api_version public: the documented POST /transactions and GET /transactions/{id}, without the organization id', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transactions',
      query: {},
      headers: HEADERS,
      body: { payment_method: 'pix', amount: 1990, buyer: BUYER },
      reply: { status: 201, body: CREATED },
    });
    expect(await h.adapter.createTransaction({ ...publicCtx(), publicKey: 'pk_plg' }, transactionInput())).toMatchObject({
      transactionId: 'tx_1',
      pixCode: PIX_CODE,
    });
    h.fake.expect({
      method: 'GET',
      path: '/transactions/tx_1',
      headers: HEADERS,
      reply: { body: { success: true, data: { id: 'tx_1', status: 'paid', amount: 1990 } } },
    });
    expect(await h.adapter.getTransaction(publicCtx(), 'tx_1')).toEqual({ paymentMethod: 'PIX', transactionId: 'tx_1', status: 'APPROVED', amount: 1990 });
  });

  it("a paid charge's read states its PIX's end-to-end id (`e2e_id`) and Pluggou's fee (`platform_tax`, cents); unreadable ones are left out", async () => {
    const paid = { id: 'tx_1', status: 'paid', amount: 1990, platform_tax: 80, liquid_amount: 1910, e2e_id: ' E18236120202611291200abcdefghijk ' };
    h.fake.expect({ method: 'GET', path: '/transactions/tx_1', reply: { body: { success: true, data: paid } } });
    expect(await h.adapter.getTransaction(publicCtx(), 'tx_1')).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'tx_1', status: 'APPROVED', amount: 1990 },
      ...{ pixPayment: { endToEndId: 'E18236120202611291200abcdefghijk' }, providerFee: 80 },
    });
    h.fake.expect({ method: 'GET', path: '/transactions/tx_1', reply: { body: { success: true, data: { ...paid, e2e_id: null, platform_tax: 'n/a' } } } });
    expect(await h.adapter.getTransaction(publicCtx(), 'tx_1')).toEqual({ paymentMethod: 'PIX', transactionId: 'tx_1', status: 'APPROVED', amount: 1990 });
  });

  describe('the buyer Pluggou requires (payment_method, amount, buyer_name, buyer_document with its check digits, buyer_phone) is checked before anything is sent', () => {
    it.each([
      ['no customer', { customer: undefined }, 'transaction.customer is required for PLUGGOU charges'],
      ['a blank name', { name: ' ' }, 'transaction.customer.name is required for PLUGGOU charges'],
      ['no document', { document: '' }, 'transaction.customer.document is required for PLUGGOU charges'],
      ['a CPF with wrong check digits', { document: '123.456.789-00' }, 'transaction.customer.document must be a valid CPF or CNPJ for PLUGGOU charges'],
      ['a CNPJ with wrong check digits', { document: '11.222.333/0001-00' }, 'transaction.customer.document must be a valid CPF or CNPJ for PLUGGOU charges'],
      ['a document of 12 digits', { document: '123456789012' }, 'transaction.customer.document must be a valid CPF or CNPJ for PLUGGOU charges'],
      ['no phone', { phone: '' }, 'transaction.customer.phone is required for PLUGGOU charges'],
      [
        'a phone without its area code',
        { phone: '98765-4321' },
        'transaction.customer.phone must have 10 or 11 digits (area code and number) for PLUGGOU charges',
      ],
    ])('%s', async (_label, change, message) => {
      const base = transactionInput();
      const input = 'customer' in change ? { ...base, customer: undefined } : { ...base, customer: { ...base.customer!, ...change } };
      expect(await failure(h.adapter.createTransaction(h.ctx, input))).toEqual({ code: 'INVALID_ARGUMENT', message });
      expect(h.fake.received).toHaveLength(0);
    });

    it('a valid CNPJ, a phone with +55, no email and a description are sent as Pluggou takes them', () => {
      const input = bareTransactionInput({
        customer: { name: ' Loja Exemplo ', document: '11.222.333/0001-81', phone: '+55 (21) 3456-7890', email: ' ' },
        description: 'Pedido 12',
      });
      expect(toPluggouCharge(input, { amount: 1990 })).toEqual({
        payment_method: 'pix',
        amount: 1990,
        buyer: { buyer_name: 'Loja Exemplo', buyer_document: '11222333000181', buyer_phone: '2134567890' },
        description: 'Pedido 12',
      });
    });
  });

  it("builds bodies of its request schema (Pluggou's documented charge)", () => {
    expectBodiesOf(pluggouChargeRequest, [
      toPluggouCharge(transactionInput(), { amount: 1990 }),
      toPluggouCharge(
        bareTransactionInput({ customer: { name: 'Loja', document: '11.222.333/0001-81', phone: '+55 (21) 3456-7890', email: ' ' }, description: 'Pedido 12' }),
        { amount: 1990 },
      ),
    ]);
  });

  it('a created charge without its PIX code is UNAVAILABLE (nobody could pay it), naming the field', async () => {
    h.fake.expect({ method: 'POST', path: '/payments/transactions', reply: { status: 201, body: { success: true, data: { id: 'tx_1', amount: 1990 } } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: resposta do provedor em formato inesperado (pix: esperado object)',
    });
  });

  it.each([
    ['pending', 'PENDING'],
    ['paid', 'APPROVED'],
    ['approved', 'APPROVED'],
    ['failed', 'REJECTED'],
    ['canceled', 'REJECTED'],
    ['refunded', 'REFUNDED'],
    ['chargeback', 'CHARGEBACK'],
    ['in_dispute', 'CHARGEBACK'],
    ['mystery', 'REJECTED'],
  ])('reads GET /payments/transactions/{id}: %s is %s (doc 3 §4, unknown REJECTED)', async (status, expected) => {
    h.fake.expect({
      method: 'GET',
      path: '/payments/transactions/tx_1',
      headers: HEADERS,
      reply: { body: { success: true, data: { id: 'tx_1', status, amount: 1990, pix: { emv: PIX_CODE } } } },
    });
    expect(await h.adapter.getTransaction(h.ctx, 'tx_1')).toEqual({
      paymentMethod: 'PIX',
      transactionId: 'tx_1',
      status: expected,
      amount: 1990,
      pixCode: PIX_CODE,
    });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE, never a charge or a status', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/payments/transactions', reply: { body } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/payments/transactions/tx_1', reply: { body } });
    expect((await failure(h.adapter.getTransaction(h.ctx, 'tx_1'))).code).toBe('UNAVAILABLE');
  });

  it.each([
    ['a status of the wrong type', { success: true, data: { id: 'tx_1', status: 7, amount: 1990 } }],
    ['no status', { success: true, data: { id: 'tx_1', amount: 1990 } }],
    ['an amount that is no amount', { success: true, data: { id: 'tx_1', status: 'paid', amount: 'dezenove' } }],
  ])('a read with %s is UNAVAILABLE, never a status', async (_label, body) => {
    h.fake.expect({ method: 'GET', path: '/payments/transactions/tx_1', reply: { body } });
    expect(await failure(h.adapter.getTransaction(h.ctx, 'tx_1'))).toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/^Erro ao buscar transação: /),
    });
  });

  itRefusesGarbageAnswers(h, [
    ['createTransaction', 'POST /payments/transactions', () => h.adapter.createTransaction(h.ctx, transactionInput())],
    ['getTransaction', 'GET /payments/transactions/tx_1', () => h.adapter.getTransaction(h.ctx, 'tx_1')],
  ]);

  it("a 2xx `{success: false, message}` keeps Pluggou's message, UNAVAILABLE (outcome unknown), never a charge", async () => {
    h.fake.expect({ method: 'POST', path: '/payments/transactions', reply: { body: { success: false, message: 'Limite diário excedido', data: null } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: Limite diário excedido',
    });
  });

  it.each([
    [401, { error: 'Credenciais inválidas', message: 'Chave não encontrada ou inativa' }, 'FAILED_PRECONDITION', 'Chave não encontrada ou inativa'],
    [
      403,
      { success: false, message: 'Esta credencial não tem permissão para realizar esta operação.', data: null },
      'FAILED_PRECONDITION',
      'Esta credencial não tem permissão para realizar esta operação.',
    ],
    [
      422,
      { success: false, message: 'Erro de validação', data: { errors: { 'buyer.buyer_phone': ['Telefone inválido'] } } },
      'INVALID_ARGUMENT',
      'Erro de validação',
    ],
  ])("Pluggou's documented HTTP %s keeps its message under the spec's prefix", async (status, body, code, text) => {
    h.fake.expect({ method: 'POST', path: '/payments/transactions', reply: { status, body } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({ code, message: `Erro ao criar transação: ${text}` });
  });

  describe('webhooks `{event_type, data: {id, status}}`, with the account code in X-Webhook-Code', () => {
    const withHeaders = (body: unknown, headers: Record<string, string>) => ({
      ...notification(body),
      headers: { 'content-type': 'application/json', ...headers },
    });

    it("states a paid charge's end-to-end id (`e2e_id`) and Pluggou's fee (`platform_tax`, cents)", async () => {
      const body = { event_type: 'transaction', data: { id: 'tx_1', status: 'paid', amount: 1990, e2e_id: 'E123', platform_tax: 80, liquid_amount: 1910 } };
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({
        ...{ type: 'TRANSACTION', transactionId: 'tx_1', status: 'APPROVED' },
        ...{ pixPayment: { endToEndId: 'E123' }, providerFee: 80 },
      });
    });

    it.each([
      [{ event_type: 'transaction', data: { id: 'tx_1', status: 'paid', amount: 1990, e2e_id: null, platform_tax: null } }, 'APPROVED'],
      [{ event_type: 'transaction', data: { id: 'tx_1', status: 'refunded' } }, 'REFUNDED'],
      [{ id: 'evt_9', data: { id: 'tx_1', status: 'chargeback' } }, 'CHARGEBACK'],
    ])('reads a charge event: %j', async (body, status) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'TRANSACTION', transactionId: 'tx_1', status });
    });

    it.each([
      ['a payout event (no payouts are offered)', { event_type: 'withdrawal', data: { id: 'wd_1', status: 'paid' } }],
      ['no status', { event_type: 'transaction', data: { id: 'tx_1' } }],
      ['a status of the wrong type', { event_type: 'transaction', data: { id: 'tx_1', status: 3 } }],
      ['no data', { event_type: 'transaction', id: 'tx_1', status: 'paid' }],
      ['not JSON', 'paid=1'],
      ['a list', []],
    ])('ignores %s', async (_label, body) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    });

    it("is verified by X-Webhook-Code against the account's webhook secret: wrong is invalid, absent unsigned", () => {
      const body = { event_type: 'transaction', data: { id: 'tx_1', status: 'paid' } };
      expect(h.adapter.verifyNotification(h.ctx, withHeaders(body, { 'x-webhook-code': 'whk-code-1' }))).toBe('valid');
      expect(h.adapter.verifyNotification(h.ctx, withHeaders(body, { 'x-webhook-code': 'forged' }))).toBe('invalid');
      expect(h.adapter.verifyNotification(h.ctx, notification(body))).toBe('unsigned');
      expect(h.adapter.verifyNotification({ ...h.ctx, webhookSecret: undefined }, withHeaders(body, { 'x-webhook-code': 'whk-code-1' }))).toBe('unsigned');
    });

    it('is deduplicated by X-Webhook-Event-ID, else an event id in the body, else the charge id and status', () => {
      const body = { event_type: 'transaction', data: { id: 'tx_1', status: 'PAID' } };
      const key = (n: ReturnType<typeof notification>) => h.adapter.notificationKey(h.ctx, n);
      expect(key(withHeaders(body, { 'x-webhook-event-id': '5b0f9d2e-0000-4000-8000-000000000001' }))).toBe('event:5b0f9d2e-0000-4000-8000-000000000001');
      expect(key(notification({ ...body, id: 'evt_9' }))).toBe('event:evt_9');
      expect(key(notification(body))).toBe('transaction:tx_1:paid');
    });
  });
});
