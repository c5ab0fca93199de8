import { describe, expect, it } from '@jest/globals';
import type { Operation, TransactionStatus, WebhookResult, WithdrawInput } from '../../../server/domain/types.js';
import { BOLETO_DEFAULT_EXPIRY_SECONDS, PIX_DEFAULT_EXPIRY_SECONDS } from '../../../server/lib/expiry.js';
import { CATALOGUE, FAILURE_PREFIXES } from '../../../server/lib/providerMessages.js';
import { declaredStatusTable } from '../../../server/lib/statusTable.js';
import { capabilitiesOf, operationsOf } from '../../../server/providers/adapter.js';
import {
  ORDERS_API_EVENTS,
  ORDERS_API_NEVER_PAID,
  ORDERS_API_STATUSES,
  ORDERS_API_WITHDRAWAL_STATUSES,
  OrdersApiAdapter,
  type OrdersApiCharge,
  type OrdersApiLastTransaction,
  type OrdersApiMember,
  type OrdersApiOrder,
  type OrdersApiWithdrawal,
} from '../../../server/providers/families/ordersApi/index.js';
import { GARBAGE_2XX_BODIES, absent, partial } from '../../support/fakeProvider.js';
import {
  NOW,
  expectUnsupportedOperationsRejected,
  failure,
  notification,
  providerHarness,
  transactionInput,
  type Harness,
  LATE_MS,
  TIMEOUT_TEXT,
} from './harness.js';

/**
 * The orders API family's conformance suite (Pagar.me v5 dialect; spec doc 2
 * §7–§9 for PAGARMEBAAS): every member runs it with its declaration, so the
 * family's behaviour is tested once. What the member declares decides what the
 * suite expects: its PIX validity and boleto due date, its status tables (the
 * family's and its overrides) and never-paid rule, its withdrawal recipient;
 * the parts it does not offer do not run, and its unsupported operations must
 * reject with 'Method not implemented.'.
 *
 * A member's test calls it once with its declaration, its account keys and the
 * canned answers its API gives differently from the dialect's, then tests only
 * what the spec says about it through the returned harness.
 */

/** Canned answers keep the fields a provider sends that the family does not read. */
type MoreFields = Record<string, unknown>;
type LastTransaction = Omit<OrdersApiLastTransaction, 'gateway_response'> & {
  gateway_response?: { errors?: Array<{ message?: string }> } & MoreFields;
} & MoreFields;
type Charge = Omit<OrdersApiCharge, 'last_transaction'> & { last_transaction: LastTransaction } & MoreFields;
/** An order of one charge, as POST /orders and GET /orders/{id} answer it. */
type Order = Omit<OrdersApiOrder, 'charges'> & { amount: number; charges: [Charge] } & MoreFields;

/** The answers the suite's fake gives (Active Merchant style); a member passes those its API gives differently. */
export interface OrdersApiAnswers {
  /** POST /tokens. */
  cardToken: { id: string } & MoreFields;
  /** POST /customers. */
  customer: { id: string } & MoreFields;
  /** POST /customers/{id}/cards. */
  savedCard: { id: string } & MoreFields;
  /** A PIX order waiting for payment: copy-and-paste code, QR image URL, expiry. */
  pixOrder: Order;
  /** A boleto order waiting for payment: digitable line, PDF, due date. */
  boletoOrder: Order;
  /** A card order paid at once. */
  cardOrder: Order;
  /** A card order the acquirer declined (an outcome, not an error). */
  declinedCardOrder: Order;
  /** A PIX order that failed inside a 2xx answer, its reason in gateway_response.errors. */
  failedPixOrder: Order & { charges: [{ last_transaction: { gateway_response: { errors: [{ message: string }] } } }] };
  /** DELETE /charges/{id} for the whole amount: the charge canceled, its last transaction the refund. */
  canceledCharge: Charge & { last_transaction: { id: string } };
  /** DELETE /charges/{id} for part of it: the charge stays paid, its last transaction partially refunded. */
  partiallyRefundedCharge: Charge & { last_transaction: { id: string } };
  /** POST /recipients/{id}/withdrawals: pending. */
  withdrawal: OrdersApiWithdrawal & { updated_at: string } & MoreFields;
}

const PAID_AT = '2026-03-10T12:10:00Z';

/** The dialect's canned answers, from docs.pagar.me (API v5) and the Pagar.me SDK's models. */
const DIALECT: OrdersApiAnswers = {
  cardToken: { id: 'token_Q1w2E3r4', type: 'card', expires_at: '2026-03-10T12:01:00Z', card: { last_four_digits: '0010' } },
  customer: { id: 'cus_9xY', name: 'Ana Souza' },
  savedCard: { id: 'card_7Hk', last_four_digits: '0010' },
  pixOrder: {
    id: 'or_pix1',
    code: 'order-77',
    status: 'pending',
    amount: 1990,
    charges: [
      {
        id: 'ch_pix1',
        status: 'pending',
        amount: 1990,
        payment_method: 'pix',
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
  },
  boletoOrder: {
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
          barcode: 'https://api.pagar.me/core/v5/transactions/tran_bol1/barcode',
          pdf: 'https://api.pagar.me/core/v5/transactions/tran_bol1/pdf',
          url: 'https://api.pagar.me/core/v5/transactions/tran_bol1',
          due_at: '2026-03-15T12:00:00Z',
        },
      },
    ],
  },
  cardOrder: {
    id: 'or_cc1',
    status: 'paid',
    amount: 5000,
    charges: [
      { id: 'ch_cc1', status: 'paid', payment_method: 'credit_card', paid_at: '2026-03-10T12:00:02Z', last_transaction: { status: 'captured', success: true } },
    ],
  },
  declinedCardOrder: {
    id: 'or_cc2',
    status: 'failed',
    amount: 5000,
    charges: [
      {
        id: 'ch_cc2',
        status: 'failed',
        payment_method: 'credit_card',
        last_transaction: { status: 'not_authorized', success: false, acquirer_return_code: '05', acquirer_message: 'Transação recusada' },
      },
    ],
  },
  failedPixOrder: {
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
  canceledCharge: { id: 'ch_pix1', status: 'canceled', amount: 1990, paid_at: PAID_AT, last_transaction: { id: 'tran_ref1', status: 'refunded' } },
  partiallyRefundedCharge: { id: 'ch_pix1', status: 'paid', amount: 1990, paid_at: PAID_AT, last_transaction: { id: 'tran_ref2', status: 'partial_refunded' } },
  withdrawal: { id: 'tran_w1', amount: 10_000, status: 'pending', created_at: '2026-03-10T12:00:00Z', updated_at: '2026-03-10T12:30:00Z' },
};

