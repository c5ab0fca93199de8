import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from '@jest/globals';
import type { ReceiverInput } from '../../server/domain/types.js';
import {
  ABMEXSPLIT,
  ABMEXSPLIT_STATUSES,
  AbmexSplitAdapter,
  PRICE_RANGE,
  marketplaceRequest,
  randomPriceRange,
  sellRequest,
  toMarketplace,
  toSell,
  toSellSplits,
} from '../../server/providers/abmexsplit/adapter.js';
import { ABMEXSPLIT_SUPPORTED_BANKS, ABMEXSPLIT_SUPPORTED_BANKS_IN_SPEC, BANKS_WITHOUT_BRANCH_DIGIT } from '../../server/providers/abmexsplit/banks.js';
import { createRegistry } from '../../server/providers/catalog.js';
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
import { expectBodiesOf } from './requestSchemas.js';

const BEARER = { authorization: 'Bearer sk_abmex_1' };
const PIX_CODE = '00020126580014br.gov.bcb.pix0136a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d520400005303986540519.905802BR5905ABMEX6009SAO PAULO62070503***6304BEEF';
const company = (extra: Partial<ReceiverInput> = {}, account: Partial<NonNullable<ReceiverInput['bankAccount']>> = {}): ReceiverInput => ({
  name: 'Loja Exemplo Ltda',
  document: '12.345.678/0001-95',
  email: 'financeiro@loja.example',
  bankAccount: {
    bankCode: '341',
    branchNumber: '0001',
    branchDigit: '',
    accountNumber: '12345',
    accountDigit: '6',
    accountType: 'checking',
    pixCode: '',
    ...account,
  },
  ...extra,
});
const MARKETPLACE = {
  id: 'mk_1',
  token: 'mktok_9f8e',
  name: 'Loja Exemplo Ltda',
  document: '12345678000195',
  email: 'financeiro@loja.example',
  status: 'active',
  balance: 15_000,
};
/** POST /marketplaces for company() at bank 1 with branch digit 0, an address and a monthly revenue; price_range aside. */
const MARKETPLACE_BODY = {
  name: 'Loja Exemplo Ltda',
  email: 'financeiro@loja.example',
  document: '12345678000195',
  document_type: 'CNPJ',
  bank_account: { bank_code: '001', branch_number: '0001', branch_digit: '0', account_number: '12345', account_digit: '6', account_type: 'checking' },
  address: { street: 'Rua A', number: '10', district: 'Centro', city: 'São Paulo', state: 'SP', zip_code: '01001000' },
  monthly_revenue: 5_000_000,
};
const inRange = (value: unknown) => Number.isInteger(value) && (value as number) >= PRICE_RANGE.min && (value as number) <= PRICE_RANGE.max;

