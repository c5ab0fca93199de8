import { describe, expect, it } from '@jest/globals';
import QRCode from 'qrcode';
import type { TransactionInput } from '../../../server/domain/types.js';
import { BOLETO_DEFAULT_EXPIRY_SECONDS, PIX_DEFAULT_EXPIRY_SECONDS } from '../../../server/lib/expiry.js';
import { capabilitiesOf, operationsOf } from '../../../server/providers/adapter.js';
import { OrdersApiAdapter, type OrdersApiMember } from '../../../server/providers/families/ordersApi/index.js';
import { BODIES_WITHOUT_RESOURCE, GARBAGE_2XX_BODIES, absent, partial } from '../../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, providerHarness } from './harness.js';

/** What a member hands the suite besides its declaration: its account keys and the Authorization header they must produce. */
export interface OrdersApiFixtures {
  keys: { publicKey: string; secretKey: string };
  authorization: string;
}

/**
 * The orders API family's conformance suite (Pagar.me v5 dialect): every member
 * runs it with its declaration, so the family's behaviour is tested once; the
 * canned answers are the dialect's (docs.pagar.me). PIX validity and boleto due
 * date follow the member's declared expiry; the parts a member does not offer
 * (card tokens, saved cards, refunds, payouts, notifications) are skipped.
 */