export interface OrdersApiFixtures {
  /** The account's keys: the public key is the card tokens' appId, the secret key the Basic user. */
  keys: { publicKey: string; secretKey: string };
  /** The answers the member's API gives differently from the dialect's. */
  answers?: Partial<OrdersApiAnswers>;
}

const card = { cardNumber: '4000 0000 0000 0010', holderName: 'ANA SOUZA', holderDocument: '12345678909', expMonth: '12', expYear: '30', cvv: '123' };
const customer = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' };
/** The customer as the family sends it: digits, CPF and person, the phone split under country code 55. */
const CUSTOMER_BODY = {
  name: 'Ana Souza',
  email: 'ana@example.com',
  document: '12345678909',
  document_type: 'CPF',
  type: 'individual',
  phones: { mobile_phone: { country_code: '55', area_code: '11', number: '987654321' } },
};
const WITHDRAWAL: WithdrawInput = { paymentMethod: 'RECEIVER', amount: 10_000, description: 'Saque de R$ 100,00', receiverId: 're_seller1' };
const REFUND_CENTS = 1990;
const PARTIAL_REFUND_CENTS = 500;

/** The order with its one charge in another status (and other charge fields, such as paid_at). */
const withStatus = (order: Order, status: string, charge: MoreFields = {}): Order => ({
  ...order,
  status,
  charges: [{ ...order.charges[0], status, ...charge }],
});