describe('ABMEXSPLIT (spec doc 2, group 2), a bespoke adapter', () => {
  const h = providerHarness({
    create: (runtime) => new AbmexSplitAdapter(ABMEXSPLIT, runtime),
    account: () => ({ publicKey: 'pk_abmex', secretKey: 'sk_abmex_1' }),
  });

  it('offers sells, their refunds and notifications, and marketplaces as receivers (§7); the rest rejects with the spec text', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'refoundTransaction', 'createReceiver', 'getReceiver', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    expect(h.adapter.verifyNotification(h.ctx, notification({}))).toBe('unsigned');
    expect((await createRegistry({ sandboxUrl: 'http://127.0.0.1:1' })).find('abmexsplit')?.identity.id).toBe('ABMEXSPLIT');
  });

  describe('marketplaces (its receivers)', () => {
    it('creates one by POST /marketplaces with a random price_range between 50 and 150000 (§9); answers its token as receiverToken (§3)', async () => {
      h.fake.expect({
        method: 'POST',
        path: '/marketplaces',
        headers: BEARER,
        body: (body) => {
          const { price_range: priceRange, ...rest } = body as Record<string, unknown>;
          return inRange(priceRange) && isDeepStrictEqual(rest, MARKETPLACE_BODY);
        },
        reply: { status: 201, body: { ...MARKETPLACE, status: 'pending' } },
      });
      const address = { street: 'Rua A', number: '10', district: 'Centro', city: 'São Paulo', state: 'SP', zipcode: '01001-000' };
      expect(await h.adapter.createReceiver(h.ctx, company({ address, monthlyRevenue: 5_000_000 }, { bankCode: '1', branchDigit: '0' }))).toEqual({
        receiverProvider: 'ABMEXSPLIT',
        receiverId: 'mk_1',
        receiverToken: 'mktok_9f8e',
        name: 'Loja Exemplo Ltda',
        document: '12345678000195',
        documentType: 'CNPJ',
        email: 'financeiro@loja.example',
        status: 'PENDING',
        balance: 15_000,
      });
      for (let draw = 0; draw < 200; draw += 1) expect(inRange(randomPriceRange())).toBe(true);
    });

    it.each([
      ['a CPF', company({ document: '123.456.789-09' }), 'INVALID_ARGUMENT', 'Adquirente não aceita CPF'],
      ['a CPF declared as such', company({ documentType: 'CPF' }), 'INVALID_ARGUMENT', 'Adquirente não aceita CPF'],
      ['a bank outside the list', company({}, { bankCode: '212' }), 'INVALID_ARGUMENT', 'Banco não suportado, tente outro.'],
      [
        'no bank account',
        company({ bankAccount: undefined }),
        'INVALID_ARGUMENT',
        'receiver.bank_account is required: ABMEXSPLIT pays its marketplaces to a bank account',
      ],
      ...[...BANKS_WITHOUT_BRANCH_DIGIT].map(
        (bank) =>
          [
            `branch digit 5 at ${bank}`,
            company({}, { bankCode: bank, branchDigit: '5' }),
            'INVALID_ARGUMENT',
            `receiver.bank_account.branch_digit must be empty or 0 for bank ${bank}`,
          ] as const,
      ),
    ])('refuses %s before calling (§5, §8)', async (_label, receiver, code, message) => {
      expect(await failure(h.adapter.createReceiver(h.ctx, receiver))).toEqual({ code, message });
      expect(h.fake.received).toHaveLength(0);
    });

    it('keeps the supported banks as data: the codes the spec shows, at most its 28; branch digits elsewhere pass', async () => {
      const codes = Object.keys(ABMEXSPLIT_SUPPORTED_BANKS);
      expect(codes).toEqual(expect.arrayContaining(['001', '033', '077', '104', '237', '260', '341', '756', ...BANKS_WITHOUT_BRANCH_DIGIT]));
      expect(codes.length).toBeLessThanOrEqual(ABMEXSPLIT_SUPPORTED_BANKS_IN_SPEC);
      h.fake.expect({
        method: 'POST',
        path: '/marketplaces',
        body: (body) => (body as { bank_account: { branch_digit: string } }).bank_account.branch_digit === '7',
        reply: { body: MARKETPLACE },
      });
      expect((await h.adapter.createReceiver(h.ctx, company({}, { bankCode: '756', branchDigit: '7' }))).status).toBe('ACTIVE');
    });

    it.each([
      ['approved', 'ACTIVE'],
      ['rejected', 'REJECTED'],
      ['cancelled', 'REJECTED'],
      ['under_review', 'PENDING'],
    ])('reads GET /marketplaces/{id}: %s → %s', async (status, expected) => {
      h.fake.expect({ method: 'GET', path: '/marketplaces/mk%2F1', headers: BEARER, reply: { body: { ...MARKETPLACE, id: 'mk/1', status } } });
      expect(await h.adapter.getReceiver(h.ctx, 'mk/1')).toMatchObject({ receiverId: 'mk/1', receiverToken: 'mktok_9f8e', status: expected, balance: 15_000 });
    });

    it.each([
      [404, { message: 'Marketplace not found' }, 'NOT_FOUND', 'Receiver not found.'],
      [401, { message: 'Invalid token' }, 'FAILED_PRECONDITION', 'Erro ao buscar recebedor: Invalid token'],
      [
        200,
        '<html><body>Bad gateway</body></html>',
        'UNAVAILABLE',
        'Erro ao buscar recebedor: resposta do provedor em formato inesperado (corpo: esperado object)',
      ],
      [200, null, 'UNAVAILABLE', 'Erro ao buscar recebedor: resposta do provedor em formato inesperado (corpo: esperado object)'],
      [200, {}, 'UNAVAILABLE', 'Erro ao buscar recebedor: resposta do provedor em formato inesperado (id: invalid_union)'],
      [200, { ...MARKETPLACE, status: 7 }, 'UNAVAILABLE', 'Erro ao buscar recebedor: resposta do provedor em formato inesperado (status: esperado string)'],
      [
        200,
        { ...MARKETPLACE, balance: 'muito' },
        'UNAVAILABLE',
        'Erro ao buscar recebedor: resposta do provedor em formato inesperado (balance: invalid_format)',
      ],
      // A 2xx message without the refusal flag is not a refusal: whether the provider acted is unknown.
      [200, { message: 'Processando' }, 'UNAVAILABLE', 'Erro ao buscar recebedor: resposta do provedor em formato inesperado (id: invalid_union)'],
    ])("a marketplace read answered %i %j is %s: '%s'", async (status, body, code, message) => {
      h.fake.expect({ method: 'GET', path: '/marketplaces/mk_x', reply: { status, body } });
      expect(await failure(h.adapter.getReceiver(h.ctx, 'mk_x'))).toEqual({ code, message });
    });
  });

  describe('sells', () => {
    const splits = [
      { recipientId: '', amount: 100, type: 'FIXED' as const, chargeProcessingFee: false, chargeRemainder: false, liable: false },
      { recipientId: 'mk_1', amount: 500, type: 'FIXED' as const, chargeProcessingFee: true, chargeRemainder: false, liable: true },
      { recipientId: 'mk_2', amount: 10, type: 'PERCENTAGE' as const, chargeProcessingFee: false, chargeRemainder: true, liable: false },
    ];

    it('drops the first split only when it has no marketplace id; FIXED in cents, the rest percent (§5, §9)', () => {
      expect(toSellSplits(splits)).toEqual([
        { marketplace_id: 'mk_1', type: 'FIXED', value: 500 },
        { marketplace_id: 'mk_2', type: 'percent', value: 10 },
      ]);
      expect(toSellSplits(splits.slice(1, 2))).toEqual([{ marketplace_id: 'mk_1', type: 'FIXED', value: 500 }]);
      expect(toSellSplits([splits[1]!, splits[0]!])).toHaveLength(2);
    });

    it("builds bodies of its request schemas (the adapter's wire section)", () => {
      const address = { street: 'Rua A', number: '10', district: 'Centro', city: 'São Paulo', state: 'SP', zipcode: '01001-000' };
      expectBodiesOf(marketplaceRequest, [
        toMarketplace(company(), '341', PRICE_RANGE.min),
        toMarketplace(
          company({ description: 'Loja', address, monthlyRevenue: 1_000_000 }, { branchDigit: '1', pixCode: 'pix@loja.example' }),
          '341',
          PRICE_RANGE.max,
        ),
      ]);
      expectBodiesOf(sellRequest, [
        toSell(transactionInput({ splits }), 'https://gateway.example/webhooks/acc_1'),
        toSell(bareTransactionInput({ paymentMethod: 'BILLET' }), 'https://gateway.example/webhooks/acc_1'),
        toSell(transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'card_1', installments: 3 }), 'https://gateway.example/webhooks/acc_1'),
      ]);
    });

    it('creates a PIX sell by POST /sells (items, customer, splits, payment_method, webhook; §7) and answers its code, image and expiry', async () => {
      h.fake.expect({
        method: 'POST',
        path: '/sells',
        headers: BEARER,
        body: {
          items: [{ title: 'Curso', unit_price: 1990, quantity: 1, tangible: false }],
          customer: { name: 'Ana Souza', email: 'ana@example.com', document: '12345678909', phone: '11987654321' },
          splits: [
            { marketplace_id: 'mk_1', type: 'FIXED', value: 500 },
            { marketplace_id: 'mk_2', type: 'percent', value: 10 },
          ],
          payment_method: 'pix',
          webhook: h.ctx.notificationUrl,
        },
        reply: { body: { id: 'sell_1', status: 'waiting_payment', amount: 1990, payment_method: 'pix', pix: { qr_code: PIX_CODE } } },
      });
      expect(await h.adapter.createTransaction(h.ctx, transactionInput({ splits, receiverToken: 'mktok_9f8e' }))).toEqual({
        paymentMethod: 'PIX',
        transactionId: 'sell_1',
        status: 'PENDING',
        amount: 1990,
        pixCode: PIX_CODE,
        expiresAt: new Date(NOW.getTime() + 86_400_000),
      });
    });

    it('charges a card by its token and installments, refusing one without a card id before calling; a boleto of one item for the amount', async () => {
      expect((await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD' })))).code).toBe('INVALID_ARGUMENT');
      h.fake.expect({
        method: 'POST',
        path: '/sells',
        body: (body) => JSON.stringify((body as { credit_card: unknown }).credit_card) === JSON.stringify({ token: 'card_tok', installments: 4 }),
        reply: { body: { id: 'sell_2', status: 'paid', payment_method: 'credit_card', amount: 1990 } },
      });
      expect(await h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'card_tok', installments: 4 }))).toEqual({
        paymentMethod: 'CREDIT_CARD',
        transactionId: 'sell_2',
        status: 'APPROVED',
        amount: 1990,
      });
      const boleto = {
        id: 'sell_3',
        status: 'pending',
        boleto: {
          digitable_line: '34191.79001 01043.510047 91020.150008 1 99870000005000',
          url: 'https://b.example/3.pdf',
          due_date: '2025-03-13T12:00:00.000Z',
        },
      };
      h.fake.expect({
        method: 'POST',
        path: '/sells',
        body: (body) =>
          JSON.stringify((body as { items: unknown }).items) === JSON.stringify([{ title: 'Pedido 9', unit_price: 5000, quantity: 1, tangible: false }]),
        reply: { body: boleto },
      });
      expect(await h.adapter.createTransaction(h.ctx, transactionInput({ amount: 5000, paymentMethod: 'BILLET', description: 'Pedido 9' }))).toEqual({
        paymentMethod: 'BILLET',
        transactionId: 'sell_3',
        status: 'PENDING',
        amount: 5000,
        billetCode: boleto.boleto.digitable_line,
        billetUrl: boleto.boleto.url,
        expiresAt: new Date(boleto.boleto.due_date),
      });
    });

    it.each([
      [400, { message: 'customer.document inválido' }, 'INVALID_ARGUMENT', 'Erro ao criar transação: customer.document inválido'],
      [503, '<html>down</html>', 'UNAVAILABLE', 'Erro ao criar transação: Request failed with status code 503'],
      [
        200,
        '<html><body>Bad gateway</body></html>',
        'UNAVAILABLE',
        'Erro ao criar transação: resposta do provedor em formato inesperado (corpo: esperado object)',
      ],
      [200, null, 'UNAVAILABLE', 'Erro ao criar transação: resposta do provedor em formato inesperado (corpo: esperado object)'],
      [200, {}, 'UNAVAILABLE', 'Erro ao criar transação: resposta do provedor em formato inesperado (id: invalid_union)'],
      [200, { id: 'sell_1' }, 'UNAVAILABLE', 'Erro ao criar transação: resposta do provedor em formato inesperado (status: esperado string)'],
      [
        200,
        { id: 'sell_1', status: 'paid', amount: { cents: 1 } },
        'UNAVAILABLE',
        'Erro ao criar transação: resposta do provedor em formato inesperado (amount: invalid_union)',
      ],
      [
        200,
        { id: 'sell_1', status: 'paid', pix: 'qr' },
        'UNAVAILABLE',
        'Erro ao criar transação: resposta do provedor em formato inesperado (pix: esperado object)',
      ],
      // A 2xx message without the refusal flag is not a refusal: the sell may exist, so the caller's key stays held.
      [200, { message: 'Venda em processamento' }, 'UNAVAILABLE', 'Erro ao criar transação: resposta do provedor em formato inesperado (id: invalid_union)'],
      [200, { success: false, message: 'Marketplace bloqueado' }, 'INVALID_ARGUMENT', 'Erro ao criar transação: Marketplace bloqueado'],
    ])('a sell answered %i %j is %s, sent once', async (status, body, code, message) => {
      h.fake.expect({ method: 'POST', path: '/sells', reply: { status, body } });
      expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({ code, message });
      expect(h.fake.received).toHaveLength(1);
    });

    it.each(Object.entries(ABMEXSPLIT_STATUSES.entries))('reads GET /sells/{id}: %s → %s', async (status, expected) => {
      h.fake.expect({
        method: 'GET',
        path: '/sells/sell_1',
        headers: BEARER,
        reply: { body: { id: 'sell_1', status, amount: 700, payment_method: 'credit_card' } },
      });
      expect(await h.adapter.getTransaction(h.ctx, 'sell_1')).toEqual({ paymentMethod: 'CREDIT_CARD', transactionId: 'sell_1', status: expected, amount: 700 });
      expect(h.warn).not.toHaveBeenCalled();
    });

    it('maps an unknown status to REJECTED (the common rule) with a warning; a garbage read answer is an error, never a status', async () => {
      h.fake.expect({ method: 'GET', path: '/sells/sell_9', reply: { body: { id: 'sell_9', status: 'in_review', amount: 700 } } });
      expect((await h.adapter.getTransaction(h.ctx, 'sell_9')).status).toBe('REJECTED');
      expect(h.warn).toHaveBeenCalledWith({ provider: 'ABMEXSPLIT', providerStatus: 'in_review', mappedTo: 'REJECTED' }, 'unknown provider transaction status');
      for (const [, body] of GARBAGE_2XX_BODIES) {
        h.fake.expect({ method: 'GET', path: '/sells/sell_g', reply: { body } });
        await expect(h.adapter.getTransaction(h.ctx, 'sell_g')).rejects.toMatchObject({ message: expect.stringMatching(/^Erro ao buscar transação: /) });
      }
    });

    it('refunds by POST /sells/{id}/refund with the amount in cents; a refusal is status false; an empty answer is never "refunded"', async () => {
      h.fake.expect({
        method: 'POST',
        path: '/sells/sell_1/refund',
        headers: BEARER,
        body: { amount: 990 },
        reply: { body: { id: 'rf_1', status: 'refunded' } },
      });
      expect(await h.adapter.refoundTransaction(h.ctx, 'sell_1', 990)).toEqual({ refundId: 'rf_1', status: true });
      h.fake.expect({ method: 'POST', path: '/sells/sell_1/refund', reply: { body: { status: 'refused' } } });
      expect(await h.adapter.refoundTransaction(h.ctx, 'sell_1', 990)).toEqual({ refundId: 'sell_1', status: false });
      for (const [, body] of [...BODIES_WITHOUT_RESOURCE, ['an object status', { id: 'rf_2', status: { name: 'refunded' } }] as const]) {
        h.fake.expect({ method: 'POST', path: '/sells/sell_1/refund', reply: { body } });
        expect(await failure(h.adapter.refoundTransaction(h.ctx, 'sell_1', 990))).toEqual({
          code: 'UNAVAILABLE',
          message: expect.stringMatching(/^Erro ao estornar transação: resposta do provedor em formato inesperado \(/),
        });
      }
      h.fake.expect({ method: 'POST', path: '/sells/sell_1/refund', reply: { status: 422, body: { message: 'Venda já estornada' } } });
      expect(await failure(h.adapter.refoundTransaction(h.ctx, 'sell_1', 990))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: 'Erro ao estornar transação: Venda já estornada',
      });
    });

    it('reads notifications by sell_id and status (§4); ignores the rest; keys them by sell and status', async () => {
      expect(await h.adapter.processWebhook(h.ctx, notification({ sell_id: 'sell_1', status: 'paid', amount: 1990 }))).toEqual({
        type: 'TRANSACTION',
        transactionId: 'sell_1',
        status: 'APPROVED',
      });
      for (const body of [
        '{not json',
        { id: 'sell_1', status: 'paid' },
        { sell_id: 'sell_1' },
        { sell_id: 'sell_1', status: 2 },
        { sell_id: { id: 'sell_1' }, status: 'paid' },
        [{ sell_id: 'sell_1', status: 'paid' }],
      ])
        expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
      expect(h.adapter.notificationKey(h.ctx, notification({ sell_id: 42, status: 'PAID' }))).toBe('sell:42:paid');
      expect(h.adapter.notificationKey(h.ctx, notification('{not json'))).toMatch(/^sha256:/);
    });
  });
});
