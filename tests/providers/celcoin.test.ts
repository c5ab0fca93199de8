import { describe, expect, it } from '@jest/globals';
import { MASKED_SECRET } from '../../server/providers/kit/bodySecrets.js';
import {
  CELCOIN,
  CELCOIN_QUERY_LIMIT,
  CELCOIN_STATUSES,
  CelcoinAdapter,
  cardMyId,
  celcashCharge,
  chargeRequest,
  customerMyId,
  fromCharge,
  toChargeRequest,
} from '../../server/providers/celcoin/adapter.js';
import { FAILURE_PREFIXES } from '../../server/lib/providerMessages.js';
import { lookupStatus } from '../../server/lib/statusTable.js';
import { BODIES_WITHOUT_RESOURCE, GARBAGE_2XX_BODIES } from '../support/fakeProvider.js';
import { NOW, expectUnsupportedOperationsRejected, failure, notification, providerHarness, transactionInput } from './conformance/harness.js';
import { expectBodiesOf } from './requestSchemas.js';

const GALAX_ID = '5473';
const GALAX_HASH = '83Mw5u8988Qj6fZqS4Z8K7LzOo1j28S706R0BeFe';
const BEARER = { authorization: 'Bearer celcash-token' };
const PIX_CODE =
  '00020126580014br.gov.bcb.pix0136a629532e-7693-4846-852d-1bbff817b5a85204000053039865406159.905802BR5907CELCASH6009SAO PAULO62070503***6304CAFE';
const FIVE_DAYS_LATER = new Date(NOW.getTime() + 5 * 86_400_000);
/** NOW is 2025-03-10 09:00 in São Paulo: the pay-by date is five days on. */
const PAYDAY = '2025-03-15';
/** Ana's customer at Cel_Cash: a UUID myId derived from her document (the SDK's customer myId is a UUID). */
const ANA_MY_ID = customerMyId('12345678909');
const CUSTOMER = { myId: ANA_MY_ID, name: 'Ana Souza', document: '12345678909', emails: ['ana@example.com'], phones: [11987654321] };
const CARD_MY_ID = '15935a54-5638-4c6f-a599-57e03bc799ff';
/** A card as the gateway's card token opens it: grouped digits, a one-digit month, a two-digit year. */
const OPENED_CARD = { cardNumber: '4111 1111 1111 1111', holderName: 'ANA SOUZA', holderDocument: '', expMonth: '3', expYear: '31', cvv: '123' };

const [CREATE, GET] = [FAILURE_PREFIXES.CREATE_TRANSACTION, FAILURE_PREFIXES.GET_TRANSACTION];
/** The call fails with this code and text. */
const fails = async (call: Promise<unknown>, code: string, message: string) => expect(await failure(call)).toEqual({ code, message });

/** A charge as Cel_Cash answers it (research: SDK Pyxlab/celcash, schemas/charges.ts). */
const charge = (method: 'pix' | 'boleto' | 'creditcard', transaction: Record<string, unknown>, status = 'active') => ({
  galaxPayId: 101,
  myId: 'idem-1',
  value: 1990,
  status,
  mainPaymentMethodId: method,
  Transactions: [{ galaxPayId: 201, value: 1990, ...transaction }],
});

