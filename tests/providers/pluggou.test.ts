import { describe, expect, it } from '@jest/globals';
import { PLUGGOU, PluggouAdapter } from '../../server/providers/pluggou/adapter.js';
import { BODIES_WITHOUT_RESOURCE } from '../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, notification, providerHarness, transactionInput } from './conformance/harness.js';

/** PLUGGOU (spec doc 3, group 3; not PLUGGO): PIX charges and their reads on §7's two paths, and postbacks. */

const HEADERS = { 'x-public-key': 'pk_plg', 'x-secret-key': 'sk_plg' };
const PIX_CODE = '00020126580014br.gov.bcb.pix0136pluggou-qr520400005303986540519.905802BR6304ABCD';
const DAY_MS = 86_400_000;

describe('PLUGGOU (spec doc 3, group 3), a bespoke adapter', () => {
  const h = providerHarness({
    create: (runtime) => new PluggouAdapter(PLUGGOU, runtime),
    account: () => ({ publicKey: 'pk_plg|org-42', secretKey: 'sk_plg' }),
  });

  it('offers PIX charges, their reads and notifications (§7 names nothing else); a card is refused before anything is sent', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'c' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Payment method not supported by PLUGGOU',
    });
    expect(h.fake.received).toHaveLength(0);
  });

  it("checks at the door both keys and the organization id packed in the public key ('publicKey|organizationId')", async () => {
    const refused = (account: { publicKey: string; secretKey: string }, message: string) =>
      expect(() => h.adapter.checkAccount(account)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message }));
    refused({ publicKey: 'pk_plg|org-42', secretKey: '' }, 'secretKey is required');
    refused({ publicKey: '', secretKey: 'sk_plg' }, 'publicKey is required');
    refused({ publicKey: 'pk_plg', secretKey: 'sk_plg' }, 'Formato de credenciais inválido. Use: publicKey|organizationId');
    expect(() => h.adapter.checkAccount({ publicKey: 'pk_plg|org-42', secretKey: 'sk_plg' })).not.toThrow();
    expect((await failure(h.adapter.getTransaction({ ...h.ctx, publicKey: 'pk_plg' }, 'tx_1'))).code).toBe('FAILED_PRECONDITION');
    expect(h.fake.received).toHaveLength(0);
  });

  it('creates by POST /payments/transactions?organizationId with both headers, cents and the buyer; PENDING whatever the answer says (§4), valid the default day', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payments/transactions',
      query: { organizationId: 'org-42' },
      headers: HEADERS,
      body: {
        payment_method: 'pix',
        amount: 1990,
        buyer: { buyer_name: 'Ana Souza', buyer_document: '12345678909', buyer_phone: '11987654321', buyer_email: 'ana@example.com' },
        external_id: 'order-77',
        postback_url: h.ctx.notificationUrl,
      },
      reply: { status: 201, body: { data: { id: 'tx_1', status: 'paid', amount: 1990, emv: PIX_CODE } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
      ...{ paymentMethod: 'PIX', transactionId: 'tx_1', status: 'PENDING', amount: 1990, pixCode: PIX_CODE },
      ...{ pixQrCode: expect.stringMatching(/^data:image\/png;base64,/), expiresAt: new Date(NOW.getTime() + DAY_MS) },
    });
  });

  it('a created charge without its PIX code is UNAVAILABLE (nobody could pay it)', async () => {
    h.fake.expect({ method: 'POST', path: '/payments/transactions', reply: { body: { id: 'tx_1', status: 'pending' } } });
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: resposta do provedor sem código PIX da transação',
    });
  });

  it.each([
    ['waiting', 'PENDING'],
    ['pending', 'PENDING'],
    ['paid', 'APPROVED'],
    ['authorized', 'APPROVED'],
    ['refunded', 'REFUNDED'],
    ['chargedback', 'CHARGEBACK'],
    ['in_dispute', 'CHARGEBACK'],
    ['mystery', 'REJECTED'],
  ])('reads GET /payments/transactions/{id}: %s is %s (doc 3 §4, unknown REJECTED)', async (status, expected) => {
    h.fake.expect({ method: 'GET', path: '/payments/transactions/tx_1', headers: HEADERS, reply: { body: { id: 'tx_1', status, amount: 1990 } } });
    expect(await h.adapter.getTransaction(h.ctx, 'tx_1')).toEqual({ paymentMethod: 'PIX', transactionId: 'tx_1', status: expected, amount: 1990 });
  });

  it.each(BODIES_WITHOUT_RESOURCE)('an answer that is %s is UNAVAILABLE, never a charge or a status', async (_label, body) => {
    h.fake.expect({ method: 'POST', path: '/payments/transactions', reply: { body } });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).code).toBe('UNAVAILABLE');
    h.fake.expect({ method: 'GET', path: '/payments/transactions/tx_1', reply: { body } });
    expect((await failure(h.adapter.getTransaction(h.ctx, 'tx_1'))).code).toBe('UNAVAILABLE');
  });

  it("keeps the provider's message of a refusal under the spec's prefix", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/payments/transactions',
      reply: { status: 401, body: { error: 'Credenciais inválidas', message: 'Chave inválida' } },
    });
    expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).message).toMatch(/^Erro ao criar transação: /);
  });

  describe('notifications (unsigned: confirmed by the gateway through GET)', () => {
    it.each([
      [{ id: 'tx_1', status: 'paid' }, 'APPROVED'],
      [{ id: 'evt_9', data: { id: 'tx_1', status: 'refunded' } }, 'REFUNDED'],
    ])('reads the charge, bare or under data: %j', async (body, status) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'TRANSACTION', transactionId: 'tx_1', status });
    });

    it.each([
      ['no status', { id: 'tx_1' }],
      ['no id', { status: 'paid' }],
      ['not JSON', 'paid=1'],
      ['a list', []],
    ])('ignores a body with %s', async (_label, body) => {
      expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
    });

    it("is deduplicated by the event's id where it has one, else by the charge's id and status", () => {
      const key = (body: unknown) => h.adapter.notificationKey(h.ctx, notification(body));
      expect(key({ id: 'evt_9', data: { id: 'tx_1', status: 'paid' } })).toBe('pluggou:evt_9');
      expect(key({ id: 'tx_1', status: 'PAID' })).toBe('transaction:tx_1:paid');
      expect(h.adapter.verifyNotification(h.ctx, notification({}))).toBe('unsigned');
    });
  });
});