export function ordersApiConformance(member: OrdersApiMember, fixtures: OrdersApiFixtures): void {
  const capabilities = capabilitiesOf(member.capabilities);
  const pixSeconds = member.expiry?.pixSeconds ?? PIX_DEFAULT_EXPIRY_SECONDS;
  const boletoSeconds = member.expiry?.boletoSeconds ?? BOLETO_DEFAULT_EXPIRY_SECONDS;
  const boletoDue = new Date(NOW.getTime() + boletoSeconds * 1000).toISOString();
  const h = providerHarness({ create: (runtime) => new OrdersApiAdapter(member, runtime), account: () => fixtures.keys });

  const customer = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };
  const card = { cardNumber: '4000 0000 0000 0010', holderName: 'ANA SOUZA', holderDocument: '12345678909', expMonth: '12', expYear: '30', cvv: '123' };

  const transaction = (extra: Partial<TransactionInput> = {}): TransactionInput => ({
    amount: 1990,
    paymentMethod: 'PIX',
    customer,
    items: [{ id: 'sku-1', title: 'Curso online', unitPrice: 1990, quantity: 1, tangible: false }],
    orderId: 'ord-1001',
    installments: 1,
    fingerPrints: [],
    splits: [],
    currency: 'BRL',
    ...extra,
  });

  const pixOrder = (status: string, extra: Record<string, unknown> = {}) => ({
    id: 'or_pix1',
    code: 'ord-1001',
    status,
    amount: 1990,
    charges: [
      {
        id: 'ch_pix1',
        status,
        amount: 1990,
        payment_method: 'pix',
        ...extra,
        last_transaction: {
          id: 'tran_pix1',
          transaction_type: 'pix',
          status: 'waiting_payment',
          qr_code: '00020101021226820014br.gov.bcb.pix2560pix.example/qr/v2/cobv/9d36b84f',
          qr_code_url: 'https://api.pagar.me/core/v5/transactions/tran_pix1/qrcode?payment_method=pix',
          expires_at: '2026-03-11T12:00:00Z',
        },
      },
    ],
  });

  describe(`${member.identity.id}: the orders API family`, () => {
    it('offers exactly the operations its capabilities declare; the others reject with the spec text and send nothing', async () => {
      expect(h.adapter.operations).toEqual(operationsOf(capabilities));
      await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    });

    if (capabilities.cardTokens)
      describe('createCardToken', () => {
        it('posts the card to /tokens with the public key as appId and no Authorization header', async () => {
          h.fake.expect({
            method: 'POST',
            path: '/tokens',
            query: { appId: fixtures.keys.publicKey },
            headers: { authorization: absent },
            body: {
              type: 'card',
              card: { number: '4000000000000010', holder_name: 'ANA SOUZA', holder_document: '12345678909', exp_month: 12, exp_year: 2030, cvv: '123' },
            },
            reply: { body: { id: 'token_Q1w2E3r4', type: 'card', expires_at: '2026-03-10T12:01:00Z', card: { last_four_digits: '0010' } } },
          });
          expect(await h.adapter.createCardToken(h.ctx, card)).toBe('token_Q1w2E3r4');
        });

        it("rethrows the provider's message under 'Erro ao criar token do cartão'", async () => {
          h.fake.expect({
            method: 'POST',
            path: '/tokens',
            reply: {
              status: 422,
              body: { message: 'The request is invalid.', errors: { 'request.card.number': ['The number field is not a valid card number'] } },
            },
          });
          expect(await failure(h.adapter.createCardToken(h.ctx, card))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: 'Erro ao criar token do cartão: The request is invalid. (request.card.number: The number field is not a valid card number)',
          });
        });
      });

    if (capabilities.savedCards)
      describe('createCardId', () => {
        it('tokenises the card, creates the customer and saves the card for it', async () => {
          h.fake.expect({ method: 'POST', path: '/tokens', query: { appId: fixtures.keys.publicKey }, reply: { body: { id: 'token_abc' } } });
          h.fake.expect({
            method: 'POST',
            path: '/customers',
            headers: { authorization: fixtures.authorization },
            body: partial({
              name: 'Ana Souza',
              email: 'ana@example.com',
              document: '12345678909',
              document_type: 'CPF',
              type: 'individual',
              phones: { mobile_phone: { country_code: '55', area_code: '11', number: '987654321' } },
            }),
            reply: { body: { id: 'cus_9xY', name: 'Ana Souza' } },
          });
          h.fake.expect({
            method: 'POST',
            path: '/customers/cus_9xY/cards',
            headers: { authorization: fixtures.authorization },
            body: { token: 'token_abc' },
            reply: { body: { id: 'card_7Hk', last_four_digits: '0010' } },
          });
          expect(await h.adapter.createCardId(h.ctx, { card, customer })).toBe('card_7Hk');
        });

        it('saves a card from a token for the card holder when no customer is given', async () => {
          h.fake.expect({ method: 'POST', path: '/tokens', reply: { body: { id: 'token_def' } } });
          h.fake.expect({
            method: 'POST',
            path: '/customers',
            body: partial({ name: 'ANA SOUZA', document: '12345678909', type: 'individual' }),
            reply: { body: { id: 'cus_1' } },
          });
          h.fake.expect({ method: 'POST', path: '/customers/cus_1/cards', body: { token: 'token_def' }, reply: { body: { id: 'card_1' } } });
          expect(await h.adapter.createCardId(h.ctx, { card })).toBe('card_1');
        });

        it('uses a given card token without tokenising again', async () => {
          h.fake.expect({ method: 'POST', path: '/customers', reply: { body: { id: 'cus_2' } } });
          h.fake.expect({ method: 'POST', path: '/customers/cus_2/cards', body: { token: 'token_given' }, reply: { body: { id: 'card_2' } } });
          expect(await h.adapter.createCardId(h.ctx, { cardToken: 'token_given', customer })).toBe('card_2');
        });

        it('refuses a token without a customer to own the card', async () => {
          expect(await failure(h.adapter.createCardId(h.ctx, { cardToken: 'token_given' }))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: 'customer is required to save a card with a card token',
          });
        });

        it("rethrows the provider's message under 'Erro salvando cartão'", async () => {
          h.fake.expect({ method: 'POST', path: '/customers', reply: { body: { id: 'cus_3' } } });
          h.fake.expect({ method: 'POST', path: '/customers/cus_3/cards', reply: { status: 412, body: { message: 'Card expired.' } } });
          expect(await failure(h.adapter.createCardId(h.ctx, { cardToken: 'token_old', customer }))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: 'Erro salvando cartão: Card expired.',
          });
        });
      });

    describe('createTransaction', () => {
      it(`creates a PIX order that expires in ${pixSeconds} s and maps the QR code`, async () => {
        h.fake.expect({
          method: 'POST',
          path: '/orders',
          headers: { authorization: fixtures.authorization, 'content-type': /application\/json/ },
          body: partial({
            code: 'ord-1001',
            closed: true,
            items: [{ amount: 1990, description: 'Curso online', quantity: 1, code: 'sku-1' }],
            customer: {
              name: 'Ana Souza',
              email: 'ana@example.com',
              document: '12345678909',
              document_type: 'CPF',
              type: 'individual',
              phones: { mobile_phone: { country_code: '55', area_code: '11', number: '987654321' } },
            },
            payments: [{ payment_method: 'pix', amount: 1990, pix: { expires_in: pixSeconds } }],
          }),
          reply: { body: pixOrder('pending') },
        });
        const result = await h.adapter.createTransaction(h.ctx, transaction());
        expect(result).toEqual({
          paymentMethod: 'PIX',
          transactionId: 'or_pix1',
          status: 'PENDING',
          amount: 1990,
          pixCode: '00020101021226820014br.gov.bcb.pix2560pix.example/qr/v2/cobv/9d36b84f',
          pixQrCode: expect.stringMatching(/^data:image\/png;base64,/),
          expiresAt: new Date('2026-03-11T12:00:00Z'),
        });
        expect(result.pixQrCode).toBe(await QRCode.toDataURL(result.pixCode!, { errorCorrectionLevel: 'M', margin: 1 }));
      });

      it(`creates a boleto due ${boletoSeconds} s after now and maps its line, PDF and due date`, async () => {
        h.fake.expect({
          method: 'POST',
          path: '/orders',
          headers: { authorization: fixtures.authorization },
          body: partial({
            payments: [{ payment_method: 'boleto', amount: 123456, boleto: { due_at: boletoDue, instructions: 'Mensalidade março' } }],
          }),
          reply: {
            body: {
              id: 'or_bol1',
              status: 'pending',
              amount: 123456,
              charges: [
                {
                  id: 'ch_bol1',
                  status: 'pending',
                  payment_method: 'boleto',
                  last_transaction: {
                    id: 'tran_bol1',
                    status: 'generated',
                    line: '34191.09008 63571.277308 71444.640008 5 99800000123456',
                    barcode: 'https://api.pagar.me/transactions/tran_bol1/barcode',
                    pdf: 'https://api.pagar.me/transactions/tran_bol1/pdf',
                    url: 'https://api.pagar.me/transactions/tran_bol1',
                    due_at: '2026-03-15T12:00:00Z',
                  },
                },
              ],
            },
          },
        });
        expect(
          await h.adapter.createTransaction(h.ctx, transaction({ amount: 123456, paymentMethod: 'BILLET', items: [], description: 'Mensalidade março' })),
        ).toEqual({
          paymentMethod: 'BILLET',
          transactionId: 'or_bol1',
          status: 'PENDING',
          amount: 123456,
          billetCode: '34191090086357127730871444640008599800000123456',
          billetUrl: 'https://api.pagar.me/transactions/tran_bol1/pdf',
          expiresAt: new Date('2026-03-15T12:00:00Z'),
        });
      });

      it('charges a saved card with installments and a statement descriptor', async () => {
        h.fake.expect({
          method: 'POST',
          path: '/orders',
          body: partial({
            payments: [
              { payment_method: 'credit_card', amount: 5000, credit_card: { installments: 3, statement_descriptor: 'CursoOnline', card_id: 'card_7Hk' } },
            ],
          }),
          reply: {
            body: {
              id: 'or_cc1',
              status: 'paid',
              amount: 5000,
              charges: [
                {
                  id: 'ch_cc1',
                  status: 'paid',
                  payment_method: 'credit_card',
                  paid_at: '2026-03-10T12:00:02Z',
                  last_transaction: { status: 'captured', success: true },
                },
              ],
            },
          },
        });
        expect(
          await h.adapter.createTransaction(
            h.ctx,
            transaction({ amount: 5000, paymentMethod: 'CREDIT_CARD', cardId: 'card_7Hk', installments: 3, description: 'Curso Online' }),
          ),
        ).toEqual({
          paymentMethod: 'CREDIT_CARD',
          transactionId: 'or_cc1',
          status: 'APPROVED',
          amount: 5000,
        });
      });

      it('returns a declined card as REJECTED', async () => {
        h.fake.expect({
          method: 'POST',
          path: '/orders',
          reply: {
            body: {
              id: 'or_cc2',
              status: 'failed',
              amount: 5000,
              charges: [
                {
                  id: 'ch_cc2',
                  status: 'failed',
                  payment_method: 'credit_card',
                  last_transaction: { status: 'not_authorized', success: false, acquirer_message: 'Transação recusada' },
                },
              ],
            },
          },
        });
        expect(await h.adapter.createTransaction(h.ctx, transaction({ amount: 5000, paymentMethod: 'CREDIT_CARD', cardId: 'card_7Hk' }))).toMatchObject({
          transactionId: 'or_cc2',
          status: 'REJECTED',
        });
      });

      it("rethrows the reason of a PIX that failed inside a 2xx answer under 'Erro ao criar transação'", async () => {
        h.fake.expect({
          method: 'POST',
          path: '/orders',
          reply: {
            body: {
              id: 'or_f',
              status: 'failed',
              amount: 1990,
              charges: [
                {
                  id: 'ch_f',
                  status: 'failed',
                  payment_method: 'pix',
                  last_transaction: { success: false, gateway_response: { code: '400', errors: [{ message: 'Meio de pagamento Pix não habilitado.' }] } },
                },
              ],
            },
          },
        });
        expect(await failure(h.adapter.createTransaction(h.ctx, transaction()))).toEqual({
          code: 'FAILED_PRECONDITION',
          message: 'Erro ao criar transação: Meio de pagamento Pix não habilitado.',
        });
      });

      it("rethrows a refused request with the provider's message and field errors", async () => {
        h.fake.expect({
          method: 'POST',
          path: '/orders',
          reply: {
            status: 422,
            body: { message: 'The request is invalid.', errors: { 'order.customer.document': ['The field document must be a valid CPF or CNPJ.'] } },
          },
        });
        expect(await failure(h.adapter.createTransaction(h.ctx, transaction()))).toEqual({
          code: 'INVALID_ARGUMENT',
          message: 'Erro ao criar transação: The request is invalid. (order.customer.document: The field document must be a valid CPF or CNPJ.)',
        });
      });

      it('reports rejected credentials', async () => {
        h.fake.expect({ method: 'POST', path: '/orders', reply: { status: 401, body: { message: 'Authorization has been denied for this request.' } } });
        expect(await failure(h.adapter.createTransaction(h.ctx, transaction()))).toEqual({
          code: 'FAILED_PRECONDITION',
          message: 'Erro ao criar transação: Authorization has been denied for this request.',
        });
      });

      it('turns a 5xx into UNAVAILABLE and never sends the order twice', async () => {
        const orders = h.fake.expect({ method: 'POST', path: '/orders', reply: { status: 503, body: { message: 'Service Unavailable' } } });
        expect(await failure(h.adapter.createTransaction(h.ctx, transaction()))).toEqual({
          code: 'UNAVAILABLE',
          message: 'Erro ao criar transação: Service Unavailable',
        });
        expect(orders.calls).toHaveLength(1);
      });

      it('turns a timeout into UNAVAILABLE', async () => {
        h.fake.expect({ method: 'POST', path: '/orders', reply: { delayMs: 1_500, body: pixOrder('pending') } });
        expect(await failure(h.adapter.createTransaction(h.ctx, transaction()))).toEqual({
          code: 'UNAVAILABLE',
          message: 'Erro ao criar transação: timeout of 500ms exceeded',
        });
      });

      it('turns an answer without a charge into UNAVAILABLE', async () => {
        h.fake.expect({ method: 'POST', path: '/orders', reply: { body: { id: 'or_x', status: 'pending' } } });
        expect(await failure(h.adapter.createTransaction(h.ctx, transaction()))).toEqual({
          code: 'UNAVAILABLE',
          message: 'Erro ao criar transação: order or_x came back without a known charge',
        });
      });
    });

    describe('getTransaction', () => {
      it('reads the order and maps the paid charge', async () => {
        h.fake.expect({
          method: 'GET',
          path: '/orders/or_pix1',
          headers: { authorization: fixtures.authorization },
          reply: { body: pixOrder('paid', { paid_at: '2026-03-10T12:10:00Z', paid_amount: 1990 }) },
        });
        expect(await h.adapter.getTransaction(h.ctx, 'or_pix1')).toMatchObject({
          paymentMethod: 'PIX',
          transactionId: 'or_pix1',
          status: 'APPROVED',
          amount: 1990,
        });
      });

      it.each([
        ['canceled after payment', { status: 'canceled', paid_at: '2026-03-10T12:10:00Z' }, 'REFUNDED'],
        ['canceled unpaid', { status: 'canceled' }, 'CANCELED'],
        ['chargedback', { status: 'chargedback', paid_at: '2026-03-10T12:10:00Z' }, 'CHARGEBACK'],
        ['failed', { status: 'failed' }, 'REJECTED'],
        ['processing', { status: 'processing' }, 'PENDING'],
      ])('maps a charge %s', async (_label, charge, status) => {
        h.fake.expect({ method: 'GET', path: '/orders/or_pix1', reply: { body: pixOrder('paid', charge) } });
        expect((await h.adapter.getTransaction(h.ctx, 'or_pix1')).status).toBe(status);
      });

      it.each(GARBAGE_2XX_BODIES)('a 2xx answer that is %s is an error, never a status', async (_label, body) => {
        h.fake.expect({ method: 'GET', path: '/orders/or_g', reply: { body } });
        await expect(h.adapter.getTransaction(h.ctx, 'or_g')).rejects.toMatchObject({ message: expect.stringMatching(/^Erro ao buscar transação: /) });
      });

      it("rethrows an unknown order under 'Erro ao buscar transação' as NOT_FOUND", async () => {
        h.fake.expect({ method: 'GET', path: '/orders/or_nope', reply: { status: 404, body: { message: 'Order not found' } } });
        expect(await failure(h.adapter.getTransaction(h.ctx, 'or_nope'))).toEqual({ code: 'NOT_FOUND', message: 'Erro ao buscar transação: Order not found' });
      });

      it('retries a read after a 5xx, then reports UNAVAILABLE', async () => {
        const reads = h.fake.expect({ method: 'GET', path: '/orders/or_pix1', times: 3, reply: { status: 502, body: { message: 'Bad Gateway' } } });
        expect(await failure(h.adapter.getTransaction(h.ctx, 'or_pix1'))).toEqual({ code: 'UNAVAILABLE', message: 'Erro ao buscar transação: Bad Gateway' });
        expect(reads.calls).toHaveLength(3);
      });
    });

    if (capabilities.refunds)
      describe('refoundTransaction', () => {
        it("reads the order's charge and cancels it with the amount", async () => {
          h.fake.expect({
            method: 'GET',
            path: '/orders/or_pix1',
            headers: { authorization: fixtures.authorization },
            reply: { body: pixOrder('paid', { paid_at: '2026-03-10T12:10:00Z' }) },
          });
          h.fake.expect({
            method: 'DELETE',
            path: '/charges/ch_pix1',
            headers: { authorization: fixtures.authorization },
            body: { amount: 1990 },
            reply: {
              body: {
                id: 'ch_pix1',
                status: 'canceled',
                amount: 1990,
                paid_at: '2026-03-10T12:10:00Z',
                last_transaction: { id: 'tran_ref1', status: 'refunded' },
              },
            },
          });
          expect(await h.adapter.refoundTransaction(h.ctx, 'or_pix1', 1990)).toEqual({ refundId: 'tran_ref1', status: true });
        });

        it('reports a partial refund that the provider accepted', async () => {
          h.fake.expect({ method: 'GET', path: '/orders/or_pix1', reply: { body: pixOrder('paid', { paid_at: '2026-03-10T12:10:00Z' }) } });
          h.fake.expect({
            method: 'DELETE',
            path: '/charges/ch_pix1',
            body: { amount: 500 },
            reply: { body: { id: 'ch_pix1', status: 'paid', last_transaction: { id: 'tran_ref2', status: 'partial_refunded' } } },
          });
          expect(await h.adapter.refoundTransaction(h.ctx, 'or_pix1', 500)).toEqual({ refundId: 'tran_ref2', status: true });
        });

        it("rethrows the provider's message under 'Erro ao estornar transação'", async () => {
          h.fake.expect({ method: 'GET', path: '/orders/or_pix1', reply: { body: pixOrder('paid', { paid_at: '2026-03-10T12:10:00Z' }) } });
          h.fake.expect({
            method: 'DELETE',
            path: '/charges/ch_pix1',
            reply: { status: 400, body: { message: 'Charge cannot be canceled: insufficient balance' } },
          });
          expect(await failure(h.adapter.refoundTransaction(h.ctx, 'or_pix1', 1990))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: 'Erro ao estornar transação: Charge cannot be canceled: insufficient balance',
          });
        });

        it('reports a failed order read under the refund prefix, and cancels nothing', async () => {
          h.fake.expect({ method: 'GET', path: '/orders/or_nope', reply: { status: 404, body: { message: 'Order not found' } } });
          expect(await failure(h.adapter.refoundTransaction(h.ctx, 'or_nope', 1990))).toEqual({
            code: 'NOT_FOUND',
            message: 'Erro ao estornar transação: Order not found',
          });
        });

        it('turns a 5xx on the cancellation into UNAVAILABLE, sent once', async () => {
          h.fake.expect({ method: 'GET', path: '/orders/or_pix1', reply: { body: pixOrder('paid', { paid_at: '2026-03-10T12:10:00Z' }) } });
          const cancel = h.fake.expect({ method: 'DELETE', path: '/charges/ch_pix1', reply: { status: 500, body: { message: 'Internal Server Error' } } });
          expect(await failure(h.adapter.refoundTransaction(h.ctx, 'or_pix1', 1990))).toEqual({
            code: 'UNAVAILABLE',
            message: 'Erro ao estornar transação: Internal Server Error',
          });
          expect(cancel.calls).toHaveLength(1);
        });
      });

    if (capabilities.withdrawMethods.length)
      describe('withdraw', () => {
        const withdrawal = { paymentMethod: 'RECEIVER' as const, amount: 10_000, description: 'Saque de R$ 100,00' };

        it('withdraws from the recipient the input names', async () => {
          h.fake.expect({
            method: 'POST',
            path: '/recipients/re_seller1/withdrawals',
            headers: { authorization: fixtures.authorization },
            body: { amount: 10_000 },
            reply: { body: { id: 'tran_w1', amount: 10_000, status: 'pending', created_at: '2026-03-10T12:00:00Z' } },
          });
          expect(await h.adapter.withdraw({ ...h.ctx, platformId: 're_platform' }, { ...withdrawal, receiverId: 're_seller1' })).toEqual({
            withdrawId: 'tran_w1',
            amount: 10_000,
            status: 'PENDING',
            approvedAt: undefined,
          });
        });

        it("sends the gateway's idempotency key as Pagar.me's Idempotency-Key on orders and withdrawals", async () => {
          h.fake.expect({ method: 'POST', path: '/orders', headers: { 'idempotency-key': 'order-key-1' }, reply: { body: pixOrder('pending') } });
          await h.adapter.createTransaction(h.ctx, { ...transaction(), idempotencyKey: 'order-key-1' });
          h.fake.expect({
            method: 'POST',
            path: '/recipients/re_platform/withdrawals',
            headers: { 'idempotency-key': 'payout-key-1' },
            reply: { body: { id: 'tran_w3', amount: 10_000, status: 'pending' } },
          });
          await h.adapter.withdraw({ ...h.ctx, platformId: 're_platform' }, { ...withdrawal, receiverId: 're_platform', idempotencyKey: 'payout-key-1' });
        });

        it.each(BODIES_WITHOUT_RESOURCE)('a withdrawal answered with %s is an error, never a REJECTED payout', async (_label, body) => {
          h.fake.expect({ method: 'POST', path: '/recipients/re_platform/withdrawals', reply: { body } });
          await expect(h.adapter.withdraw({ ...h.ctx, platformId: 're_platform' }, { ...withdrawal, receiverId: 're_platform' })).rejects.toMatchObject({
            code: 'UNAVAILABLE',
            message: 'Erro ao realizar saque: the provider answered without a withdrawal with a status',
          });
        });

        it("rethrows the provider's message under 'Erro ao realizar saque'", async () => {
          h.fake.expect({
            method: 'POST',
            path: '/recipients/re_platform/withdrawals',
            reply: { status: 412, body: { message: 'Saldo insuficiente para saque' } },
          });
          expect(await failure(h.adapter.withdraw({ ...h.ctx, platformId: 're_platform' }, { ...withdrawal, receiverId: 're_platform' }))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: 'Erro ao realizar saque: Saldo insuficiente para saque',
          });
        });

        it('turns a timeout into UNAVAILABLE, sent once', async () => {
          const sent = h.fake.expect({
            method: 'POST',
            path: '/recipients/re_platform/withdrawals',
            reply: { delayMs: 1_500, body: { id: 'tran_w3', amount: 10_000, status: 'pending' } },
          });
          expect(await failure(h.adapter.withdraw({ ...h.ctx, platformId: 're_platform' }, { ...withdrawal, receiverId: 're_platform' }))).toEqual({
            code: 'UNAVAILABLE',
            message: 'Erro ao realizar saque: timeout of 500ms exceeded',
          });
          expect(sent.calls).toHaveLength(1);
        });
      });

    if (capabilities.webhooks)
      describe('notifications', () => {
        const body = (value: unknown) => Buffer.from(JSON.stringify(value));
        const paid = body({
          id: 'hook_RyEKQO789TRpZjv5',
          account: { id: 'acc_1', name: 'Loja' },
          type: 'order.paid',
          created_at: '2026-03-10T12:10:00',
          data: pixOrder('paid', { paid_at: '2026-03-10T12:10:00Z' }),
        });

        it('accepts order.paid for the order, unsigned, keyed by the event id', async () => {
          const notification = { body: paid, headers: { 'content-type': 'application/json' } };
          expect(await h.adapter.processWebhook(h.ctx, notification)).toEqual({ type: 'TRANSACTION', transactionId: 'or_pix1', status: 'APPROVED' });
          expect(h.adapter.verifyNotification(h.ctx, notification)).toBe('unsigned');
          expect(h.adapter.notificationKey(h.ctx, notification)).toBe('event:hook_RyEKQO789TRpZjv5');
        });

        it('accepts charge events for the charge’s order', async () => {
          const refunded = body({ id: 'hook_2', type: 'charge.refunded', data: { id: 'ch_pix1', status: 'canceled', order: { id: 'or_pix1' } } });
          expect(await h.adapter.processWebhook(h.ctx, { body: refunded, headers: {} })).toEqual({
            type: 'TRANSACTION',
            transactionId: 'or_pix1',
            status: 'REFUNDED',
          });
          const chargedback = body({ id: 'hook_3', type: 'charge.chargedback', data: { id: 'ch_pix1', status: 'chargedback', order: { id: 'or_pix1' } } });
          expect(await h.adapter.processWebhook(h.ctx, { body: chargedback, headers: {} })).toEqual({
            type: 'TRANSACTION',
            transactionId: 'or_pix1',
            status: 'CHARGEBACK',
          });
        });

        it('ignores other events and bodies it cannot read', async () => {
          expect(
            await h.adapter.processWebhook(h.ctx, { body: body({ id: 'hook_4', type: 'order.created', data: pixOrder('pending') }), headers: {} }),
          ).toBeUndefined();
          expect(await h.adapter.processWebhook(h.ctx, { body: Buffer.from('<xml/>'), headers: {} })).toBeUndefined();
        });

        it('keys a notification without an event id by its body hash', () => {
          expect(h.adapter.notificationKey(h.ctx, { body: Buffer.from('{}'), headers: {} })).toMatch(/^sha256:[0-9a-f]{64}$/);
        });
      });
  });
}