export function ordersApiConformance(member: OrdersApiMember, fixtures: OrdersApiFixtures): Harness<OrdersApiAdapter> {
  const { keys } = fixtures;
  const answers = { ...DIALECT, ...fixtures.answers };
  const { pixOrder } = answers;
  const pixCharge = pixOrder.charges[0];
  const id = member.identity.id;
  const capabilities = capabilitiesOf(member.capabilities);
  const offers = (method: 'PIX' | 'BILLET' | 'CREDIT_CARD') => capabilities.paymentMethods.includes(method);
  const pixSeconds = member.expiry?.pixSeconds ?? PIX_DEFAULT_EXPIRY_SECONDS;
  const boletoSeconds = member.expiry?.boletoSeconds ?? BOLETO_DEFAULT_EXPIRY_SECONDS;
  /** A card charge's receivable term, reported as its expiresAt from creation; none where the member declares none. */
  const cardReceivableSeconds = member.expiry?.cardReceivableSeconds;
  /** Pagar.me's Basic auth: the secret key as user, an empty password. */
  const authorization = `Basic ${Buffer.from(`${keys.secretKey}:`).toString('base64')}`;
  const statuses = declaredStatusTable(ORDERS_API_STATUSES, member.statuses?.transaction);
  const withdrawalStatuses = declaredStatusTable(ORDERS_API_WITHDRAWAL_STATUSES, member.statuses?.withdrawal);
  const neverPaid = member.neverPaid ?? ORDERS_API_NEVER_PAID;
  /** What the member's tables make of a status, for a charge that received money or not. */
  const mapped = (status: string, paid: boolean): TransactionStatus =>
    !paid && Object.hasOwn(neverPaid, status) ? neverPaid[status]! : (statuses.entries[status] ?? statuses.unknown);

  const h = providerHarness({ create: (runtime) => new OrdersApiAdapter(member, runtime), account: () => keys });
  /** The recipient the member's rule takes for the suite's withdrawal (which names one). */
  const recipient = () => {
    const named = member.withdrawalRecipient?.(h.ctx, WITHDRAWAL);
    if (!named) throw new Error(`${id}: the suite withdraws naming receiver_id; the member's withdrawalRecipient must take it`);
    return named;
  };
  const readsOrder = (order: unknown = pixOrder) => h.fake.expect({ method: 'GET', path: `/orders/${pixOrder.id}`, reply: { body: order } });
  /** A paid charge's read also asks its payables where the member reads its fee there (payableFees): none listed here. */
  const readsPayablesWhen = (status: TransactionStatus) => {
    if (member.payableFees && status === 'APPROVED') h.fake.expect({ method: 'GET', path: '/payables', reply: { body: { data: [], paging: {} } } });
  };
  const paidPixOrder = withStatus(pixOrder, 'paid', { paid_at: PAID_AT, paid_amount: pixOrder.amount });

  describe(`${id}: the orders API family`, () => {
    it('offers exactly the operations its capabilities declare; the others reject with the spec text and send nothing', async () => {
      expect(h.adapter.identity).toEqual({ ...member.identity, aliases: member.identity.aliases ?? [] });
      expect(h.adapter.capabilities).toEqual(capabilities);
      expect(h.adapter.operations).toEqual(operationsOf(capabilities));
      // The family sends and reads integer cents (Pagar.me's unit).
      expect(member.money).toBe('cents');
      await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    });

    if (capabilities.cardTokens)
      describe('createCardToken', () => {
        it('posts the card to /tokens with the public key as appId and no Authorization header', async () => {
          h.fake.expect({
            method: 'POST',
            path: '/tokens',
            query: { appId: keys.publicKey },
            headers: { authorization: absent },
            body: {
              type: 'card',
              card: { number: '4000000000000010', holder_name: 'ANA SOUZA', holder_document: '12345678909', exp_month: 12, exp_year: 2030, cvv: '123' },
            },
            reply: { body: answers.cardToken },
          });
          expect(await h.adapter.createCardToken(h.ctx, card)).toBe(answers.cardToken.id);
        });

        it("rethrows the provider's message and field errors under the card token prefix", async () => {
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
            message: `${FAILURE_PREFIXES.CREATE_CARD_TOKEN}: The request is invalid. (request.card.number: The number field is not a valid card number)`,
          });
        });
      });

    if (capabilities.savedCards)
      describe('createCardId: the customer, then the card', () => {
        const savesCard = (token: string, customerBody: object = CUSTOMER_BODY) => {
          h.fake.expect({
            method: 'POST',
            path: '/customers',
            headers: { authorization },
            body: partial(customerBody),
            reply: { body: answers.customer },
          });
          h.fake.expect({
            method: 'POST',
            path: `/customers/${answers.customer.id}/cards`,
            headers: { authorization },
            body: { token },
            reply: { body: answers.savedCard },
          });
        };

        it('tokenises the card, creates the customer and saves the card for it', async () => {
          h.fake.expect({ method: 'POST', path: '/tokens', query: { appId: keys.publicKey }, reply: { body: answers.cardToken } });
          savesCard(answers.cardToken.id);
          expect(await h.adapter.createCardId(h.ctx, { card, customer })).toBe(answers.savedCard.id);
        });

        it('saves a card for the card holder when no customer is given', async () => {
          h.fake.expect({ method: 'POST', path: '/tokens', reply: { body: answers.cardToken } });
          savesCard(answers.cardToken.id, { name: 'ANA SOUZA', document: '12345678909', type: 'individual' });
          expect(await h.adapter.createCardId(h.ctx, { card })).toBe(answers.savedCard.id);
        });

        it('uses a given card token without tokenising again', async () => {
          savesCard('token_given');
          expect(await h.adapter.createCardId(h.ctx, { cardToken: 'token_given', customer })).toBe(answers.savedCard.id);
        });

        it('refuses a token without a customer to own the card, before calling', async () => {
          expect(await failure(h.adapter.createCardId(h.ctx, { cardToken: 'token_given' }))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: 'customer is required to save a card with a card token',
          });
        });

        it(`rethrows the provider's message under '${CATALOGUE.SAVE_CARD_FAILED.message}'`, async () => {
          h.fake.expect({ method: 'POST', path: '/customers', reply: { body: answers.customer } });
          h.fake.expect({ method: 'POST', path: `/customers/${answers.customer.id}/cards`, reply: { status: 412, body: { message: 'Card expired.' } } });
          expect(await failure(h.adapter.createCardId(h.ctx, { cardToken: 'token_old', customer }))).toEqual({
            code: 'INVALID_ARGUMENT',
            message: `${CATALOGUE.SAVE_CARD_FAILED.message}: Card expired.`,
          });
        });
      });

    describe('createTransaction: POST /orders', () => {
      const creates = (body: object, answer: unknown, headers: Record<string, unknown> = {}) =>
        h.fake.expect({ method: 'POST', path: '/orders', headers: { authorization, ...headers }, body: partial(body), reply: { body: answer } });

      if (offers('PIX'))
        it(`creates a PIX order that expires in ${pixSeconds} s, without an Idempotency-Key when given none, and maps its QR code`, async () => {
          creates(
            {
              code: 'order-77',
              closed: true,
              items: [{ amount: 1990, description: 'Curso', quantity: 1, code: 'sku-1' }],
              customer: CUSTOMER_BODY,
              payments: [{ payment_method: 'pix', amount: 1990, pix: { expires_in: pixSeconds } }],
            },
            pixOrder,
            { 'content-type': /application\/json/, 'idempotency-key': absent },
          );
          const { qr_code: pixCode, expires_at: expiresAt } = pixCharge.last_transaction;
          expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toEqual({
            paymentMethod: 'PIX',
            transactionId: pixOrder.id,
            status: 'PENDING',
            amount: pixOrder.amount,
            pixCode,
            expiresAt: new Date(expiresAt!),
          });
        });

      if (offers('BILLET'))
        it(`creates a boleto due ${boletoSeconds} s after now and maps its line (digits), PDF and due date`, async () => {
          const { boletoOrder } = answers;
          const { line, pdf, url, due_at: dueAt } = boletoOrder.charges[0].last_transaction;
          const dueAtSent = new Date(NOW.getTime() + boletoSeconds * 1000).toISOString();
          creates({ payments: [{ payment_method: 'boleto', amount: 123456, boleto: { due_at: dueAtSent, instructions: 'Mensalidade março' } }] }, boletoOrder);
          const input = transactionInput({ amount: 123456, paymentMethod: 'BILLET', items: [], description: 'Mensalidade março' });
          expect(await h.adapter.createTransaction(h.ctx, input)).toEqual({
            paymentMethod: 'BILLET',
            transactionId: boletoOrder.id,
            status: 'PENDING',
            amount: boletoOrder.amount,
            billetCode: line!.replace(/\D/g, ''),
            billetUrl: pdf ?? url,
            expiresAt: new Date(dueAt!),
          });
        });

      if (offers('CREDIT_CARD')) {
        it(`charges a saved card with installments and a statement descriptor${cardReceivableSeconds === undefined ? '' : `, its receivable due ${cardReceivableSeconds} s after creation`}`, async () => {
          const credit_card = { installments: 3, statement_descriptor: 'CursoOnline', card_id: 'card_7Hk' };
          creates({ payments: [{ payment_method: 'credit_card', amount: 5000, credit_card }] }, answers.cardOrder);
          const input = transactionInput({ amount: 5000, paymentMethod: 'CREDIT_CARD', cardId: 'card_7Hk', installments: 3, description: 'Curso Online' });
          expect(await h.adapter.createTransaction(h.ctx, input)).toEqual({
            paymentMethod: 'CREDIT_CARD',
            transactionId: answers.cardOrder.id,
            status: 'APPROVED',
            amount: answers.cardOrder.amount,
            ...(cardReceivableSeconds === undefined ? {} : { expiresAt: new Date(NOW.getTime() + cardReceivableSeconds * 1000) }),
          });
        });

        it('returns a declined card as REJECTED, an outcome rather than an error, with no receivable', async () => {
          creates({}, answers.declinedCardOrder);
          const input = transactionInput({ amount: 5000, paymentMethod: 'CREDIT_CARD', cardId: 'card_7Hk' });
          const result = await h.adapter.createTransaction(h.ctx, input);
          expect(result).toMatchObject({
            transactionId: answers.declinedCardOrder.id,
            status: 'REJECTED',
            declineReason: '05',
            declineMessage: 'Transação recusada',
          });
          expect(result.expiresAt).toBeUndefined();
        });
      }

      it("sends the gateway's idempotency key as the Idempotency-Key header", async () => {
        creates({}, pixOrder, { 'idempotency-key': 'order-key-1' });
        await h.adapter.createTransaction(h.ctx, transactionInput({ idempotencyKey: 'order-key-1' }));
      });

      it('rethrows the reason of a PIX that failed inside a 2xx answer: nothing to pay, so an error', async () => {
        creates({}, answers.failedPixOrder);
        expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
          code: 'FAILED_PRECONDITION',
          message: `${FAILURE_PREFIXES.CREATE_TRANSACTION}: ${answers.failedPixOrder.charges[0].last_transaction.gateway_response.errors[0].message}`,
        });
      });

      it.each([
        [
          422,
          'INVALID_ARGUMENT',
          { message: 'The request is invalid.', errors: { 'order.customer.document': ['The field document must be a valid CPF or CNPJ.'] } },
        ],
        [401, 'FAILED_PRECONDITION', { message: 'Authorization has been denied for this request.' }],
        [503, 'UNAVAILABLE', { message: 'Service Unavailable' }],
      ])("answered %i: %s with the provider's message and field errors, the order sent once", async (status, code, body) => {
        const orders = h.fake.expect({ method: 'POST', path: '/orders', reply: { status, body } });
        const fields = 'errors' in body ? ' (order.customer.document: The field document must be a valid CPF or CNPJ.)' : '';
        expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
          code,
          message: `${FAILURE_PREFIXES.CREATE_TRANSACTION}: ${body.message}${fields}`,
        });
        expect(orders.calls).toHaveLength(1);
      });

      it('turns a timeout into UNAVAILABLE, the order sent once', async () => {
        const orders = h.fake.expect({ method: 'POST', path: '/orders', reply: { delayMs: LATE_MS, body: pixOrder } });
        expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput()))).toEqual({
          code: 'UNAVAILABLE',
          message: `${FAILURE_PREFIXES.CREATE_TRANSACTION}: ${TIMEOUT_TEXT}`,
        });
        expect(orders.calls).toHaveLength(1);
      });
    });

    describe("getTransaction: GET /orders/{id}, the status of the order's charge by the member's table", () => {
      it('reads a paid order', async () => {
        h.fake.expect({ method: 'GET', path: `/orders/${pixOrder.id}`, headers: { authorization }, reply: { body: paidPixOrder } });
        readsPayablesWhen(mapped('paid', true));
        expect(await h.adapter.getTransaction(h.ctx, pixOrder.id)).toMatchObject({
          paymentMethod: 'PIX',
          transactionId: pixOrder.id,
          status: mapped('paid', true),
          amount: pixOrder.amount,
        });
      });

      it.each(Object.entries(statuses.entries))('a charge %s after a payment is %s', async (status, expected) => {
        readsOrder(withStatus(pixOrder, status, { paid_at: PAID_AT }));
        readsPayablesWhen(expected);
        expect((await h.adapter.getTransaction(h.ctx, pixOrder.id)).status).toBe(expected);
        expect(h.warn).not.toHaveBeenCalled();
      });

      const neverPaidCases = Object.entries(neverPaid).flatMap(([status, replacement]): Array<[string, string, MoreFields, TransactionStatus]> => [
        [`${status} without payment fields is ${replacement}`, status, {}, replacement],
        [`${status} with paid_at null and paid_amount 0 is ${replacement}`, status, { paid_at: null, paid_amount: 0 }, replacement],
        [`${status} with only a paid_amount is ${mapped(status, true)}`, status, { paid_amount: pixOrder.amount }, mapped(status, true)],
      ]);
      it.each(neverPaidCases)('the never-paid rule: a charge %s', async (_label, status, charge, expected) => {
        readsOrder(withStatus(pixOrder, status, charge));
        readsPayablesWhen(expected);
        expect((await h.adapter.getTransaction(h.ctx, pixOrder.id)).status).toBe(expected);
      });

      it.each(['status_nao_previsto', 'constructor'])(`an unknown status (%s) is ${statuses.unknown}, with a warning`, async (status) => {
        readsOrder(withStatus(pixOrder, status));
        expect((await h.adapter.getTransaction(h.ctx, pixOrder.id)).status).toBe(statuses.unknown);
        expect(h.warn).toHaveBeenCalledWith(expect.objectContaining({ provider: id, providerStatus: status, mappedTo: statuses.unknown }), expect.any(String));
      });

      it('rethrows an unknown order as NOT_FOUND with the provider message', async () => {
        h.fake.expect({ method: 'GET', path: '/orders/or_nope', reply: { status: 404, body: { message: 'Order not found' } } });
        expect(await failure(h.adapter.getTransaction(h.ctx, 'or_nope'))).toEqual({
          code: 'NOT_FOUND',
          message: `${FAILURE_PREFIXES.GET_TRANSACTION}: Order not found`,
        });
      });

      it('retries a read after a 5xx, then reports UNAVAILABLE', async () => {
        const reads = h.fake.expect({ method: 'GET', path: `/orders/${pixOrder.id}`, times: 3, reply: { status: 502, body: { message: 'Bad Gateway' } } });
        expect(await failure(h.adapter.getTransaction(h.ctx, pixOrder.id))).toEqual({
          code: 'UNAVAILABLE',
          message: `${FAILURE_PREFIXES.GET_TRANSACTION}: Bad Gateway`,
        });
        expect(reads.calls).toHaveLength(3);
      });
    });

    if (capabilities.refunds)
      describe('refoundTransaction: GET /orders/{id} for its charge, then DELETE /charges/{id} {amount}', () => {
        const cancels = (amount: number, reply: object) =>
          h.fake.expect({ method: 'DELETE', path: `/charges/${pixCharge.id}`, headers: { authorization }, body: { amount }, reply });

        it.each([
          ['the whole amount', REFUND_CENTS, answers.canceledCharge],
          ['part of it, the charge staying paid', PARTIAL_REFUND_CENTS, answers.partiallyRefundedCharge],
        ])('refunds %s', async (_label, amount, answer) => {
          h.fake.expect({ method: 'GET', path: `/orders/${pixOrder.id}`, headers: { authorization }, reply: { body: paidPixOrder } });
          cancels(amount, { body: answer });
          expect(await h.adapter.refoundTransaction(h.ctx, pixOrder.id, amount)).toEqual({ refundId: answer.last_transaction.id, status: true });
        });

        it.each(['error_on_refunding', 'error_on_voiding'])('reports a refund the provider refused (%s) as false', async (status) => {
          readsOrder(paidPixOrder);
          const notRefunded = { ...answers.partiallyRefundedCharge, last_transaction: { id: 'tran_ref3', status } };
          cancels(REFUND_CENTS, { body: notRefunded });
          expect(await h.adapter.refoundTransaction(h.ctx, pixOrder.id, REFUND_CENTS)).toEqual({ refundId: 'tran_ref3', status: false });
        });

        // A PIX refund is returned by the payer's bank later: Pagar.me answers the charge still paid, its last transaction
        // pending_refund. The provider took the refund: accepted and in progress (its cents stay reserved), never "not refunded".
        it.each([
          ['pending_refund (a PIX refund being returned)', 'pending_refund'],
          ['waiting_cancellation (a cancellation queued)', 'waiting_cancellation'],
          ['a transaction status the family does not know', 'refund_scheduled'],
          ['no transaction status at all', undefined],
        ])('reports a refund answered with %s as accepted and in progress', async (_label, status) => {
          readsOrder(paidPixOrder);
          cancels(PARTIAL_REFUND_CENTS, {
            body: { ...answers.partiallyRefundedCharge, last_transaction: { id: 'tran_ref4', transaction_type: 'pix', amount: PARTIAL_REFUND_CENTS, status } },
          });
          expect(await h.adapter.refoundTransaction(h.ctx, pixOrder.id, PARTIAL_REFUND_CENTS)).toEqual({ refundId: 'tran_ref4', status: true, pending: true });
        });

        it("carries an Idempotency-Key and operation_reference derived from the caller's key and the charge: the same on a retry, another for another key", async () => {
          const keyOf = async (callerKey: string) => {
            readsOrder(paidPixOrder);
            const cancel = h.fake.expect({
              method: 'DELETE',
              path: `/charges/${pixCharge.id}`,
              headers: { authorization, 'idempotency-key': /^refund-[0-9a-f]{64}$/ },
              body: partial({ amount: PARTIAL_REFUND_CENTS }),
              reply: { body: answers.partiallyRefundedCharge },
            });
            await h.adapter.refoundTransaction(h.ctx, pixOrder.id, PARTIAL_REFUND_CENTS, callerKey);
            const [call] = cancel.calls;
            const sent = call!.headers['idempotency-key'];
            expect(call!.body).toEqual({ amount: PARTIAL_REFUND_CENTS, operation_reference: sent });
            return sent;
          };
          const first = await keyOf('refund-caller-key-1');
          expect(await keyOf('refund-caller-key-1')).toBe(first);
          expect(await keyOf('refund-caller-key-2')).not.toBe(first);
          // Never the caller's key as it is: an order or a payout made with the same key would be answered instead.
          expect(first).not.toContain('refund-caller-key-1');
        });

        it('carries no Idempotency-Key when it is given none', async () => {
          readsOrder(paidPixOrder);
          h.fake.expect({
            method: 'DELETE',
            path: `/charges/${pixCharge.id}`,
            headers: { 'idempotency-key': absent },
            body: { amount: REFUND_CENTS },
            reply: { body: answers.canceledCharge },
          });
          await h.adapter.refoundTransaction(h.ctx, pixOrder.id, REFUND_CENTS);
        });

        it.each([
          [400, 'INVALID_ARGUMENT', 'Charge cannot be canceled: insufficient balance'],
          [500, 'UNAVAILABLE', 'Internal Server Error'],
        ])("a cancellation answered %i is %s with the provider's message, sent once", async (status, code, message) => {
          readsOrder(paidPixOrder);
          const cancel = cancels(REFUND_CENTS, { status, body: { message } });
          expect(await failure(h.adapter.refoundTransaction(h.ctx, pixOrder.id, REFUND_CENTS))).toEqual({
            code,
            message: `${FAILURE_PREFIXES.REFUND_TRANSACTION}: ${message}`,
          });
          expect(cancel.calls).toHaveLength(1);
        });

        it('reports a failed order read under the refund prefix, and cancels nothing', async () => {
          h.fake.expect({ method: 'GET', path: '/orders/or_nope', reply: { status: 404, body: { message: 'Order not found' } } });
          expect(await failure(h.adapter.refoundTransaction(h.ctx, 'or_nope', REFUND_CENTS))).toEqual({
            code: 'NOT_FOUND',
            message: `${FAILURE_PREFIXES.REFUND_TRANSACTION}: Order not found`,
          });
        });

        it('an order without a charge is UNAVAILABLE, and nothing is cancelled', async () => {
          readsOrder({ id: pixOrder.id, status: 'paid' });
          expect(await failure(h.adapter.refoundTransaction(h.ctx, pixOrder.id, REFUND_CENTS))).toEqual({
            code: 'UNAVAILABLE',
            message: `${FAILURE_PREFIXES.REFUND_TRANSACTION}: order ${pixOrder.id} came back without a charge`,
          });
        });
      });

    if (capabilities.withdrawMethods.length)
      describe('withdraw: POST /recipients/{id}/withdrawals {amount} from the recipient the member names', () => {
        const withdraws = (reply: object, headers: Record<string, unknown> = {}) =>
          h.fake.expect({
            method: 'POST',
            path: `/recipients/${recipient()}/withdrawals`,
            headers: { authorization, ...headers },
            body: { amount: WITHDRAWAL.amount },
            reply,
          });

        it.each(Object.entries(withdrawalStatuses.entries))('a withdrawal answered %s is %s', async (status, expected) => {
          const { withdrawal } = answers;
          withdraws({ body: { ...withdrawal, status } }, { 'idempotency-key': absent });
          expect(await h.adapter.withdraw(h.ctx, WITHDRAWAL)).toEqual({
            withdrawId: withdrawal.id,
            amount: withdrawal.amount,
            status: expected,
            approvedAt: expected === 'APPROVED' ? new Date(withdrawal.updated_at) : undefined,
          });
        });

        it(`an unknown withdrawal status is ${withdrawalStatuses.unknown}, with a warning`, async () => {
          withdraws({ body: { ...answers.withdrawal, status: 'on_hold' } });
          expect((await h.adapter.withdraw(h.ctx, WITHDRAWAL)).status).toBe(withdrawalStatuses.unknown);
          expect(h.warn).toHaveBeenCalledWith(expect.objectContaining({ provider: id, providerStatus: 'on_hold' }), expect.any(String));
        });

        it("sends the gateway's idempotency key as the Idempotency-Key header", async () => {
          withdraws({ body: answers.withdrawal }, { 'idempotency-key': 'payout-key-1' });
          await h.adapter.withdraw(h.ctx, { ...WITHDRAWAL, idempotencyKey: 'payout-key-1' });
        });

        it.each([
          ['a 412', 'INVALID_ARGUMENT', { status: 412, body: { message: 'Saldo insuficiente para saque' } }, 'Saldo insuficiente para saque'],
          ['nothing in time', 'UNAVAILABLE', { delayMs: LATE_MS, body: answers.withdrawal }, TIMEOUT_TEXT],
        ])("answered with %s is %s with the provider's message, sent once", async (_label, code, reply, message) => {
          const sent = withdraws(reply);
          expect(await failure(h.adapter.withdraw(h.ctx, WITHDRAWAL))).toEqual({ code, message: `${FAILURE_PREFIXES.WITHDRAW}: ${message}` });
          expect(sent.calls).toHaveLength(1);
        });

        it('refuses a withdrawal when no recipient is known, before calling', async () => {
          const adapter = new OrdersApiAdapter({ ...member, withdrawalRecipient: () => undefined }, { now: () => NOW, retry: false });
          expect(await failure(adapter.withdraw(h.ctx, WITHDRAWAL))).toMatchObject({
            code: 'INVALID_ARGUMENT',
            message: expect.stringMatching(/^withdraw\.receiver_id is required/),
          });
        });
      });

    describe('a 2xx answer that is not the resource is UNAVAILABLE, never a status or a success', () => {
      const answers2xx = (method: string, path: string) => (body: unknown) => void h.fake.expect({ method, path, reply: { body } });
      const customers = answers2xx('POST', '/customers');
      const readOrder = answers2xx('GET', `/orders/${pixOrder.id}`);
      const savingCard = () => h.adapter.createCardId(h.ctx, { cardToken: 'token_given', customer });
      const refunding = () => h.adapter.refoundTransaction(h.ctx, pixOrder.id, REFUND_CENTS);
      const saving = CATALOGUE.SAVE_CARD_FAILED.message;
      /** [the exchange answered with garbage, its operation and prefix, what the fake answers, the call]. */
      const exchanges: Array<[string, Operation, string, (body: unknown) => void, () => Promise<unknown>]> = [
        ['POST /tokens', 'createCardToken', FAILURE_PREFIXES.CREATE_CARD_TOKEN, answers2xx('POST', '/tokens'), () => h.adapter.createCardToken(h.ctx, card)],
        ['POST /customers', 'createCardId', saving, customers, savingCard],
        [
          'POST /customers/{id}/cards',
          'createCardId',
          saving,
          (body) => (customers(answers.customer), answers2xx('POST', `/customers/${answers.customer.id}/cards`)(body)),
          savingCard,
        ],
        [
          'POST /orders',
          'createTransaction',
          FAILURE_PREFIXES.CREATE_TRANSACTION,
          answers2xx('POST', '/orders'),
          () => h.adapter.createTransaction(h.ctx, transactionInput()),
        ],
        ['GET /orders/{id}', 'getTransaction', FAILURE_PREFIXES.GET_TRANSACTION, readOrder, () => h.adapter.getTransaction(h.ctx, pixOrder.id)],
        ['GET /orders/{id} before a refund', 'refoundTransaction', FAILURE_PREFIXES.REFUND_TRANSACTION, readOrder, refunding],
        [
          'DELETE /charges/{id}',
          'refoundTransaction',
          FAILURE_PREFIXES.REFUND_TRANSACTION,
          (body) => (readOrder(paidPixOrder), answers2xx('DELETE', `/charges/${pixCharge.id}`)(body)),
          refunding,
        ],
        [
          'POST /recipients/{id}/withdrawals',
          'withdraw',
          FAILURE_PREFIXES.WITHDRAW,
          (body) => answers2xx('POST', `/recipients/${recipient()}/withdrawals`)(body),
          () => h.adapter.withdraw(h.ctx, WITHDRAWAL),
        ],
      ];
      const offered = operationsOf(capabilities);
      const cases = exchanges
        .filter(([, operation]) => offered.includes(operation))
        .flatMap(([exchange, , prefix, answer, run]) => GARBAGE_2XX_BODIES.map(([what, body]) => [exchange, what, prefix, () => answer(body), run] as const));

      it.each(cases)('%s answered with %s', async (_exchange, _what, prefix, answer, run) => {
        answer();
        const { code, message } = await failure(run());
        expect([code, message.startsWith(`${prefix}: `)]).toEqual(['UNAVAILABLE', true]);
      });

      // Answers of the right shape with a field of the wrong type: the schema's one failure (naming the field), never a status, never INTERNAL.
      const pixLast = pixCharge.last_transaction;
      const wrongOrders: Array<[string, unknown, string]> = [
        ['a status that is a number', { ...pixOrder, status: 7 }, 'status'],
        ['an amount that is not cents', { ...pixOrder, amount: '19,90' }, 'amount'],
        ['an amount with decimals', { ...pixOrder, amount: 19.9 }, 'amount'],
        ['charges that are not a list', { ...pixOrder, charges: pixCharge.id }, 'charges'],
        ['a charge without an id', { ...pixOrder, charges: [{ ...pixCharge, id: undefined }] }, 'charges.0.id'],
        [
          'a PIX code that is not text',
          { ...pixOrder, charges: [{ ...pixCharge, last_transaction: { ...pixLast, qr_code: 42 } }] },
          'charges.0.last_transaction.qr_code',
        ],
      ];
      const wrongReads: Array<[string, Operation, string, () => Promise<unknown>]> = [
        ['POST /orders', 'createTransaction', FAILURE_PREFIXES.CREATE_TRANSACTION, () => h.adapter.createTransaction(h.ctx, transactionInput())],
        ['GET /orders/{id}', 'getTransaction', FAILURE_PREFIXES.GET_TRANSACTION, () => h.adapter.getTransaction(h.ctx, pixOrder.id)],
      ];
      it.each(
        wrongReads
          .filter(([, operation]) => offered.includes(operation))
          .flatMap(([exchange, , prefix, run]) => wrongOrders.map(([what, body, field]) => [exchange, what, prefix, body, field, run] as const)),
      )('%s answered with %s', async (exchange, _what, prefix, body, field, run) => {
        const [method, path] = exchange === 'POST /orders' ? ['POST', '/orders'] : ['GET', `/orders/${pixOrder.id}`];
        h.fake.expect({ method, path, reply: { body } });
        expect(await failure(run())).toEqual({
          code: 'UNAVAILABLE',
          message: expect.stringContaining(`${prefix}: resposta do provedor em formato inesperado (${field}`),
        });
      });

      if (offered.includes('refoundTransaction'))
        it.each<[string, unknown, string]>([
          ['a charge status that is a number', { ...answers.canceledCharge, status: 3 }, 'status'],
          [
            'a refund id that is an object',
            { ...answers.canceledCharge, last_transaction: { id: { value: 'tran' }, status: 'refunded' } },
            'last_transaction.id',
          ],
          [
            'a success flag that is text',
            { ...answers.canceledCharge, last_transaction: { id: 'tran_ref1', status: 'refunded', success: 'yes' } },
            'last_transaction.success',
          ],
        ])('DELETE /charges/{id} answered with %s: never "refunded" nor "not refunded"', async (_what, body, field) => {
          readsOrder(paidPixOrder);
          h.fake.expect({ method: 'DELETE', path: `/charges/${pixCharge.id}`, reply: { body } });
          expect(await failure(h.adapter.refoundTransaction(h.ctx, pixOrder.id, REFUND_CENTS))).toEqual({
            code: 'UNAVAILABLE',
            message: expect.stringContaining(`${FAILURE_PREFIXES.REFUND_TRANSACTION}: resposta do provedor em formato inesperado (${field}`),
          });
        });
    });

    if (capabilities.webhooks)
      describe('notifications: unsigned, read from the events table', () => {
        const event = (type: string, data: unknown, eventId = 'hook_RyEKQO789TRpZjv5') => ({
          id: eventId,
          account: { id: 'acc_1', name: 'Loja' },
          type,
          created_at: '2026-03-10T12:10:00',
          data,
        });
        const about = (status: TransactionStatus): WebhookResult => ({ type: 'TRANSACTION', transactionId: pixOrder.id, status });
        const cases: Array<[string, unknown, WebhookResult | undefined]> = Object.entries(ORDERS_API_EVENTS).flatMap(([type, rule]) => {
          const status = type.slice(type.indexOf('.') + 1).replace('payment_failed', 'failed');
          const data = (paid: boolean) =>
            rule.resource === 'order'
              ? withStatus(pixOrder, status, paid ? { paid_at: PAID_AT } : {})
              : { ...pixCharge, status, ...(paid ? { paid_at: PAID_AT } : {}), order: { id: pixOrder.id } };
          if (rule.status !== 'FROM_RESOURCE') return [[`${type} (${rule.resource})`, event(type, data(true)), about(rule.status)]];
          return [
            [`${type} after a payment (${rule.resource})`, event(type, data(true)), about(mapped(status, true))],
            [`${type} never paid (${rule.resource})`, event(type, data(false)), about(mapped(status, false))],
          ];
        });
        const ignored = ['order.created', 'order.updated', 'order.closed', 'charge.created', 'charge.pending', 'charge.processing', 'charge.underpaid'];
        for (const type of [...ignored, 'charge.partial_canceled', 'customer.created', 'toString'].filter((type) => !Object.hasOwn(ORDERS_API_EVENTS, type)))
          cases.push([`${type}: not in the table, ignored`, event(type, withStatus(pixOrder, 'paid', { paid_at: PAID_AT })), undefined]);
        const unreadable: Array<[string, unknown]> = [
          ['not JSON', 'not json'],
          ['empty', ''],
          ['null', 'null'],
          ['an array', '[]'],
          ['XML', '<xml/>'],
          ['without data', { type: 'order.paid' }],
          ['an order without an id', event('order.paid', { status: 'paid' })],
          ['a charge without its order', event('charge.paid', { id: pixCharge.id, status: 'paid' })],
          ["a charge whose order's id is not a string", event('charge.paid', { id: pixCharge.id, status: 'paid', order: { id: 42 } })],
        ];
        for (const [label, body] of unreadable) cases.push([`a body that cannot be read or names no order: ${label}`, body, undefined]);

        cases.push(
          ['order.paid whose event id is a number', { ...event('order.paid', paidPixOrder), id: 42 }, about('APPROVED')],
          [
            'order.canceled with a paid_amount that is no amount (read as never paid)',
            event('order.canceled', withStatus(pixOrder, 'canceled', { paid_amount: 'muito' })),
            about(mapped('canceled', false)),
          ],
        );

        it.each(cases)('%s', async (_label, body, expected) => {
          await expect(h.adapter.processWebhook(h.ctx, notification(body))).resolves.toEqual(expected);
        });

        it("keys a delivery by the event id (the same on every re-delivery), else by the body's hash; never signed", () => {
          const key = (body: unknown) => h.adapter.notificationKey(h.ctx, notification(body));
          const paid = event('order.paid', paidPixOrder);
          expect(h.adapter.verifyNotification(h.ctx, notification(paid))).toBe('unsigned');
          expect(key(paid)).toBe('event:hook_RyEKQO789TRpZjv5');
          expect(key({ ...paid, created_at: '2026-03-10T12:15:00' })).toBe(key(paid));
          expect(key(event('order.paid', paidPixOrder, 'hook_other'))).toBe('event:hook_other');
          expect(key({ type: 'order.paid', data: paidPixOrder })).toMatch(/^sha256:[0-9a-f]{64}$/);
          // An id that is not text is no event id: keyed by the body, and the notification still read.
          expect(key({ ...paid, id: 42 })).toMatch(/^sha256:[0-9a-f]{64}$/);
          expect(key('garbage')).toMatch(/^sha256:[0-9a-f]{64}$/);
        });
      });
  });

  return h;
}