describe('CELCOIN (spec doc 2, group 2): the Cel_Cash (ex-Galax Pay) API, a bespoke adapter', () => {
  const h = providerHarness({ create: (runtime) => new CelcoinAdapter(CELCOIN, runtime), account: () => ({ publicKey: GALAX_ID, secretKey: GALAX_HASH }) });
  /** POST /token with scopes (§7): Basic base64(galaxId:galaxHash), a JSON body (research); one per test's account. */
  const withToken = () =>
    h.fake.expect({
      method: 'POST',
      path: '/token',
      headers: { authorization: `Basic ${Buffer.from(`${GALAX_ID}:${GALAX_HASH}`).toString('base64')}`, 'content-type': /^application\/json/ },
      body: { grant_type: 'authorization_code', scope: 'charges.read charges.write' },
      reply: { body: { access_token: 'celcash-token', token_type: 'Bearer', expires_in: 600, scope: 'charges.read charges.write' } },
    });
  const listed = (galaxPayIds: string, body: unknown) =>
    h.fake.expect({ method: 'GET', path: '/charges', headers: BEARER, query: { galaxPayIds, startAt: '0', limit: '10' }, reply: { body } });

  it('offers PIX, boleto and card charges and their notifications; refunds and the rest reject with the spec text (§8)', async () => {
    expect(h.adapter.operations).toEqual(['createTransaction', 'getTransaction', 'processWebhook']);
    await expectUnsupportedOperationsRejected(h.adapter, h.ctx, h.fake);
    await expect(h.adapter.refoundTransaction(h.ctx, '101', 1990)).rejects.toMatchObject({ code: 'UNIMPLEMENTED', message: 'Method not implemented.' });
  });

  it('keeps the spec constants: 5-day pay-by date and PIX deadline, boleto 5 days, query limit 10 (§9)', () => {
    expect(CELCOIN.expiry).toEqual({ pixSeconds: 5 * 86_400, boletoSeconds: 5 * 86_400 });
    expect(CELCOIN_QUERY_LIMIT).toBe(10);
    expect([CELCOIN.money, CELCOIN.identity.defaultBaseUrl]).toEqual(['cents', 'https://api.galaxpay.com.br/v2']);
  });

  it("builds bodies of its request schema (the adapter's wire section)", () => {
    const terms = { myId: 'idem-1', payday: '2025-03-15', pixDeadlineDays: 5 };
    expectBodiesOf(chargeRequest, [
      toChargeRequest(transactionInput(), terms),
      toChargeRequest(
        transactionInput({
          paymentMethod: 'BILLET',
          orderId: undefined,
          customer: { name: 'ACME', email: 'a@b.c', document: '11.222.333/0001-81', phone: '' },
        }),
        terms,
      ),
      toChargeRequest(transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: '77', installments: 3 }), terms),
      toChargeRequest(transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: '123e4567-e89b-42d3-a456-426614174000' }), terms),
      toChargeRequest(transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'gct_v1.sealed', card: OPENED_CARD }), terms),
    ]);
  });

  it("sends a card opened from the gateway's card token by its own fields, under a new card's myId named after the charge's", () => {
    expect(h.adapter.takesCardData(h.ctx)).toBe(true);
    const terms = { myId: 'idem-1', payday: '2025-03-15', pixDeadlineDays: 5 };
    const body = toChargeRequest(transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'gct_v1.sealed', card: OPENED_CARD, installments: 2 }), terms);
    expect(body.PaymentMethodCreditCard).toEqual({
      Card: { myId: cardMyId('idem-1'), number: '4111111111111111', holder: 'ANA SOUZA', expiresAt: '2031-03', cvv: '123' },
      qtdInstallments: 2,
    });
    // The same charge names the same card on a retry; another charge another card, and never a customer's myId.
    expect(cardMyId('idem-1')).toBe(cardMyId('idem-1'));
    expect(new Set([cardMyId('idem-1'), cardMyId('idem-2'), customerMyId('idem-1')]).size).toBe(3);
  });

  it('takes its token, then creates a PIX charge by POST /charges in cents with payday and a 5-day PIX deadline', async () => {
    const token = withToken();
    h.fake.expect({
      method: 'POST',
      path: '/charges',
      headers: BEARER,
      body: {
        myId: 'idem-1',
        value: 1990,
        payday: PAYDAY,
        additionalInfo: 'order-77',
        mainPaymentMethodId: 'pix',
        Customer: CUSTOMER,
        PaymentMethodPix: { Deadline: { type: 'days', value: 5 } },
      },
      reply: {
        body: {
          type: true,
          Charge: charge('pix', { status: 'pendingPix', Pix: { qrCode: PIX_CODE, reference: 'ref', image: 'https://x/qr.png', page: 'https://x' } }),
        },
      },
    });
    listed('101', { totalQtdFoundInPage: 1, Charges: [charge('pix', { status: 'payedPix' }, 'closed')] });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ idempotencyKey: 'idem-1' }))).toEqual({
      paymentMethod: 'PIX',
      transactionId: '101',
      status: 'PENDING',
      amount: 1990,
      pixCode: PIX_CODE,
      expiresAt: FIVE_DAYS_LATER,
    });
    expect(await h.adapter.getTransaction(h.ctx, '101')).toMatchObject({ transactionId: '101', status: 'APPROVED', amount: 1990 });
    expect(token.calls).toHaveLength(1);
  });

  it('creates a boleto payable for 5 days, answered with its digitable line and PDF; a fresh myId without an idempotency key', async () => {
    withToken();
    const create = h.fake.expect({
      method: 'POST',
      path: '/charges',
      body: (body) => {
        const sent = body as Record<string, unknown>;
        return (
          sent.mainPaymentMethodId === 'boleto' &&
          sent.payday === PAYDAY &&
          !('PaymentMethodPix' in sent) &&
          JSON.stringify(sent.Customer) === JSON.stringify(CUSTOMER)
        );
      },
      reply: {
        body: {
          type: true,
          Charge: charge('boleto', {
            status: 'pendingBoleto',
            Boleto: { pdf: 'https://x/boleto.pdf', bankLine: '23793.38128 60000.000003 00000.000400 1 84340000001990', barCode: '2379' },
          }),
        },
      },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'BILLET' }))).toEqual({
      paymentMethod: 'BILLET',
      transactionId: '101',
      status: 'PENDING',
      amount: 1990,
      billetCode: '23793.38128 60000.000003 00000.000400 1 84340000001990',
      billetUrl: 'https://x/boleto.pdf',
      expiresAt: FIVE_DAYS_LATER,
    });
    expect((create.calls[0]!.body as { myId: string }).myId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('charges a saved card and captures it by PUT /charges/{id}/galaxPayId/capture when Cel_Cash only authorized it', async () => {
    withToken();
    h.fake.expect({
      method: 'POST',
      path: '/charges',
      body: (body) => {
        const sent = body as { mainPaymentMethodId: string; PaymentMethodCreditCard?: unknown };
        return sent.mainPaymentMethodId === 'creditcard' && JSON.stringify(sent.PaymentMethodCreditCard) === '{"Card":{"galaxPayId":77},"qtdInstallments":3}';
      },
      reply: { body: { type: true, Charge: charge('creditcard', { status: 'authorized' }) } },
    });
    const capture = h.fake.expect({
      method: 'PUT',
      path: '/charges/101/galaxPayId/capture',
      headers: BEARER,
      body: {},
      // The SDK shows the capture answered with the bare charge.
      reply: { body: charge('creditcard', { status: 'captured' }) },
    });
    const card = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: '77', installments: 3 });
    expect(await h.adapter.createTransaction(h.ctx, card)).toEqual({ paymentMethod: 'CREDIT_CARD', transactionId: '101', status: 'APPROVED', amount: 1990 });
    expect(capture.calls).toHaveLength(1);
  });

  it('sends no capture for a card already captured or denied; a card needs a card id', async () => {
    withToken();
    h.fake.expect({
      method: 'POST',
      path: '/charges',
      body: (body) =>
        JSON.stringify((body as { PaymentMethodCreditCard?: unknown }).PaymentMethodCreditCard) === `{"Card":{"myId":"${CARD_MY_ID}"},"qtdInstallments":1}`,
      reply: { body: { type: true, Charge: charge('creditcard', { status: 'denied' }) } },
    });
    const card = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: CARD_MY_ID });
    expect(await h.adapter.createTransaction(h.ctx, card)).toMatchObject({ status: 'REJECTED' });
    await fails(h.adapter.createTransaction(h.ctx, { ...card, cardId: undefined }), 'INVALID_ARGUMENT', 'cardId is required for credit card transactions');
  });

  it("keeps a denied card's reason: AbecsReasonDenied.code, else reasonDenied, else the ABECS message (the SDK's transactionsSchema), and its text; none where the card was not denied", () => {
    const read = (transaction: Record<string, unknown>, method: 'creditcard' | 'pix' = 'creditcard') =>
      fromCharge(celcashCharge.parse(charge(method, transaction)), { status: (value) => lookupStatus(CELCOIN_STATUSES, value), amount: Number });
    const abecs = { code: '0051', message: 'SALDO/LIMITE INSUFICIENTE' };
    expect(read({ status: 'denied', reasonDenied: 'Transação não autorizada', AbecsReasonDenied: abecs })).toMatchObject({
      declineReason: '0051',
      declineMessage: 'SALDO/LIMITE INSUFICIENTE',
    });
    expect(read({ status: 'denied', reasonDenied: 'Transação não autorizada', AbecsReasonDenied: null })).toMatchObject({
      declineReason: 'Transação não autorizada',
      declineMessage: 'Transação não autorizada',
    });
    expect(read({ status: 'denied', reasonDenied: 'Transação não autorizada', AbecsReasonDenied: { code: '0005', message: '' } })).toMatchObject({
      declineReason: '0005',
      declineMessage: 'Transação não autorizada',
    });
    expect(read({ status: 'denied', reasonDenied: '', AbecsReasonDenied: { code: '', message: 'NAO AUTORIZADA' } })).toMatchObject({
      declineReason: 'NAO AUTORIZADA',
      declineMessage: 'NAO AUTORIZADA',
    });
    expect(read({ status: 'denied' })).not.toHaveProperty('declineReason');
    expect(read({ status: 'denied' })).not.toHaveProperty('declineMessage');
    expect(read({ status: 'captured', reasonDenied: 'x', AbecsReasonDenied: abecs })).not.toHaveProperty('declineReason');
    expect(read({ status: 'captured', reasonDenied: 'x', AbecsReasonDenied: abecs })).not.toHaveProperty('declineMessage');
    expect(read({ status: 'unavailablePix', reasonDenied: 'x' }, 'pix')).not.toHaveProperty('declineReason');
  });

  it.each(Object.entries(CELCOIN_STATUSES.entries))('reads GET /charges?galaxPayIds&startAt&limit=10: %s → %s (research)', async (status, expected) => {
    withToken();
    const chargeStatuses = ['active', 'waitingpayment', 'closed', 'canceled', 'inactive'];
    const answer = chargeStatuses.includes(status) ? { ...charge('pix', {}, status), Transactions: [] } : charge('pix', { status });
    listed('101', { totalQtdFoundInPage: 1, Charges: [answer] });
    expect(await h.adapter.getTransaction(h.ctx, '101')).toMatchObject({ transactionId: '101', status: expected, amount: 1990 });
  });

  it('maps the common pattern as doc 2 §4 says (authorized PENDING) and an unknown status to REJECTED, with a warning', async () => {
    expect(CELCOIN_STATUSES.unknown).toBe('REJECTED');
    withToken();
    listed('101', { totalQtdFoundInPage: 1, Charges: [charge('pix', { status: 'somethingNew' })] });
    expect(await h.adapter.getTransaction(h.ctx, '101')).toMatchObject({ status: 'REJECTED' });
    expect(h.warn).toHaveBeenCalledWith(
      expect.objectContaining({ provider: 'CELCOIN', providerStatus: 'somethingNew' }),
      'unknown provider transaction status',
    );
  });

  it('a well-formed list without the charge is NOT_FOUND; a 4xx keeps the message under the prefix', async () => {
    withToken();
    listed('404', { totalQtdFoundInPage: 0, Charges: [] });
    h.fake.expect({ method: 'POST', path: '/charges', reply: { status: 400, body: { error: { message: 'payday inválido', details: {} } } } });
    await fails(h.adapter.getTransaction(h.ctx, '404'), 'NOT_FOUND', 'Erro ao buscar transação: cobrança 404 não encontrada');
    await fails(h.adapter.createTransaction(h.ctx, transactionInput()), 'INVALID_ARGUMENT', 'Erro ao criar transação: payday inválido');
  });

  it.each(GARBAGE_2XX_BODIES)('a 2xx answer that is %s is UNAVAILABLE under the prefix, never a status', async (_label, body) => {
    withToken();
    listed('101', body);
    h.fake.expect({ method: 'POST', path: '/charges', reply: { body } });
    const read = await failure(h.adapter.getTransaction(h.ctx, '101'));
    expect([read.code, read.message.startsWith(`${GET}: `)]).toEqual(['UNAVAILABLE', true]);
    const created = await failure(h.adapter.createTransaction(h.ctx, transactionInput()));
    expect([created.code, created.message.startsWith(`${CREATE}: `)]).toEqual(['UNAVAILABLE', true]);
  });

  it.each(BODIES_WITHOUT_RESOURCE)('a listed charge or a capture that is %s is UNAVAILABLE too', async (_label, body) => {
    withToken();
    listed('101', { totalQtdFoundInPage: 1, Charges: [{ galaxPayId: 101, ...(typeof body === 'object' ? body : {}) }] });
    h.fake.expect({ method: 'POST', path: '/charges', reply: { body: { type: true, Charge: charge('creditcard', { status: 'authorized' }) } } });
    h.fake.expect({ method: 'PUT', path: '/charges/101/galaxPayId/capture', reply: { body } });
    expect((await failure(h.adapter.getTransaction(h.ctx, '101'))).code).toBe('UNAVAILABLE');
    const card = transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: '77' });
    expect((await failure(h.adapter.createTransaction(h.ctx, card))).code).toBe('UNAVAILABLE');
  });

  it('a PIX charge without its QR code is UNAVAILABLE: nobody could pay it', async () => {
    withToken();
    h.fake.expect({ method: 'POST', path: '/charges', reply: { body: { type: true, Charge: charge('pix', { status: 'pendingPix' }) } } });
    await fails(h.adapter.createTransaction(h.ctx, transactionInput()), 'UNAVAILABLE', `${CREATE}: resposta do provedor sem o QR Code do PIX`);
  });

  describe("the charge's Customer, as Cel_Cash's SDK takes it, checked before anything is sent", () => {
    it.each([
      ["no customer (the SDK's `Customer` is required)", { customer: undefined }, 'transaction.customer is required for CELCOIN charges'],
      ['a blank name', { name: ' ' }, 'transaction.customer.name is required for CELCOIN charges'],
      ['a document of 10 digits', { document: '1234567890' }, 'transaction.customer.document must have 11 to 14 digits (CPF or CNPJ) for CELCOIN charges'],
      ['no email (a new customer needs `emails`)', { email: '' }, 'transaction.customer.email is required for CELCOIN charges'],
    ])('%s is INVALID_ARGUMENT', async (_label, change, message) => {
      const base = transactionInput();
      const input = 'customer' in change ? { ...base, customer: undefined } : { ...base, customer: { ...base.customer!, ...change } };
      await fails(h.adapter.createTransaction(h.ctx, input), 'INVALID_ARGUMENT', message);
      expect(h.fake.received).toHaveLength(0);
    });

    it("names the customer by a UUID (the SDK's customer myId is one), the same for the same document, whatever its mask", () => {
      expect(ANA_MY_ID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(customerMyId('12345678909')).toBe(ANA_MY_ID);
      expect(customerMyId('52998224725')).not.toBe(ANA_MY_ID);
    });

    it("a card id that is neither a galaxPayId (digits) nor a myId (a UUID, the SDK's card myId) is INVALID_ARGUMENT", async () => {
      await fails(
        h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'card-ana' })),
        'INVALID_ARGUMENT',
        "transaction.card_id must be a Cel_Cash card's galaxPayId (digits) or myId (a UUID) for CELCOIN charges",
      );
      expect(h.fake.received).toHaveLength(0);
    });
  });

  describe('answers read by schema: a bad one is UNAVAILABLE, never a status and never INTERNAL', () => {
    it.each([
      ['a status of the wrong type', { ...charge('pix', {}), status: 5, Transactions: [] }],
      ['an amount in reais where cents are due', { ...charge('pix', { status: 'payedPix' }), value: 19.9 }],
      ['an unknown payment method', { ...charge('pix', { status: 'payedPix' }), mainPaymentMethodId: 'crypto' }],
      ['no galaxPayId', { ...charge('pix', { status: 'payedPix' }), galaxPayId: undefined }],
    ])('a listed charge with %s', async (_label, listedCharge) => {
      withToken();
      listed('101', { totalQtdFoundInPage: 1, Charges: [listedCharge] });
      expect(await failure(h.adapter.getTransaction(h.ctx, '101'))).toMatchObject({
        code: 'UNAVAILABLE',
        message: expect.stringMatching(/^Erro ao buscar transação: /),
      });
    });

    it("a creation answered `type: false` keeps Cel_Cash's message, UNAVAILABLE (what it did is not known)", async () => {
      withToken();
      h.fake.expect({ method: 'POST', path: '/charges', reply: { body: { type: false, error: { message: 'Limite de cobranças excedido' } } } });
      await fails(h.adapter.createTransaction(h.ctx, transactionInput()), 'UNAVAILABLE', `${CREATE}: Limite de cobranças excedido`);
    });
  });

  describe('notifications {event, webhookId, confirmHash, Transaction} (research)', () => {
    const event = (extra: Record<string, unknown> = {}) => ({
      event: 'transaction.updateStatus',
      webhookId: 9,
      confirmHash: 'hash-of-the-account',
      Transaction: { galaxPayId: 201, chargeGalaxPayId: 101, status: 'payedPix', value: 1990 },
      ...extra,
    });

    it('reads transaction.updateStatus for its charge through the table; ignores other events and what it cannot parse', async () => {
      await expect(h.adapter.processWebhook(h.ctx, notification(event()))).resolves.toEqual({ type: 'TRANSACTION', transactionId: '101', status: 'APPROVED' });
      const ignored = [
        event({ event: 'subscription.addTransaction' }),
        event({ Transaction: { galaxPayId: 202, subscriptionGalaxPayId: 5, status: 'payedPix' } }),
        event({ Transaction: { galaxPayId: 201, chargeGalaxPayId: 101 } }),
        '{not json',
        [event()],
      ];
      for (const body of ignored) await expect(h.adapter.processWebhook(h.ctx, notification(body))).resolves.toBeUndefined();
      expect(h.adapter.notificationKey(h.ctx, notification(event()))).toBe('charge:101/201:payedpix');
      expect(h.adapter.notificationKey(h.ctx, notification('{not json'))).toMatch(/^sha256:/);
    });

    it("checks confirmHash against the account's webhook secret: valid, invalid, or unsigned without a secret", () => {
      const signed = { ...h.ctx, webhookSecret: 'hash-of-the-account' };
      expect(h.adapter.verifyNotification(h.ctx, notification(event()))).toBe('unsigned');
      expect(h.adapter.verifyNotification(signed, notification(event()))).toBe('valid');
      expect(h.adapter.verifyNotification(signed, notification(event({ confirmHash: 'hash-of-the-accounT' })))).toBe('invalid');
      expect(h.adapter.verifyNotification(signed, notification(event({ confirmHash: 'hash' })))).toBe('invalid');
      expect(h.adapter.verifyNotification(signed, notification(event({ confirmHash: undefined })))).toBe('invalid');
      expect(h.adapter.verifyNotification(signed, notification('{not json'))).toBe('invalid');
    });

    it('stores a notification with its confirmHash masked, every other field kept; a masked one checked again is unsigned (intake kept the proof)', () => {
      const stored = h.adapter.storableBody(Buffer.from(JSON.stringify(event())));
      expect(stored.toString()).not.toContain('hash-of-the-account');
      expect(JSON.parse(stored.toString())).toEqual(event({ confirmHash: MASKED_SECRET }));
      expect(h.adapter.verifyNotification({ ...h.ctx, webhookSecret: 'hash-of-the-account' }, { headers: {}, body: stored })).toBe('unsigned');
    });
  });
});
