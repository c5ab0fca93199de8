import { describe, expect, it } from '@jest/globals';
import {
  ORDERS_API_EVENTS,
  ORDERS_API_NEVER_PAID,
  ORDERS_API_REFUND_OUTCOMES,
  ORDERS_API_STATUSES,
  ORDERS_API_WITHDRAWAL_STATUSES,
  fromOrdersApiOrder,
  fromOrdersApiRefund,
  isOrdersApiCardToken,
  orderStatus,
  ordersApiChargeFee,
  ordersApiError,
  ordersApiFailureReason,
  ordersApiFieldErrors,
  ordersApiRefundKey,
  ordersApiStatus,
  toOrdersApiCardToken,
  toOrdersApiCustomer,
  toOrdersApiItems,
  toOrdersApiOrder,
  type OrdersApiOrder,
  type OrdersApiStatusReader,
} from '../../server/providers/families/ordersApi/index.js';
import { ProviderCallError } from '../../server/lib/http/index.js';
import { OrdersApiAdapter } from '../../server/providers/families/ordersApi/index.js';
import { PAGARMEBAAS } from '../../server/providers/members/pagarmebaas.js';
import { pixCodeOnly } from '../../server/lib/pixQrCode.js';
import { declaredStatusTable, lookupStatus } from '../../server/lib/statusTable.js';
import { bareTransactionInput } from './conformance/harness.js';

/** The family's pure parts, without HTTP: status tables, mappers and notification parsing. */

const NOW = new Date('2026-03-10T12:00:00.000Z');
const OPTIONS = { pixExpiresInSeconds: 86_400, boletoSeconds: 5 * 86_400, now: NOW };
const READER: OrdersApiStatusReader = { status: (value) => lookupStatus(ORDERS_API_STATUSES, value), neverPaid: ORDERS_API_NEVER_PAID };

const input = bareTransactionInput;

const order = (status: string, charge: Record<string, unknown> = {}): OrdersApiOrder => ({
  id: 'or_1',
  status,
  amount: 1990,
  charges: [{ id: 'ch_1', status, payment_method: 'pix', ...charge }],
});

describe('the family tables (the suite runs every entry through the adapter)', () => {
  it('maps order and charge statuses; unknown REJECTED; a never-paid charge canceled is CANCELED', () => {
    expect(ORDERS_API_STATUSES).toEqual({
      entries: {
        paid: 'APPROVED',
        overpaid: 'APPROVED',
        partial_canceled: 'APPROVED',
        pending: 'PENDING',
        processing: 'PENDING',
        underpaid: 'PENDING',
        waiting: 'PENDING',
        waiting_payment: 'PENDING',
        authorized: 'PENDING',
        canceled: 'REFUNDED',
        refunded: 'REFUNDED',
        chargedback: 'CHARGEBACK',
        failed: 'REJECTED',
      },
      unknown: 'REJECTED',
    });
    expect(ORDERS_API_NEVER_PAID).toEqual({ canceled: 'CANCELED' });
  });

  it('maps withdrawals: pending at creation, transferred APPROVED, canceled CANCELED, the rest REJECTED', () => {
    expect(ORDERS_API_WITHDRAWAL_STATUSES).toEqual({
      entries: {
        pending: 'PENDING',
        processing: 'PENDING',
        created: 'PENDING',
        transferred: 'APPROVED',
        paid: 'APPROVED',
        canceled: 'CANCELED',
        failed: 'REJECTED',
      },
      unknown: 'REJECTED',
    });
  });

  it('acts on exactly these events', () => {
    expect(ORDERS_API_EVENTS).toEqual({
      'order.paid': { resource: 'order', status: 'APPROVED' },
      'order.payment_failed': { resource: 'order', status: 'REJECTED' },
      'order.canceled': { resource: 'order', status: 'FROM_RESOURCE' },
      'charge.paid': { resource: 'charge', status: 'APPROVED' },
      'charge.overpaid': { resource: 'charge', status: 'APPROVED' },
      'charge.payment_failed': { resource: 'charge', status: 'REJECTED' },
      'charge.refunded': { resource: 'charge', status: 'REFUNDED' },
      'charge.chargedback': { resource: 'charge', status: 'CHARGEBACK' },
    });
  });
});

describe('statuses', () => {
  it('reads statuses case-insensitively', () => {
    expect(ordersApiStatus({ status: 'PAID' }, READER)).toBe('APPROVED');
  });

  it("takes a member's exceptions over the family's table", () => {
    const table = declaredStatusTable(ORDERS_API_STATUSES, { overrides: { chargedback: 'REFUNDED' }, unknown: 'PENDING' });
    const reader = { ...READER, status: (value: unknown) => lookupStatus(table, value) };
    expect(ordersApiStatus({ status: 'chargedback' }, reader)).toBe('REFUNDED');
    expect(ordersApiStatus({ status: 'something_new' }, reader)).toBe('PENDING');
  });

  it("reads an order's status from its charge, which is finer than the order's, else from the order", () => {
    expect(orderStatus({ id: 'or_1', status: 'paid', charges: [{ id: 'ch_1', status: 'chargedback', paid_at: '2026-03-10T12:01:00Z' }] }, READER)).toBe(
      'CHARGEBACK',
    );
    expect(orderStatus({ id: 'or_1', status: 'canceled' }, READER)).toBe('CANCELED');
    expect(orderStatus({ id: 'or_1', status: 'pending' }, READER)).toBe('PENDING');
  });
});

describe('request mappers', () => {
  const customer = { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '+55 (11) 98765-4321' };

  // A CPF customer with a phone is in the conformance suite's bodies; here the other shapes.
  it('maps a CNPJ customer as a company, a phone given with +55, and an address as line_1 "number, street, district"', () => {
    expect(toOrdersApiCustomer({ ...customer, document: '11.222.333/0001-81', phone: '' })).toMatchObject({
      document: '11222333000181',
      document_type: 'CNPJ',
      type: 'company',
      phones: undefined,
    });
    expect(toOrdersApiCustomer(customer).phones).toEqual({ mobile_phone: { country_code: '55', area_code: '11', number: '987654321' } });
    expect(
      toOrdersApiCustomer(customer, { zipCode: '01310-100', address: 'Av. Paulista', number: '1000', district: 'Bela Vista', city: 'São Paulo', state: 'SP' })
        .address,
    ).toEqual({
      line_1: '1000, Av. Paulista, Bela Vista',
      zip_code: '01310100',
      city: 'São Paulo',
      state: 'SP',
      country: 'BR',
    });
  });

  it('maps items, or makes one item of the whole amount when there are none', () => {
    expect(toOrdersApiItems(input({ items: [{ id: 'sku-1', title: 'Curso', unitPrice: 995, quantity: 2, tangible: false }] }))).toEqual([
      { amount: 995, description: 'Curso', quantity: 2, code: 'sku-1' },
    ]);
    expect(toOrdersApiItems(input({ description: 'Pedido 42', orderId: 'ord-42' }))).toEqual([
      { amount: 1990, description: 'Pedido 42', quantity: 1, code: 'ord-42' },
    ]);
    expect(toOrdersApiItems(input())).toEqual([{ amount: 1990, description: 'Pagamento', quantity: 1, code: '1' }]);
  });

  it('sends the order envelope: code, closed, ip, metadata, the customer, no split when there is none', () => {
    const body = toOrdersApiOrder(input({ orderId: 'ord-1', customer, customerIp: '10.0.0.1', userId: 'u-1' }), OPTIONS);
    expect(body).toMatchObject({
      code: 'ord-1',
      closed: true,
      ip: '10.0.0.1',
      metadata: { user_id: 'u-1' },
      payments: [{ payment_method: 'pix', amount: 1990, pix: { expires_in: 86_400 } }],
    });
    expect(body.customer).toMatchObject({ document: '12345678909' });
    expect(body.payments[0]).not.toHaveProperty('split', expect.anything());
  });

  it('charges a saved card by card_id, a token by card_token with the billing address', () => {
    const card = toOrdersApiOrder(input({ paymentMethod: 'CREDIT_CARD', cardId: 'card_abc', installments: 3, description: 'Loja São João!' }), OPTIONS);
    expect(card.payments[0]).toEqual({
      payment_method: 'credit_card',
      amount: 1990,
      split: undefined,
      credit_card: { installments: 3, statement_descriptor: 'LojaSaoJoao', card_id: 'card_abc' },
    });
    const address = { zipCode: '01310100', address: 'Av. Paulista', number: '1000', district: 'Bela Vista', city: 'São Paulo', state: 'SP' };
    const token = toOrdersApiOrder(input({ paymentMethod: 'CREDIT_CARD', cardId: 'token_xyz', address }), OPTIONS);
    expect(token.payments[0]).toMatchObject({
      credit_card: { card_token: 'token_xyz', card: { billing_address: { line_1: '1000, Av. Paulista, Bela Vista', country: 'BR' } } },
    });
    expect((token.payments[0] as { credit_card: { statement_descriptor: string } }).credit_card.statement_descriptor).toMatch(/^[A-Z0-9]{13}$/);
    expect(isOrdersApiCardToken('token_xyz')).toBe(true);
    expect(isOrdersApiCardToken('card_abc')).toBe(false);
  });

  it('maps splits: FIXED as flat cents, PERCENTAGE as percentage', () => {
    const body = toOrdersApiOrder(
      input({
        splits: [
          { recipientId: 're_a', amount: 500, type: 'FIXED', chargeProcessingFee: true, chargeRemainder: true, liable: true },
          { recipientId: 're_b', amount: 10, type: 'PERCENTAGE', chargeProcessingFee: false, chargeRemainder: false, liable: false },
        ],
      }),
      OPTIONS,
    );
    expect(body.payments[0]!.split).toEqual([
      { recipient_id: 're_a', amount: 500, type: 'flat', options: { charge_processing_fee: true, charge_remainder_fee: true, liable: true } },
      { recipient_id: 're_b', amount: 10, type: 'percentage', options: { charge_processing_fee: false, charge_remainder_fee: false, liable: false } },
    ]);
  });

  it('tokenises a card with digits only and a four-digit year', () => {
    expect(
      toOrdersApiCardToken({
        cardNumber: '4000 0000-0000 0010',
        holderName: 'ANA SOUZA',
        holderDocument: '123.456.789-09',
        expMonth: '07',
        expYear: '30',
        cvv: '123',
      }),
    ).toEqual({
      type: 'card',
      card: { number: '4000000000000010', holder_name: 'ANA SOUZA', holder_document: '12345678909', exp_month: 7, exp_year: 2030, cvv: '123' },
    });
    expect(
      toOrdersApiCardToken({ cardNumber: '4000000000000010', holderName: 'ANA', holderDocument: '', expMonth: '7', expYear: '2031', cvv: '1234' }).card,
    ).toMatchObject({ holder_document: undefined, exp_year: 2031 });
  });
});

describe('response mappers', () => {
  it("a charge's fee: its credit payables' fee and fraud coverage, the recipient's where named; none without a credit or with a negative fee", () => {
    const credit = { type: 'credit', fee: 250, fraud_coverage_fee: 30, recipient_id: 're_a' };
    const data = [credit, { ...credit, fraud_coverage_fee: undefined }, { ...credit, recipient_id: 're_b', fee: 100, fraud_coverage_fee: 0 }];
    expect(ordersApiChargeFee({ data: [...data, { type: 'refund', fee: 400, recipient_id: 're_a' }] }, 're_a')).toBe(530);
    expect(ordersApiChargeFee({ data })).toBe(630);
    expect(ordersApiChargeFee({ data }, 're_c')).toBeUndefined();
    expect(ordersApiChargeFee({ data: [{ type: 'refund', fee: 250 }] })).toBeUndefined();
    expect(ordersApiChargeFee({ data: [{ ...credit, fee: -1 }] })).toBeUndefined();
  });

  it('drops the QR image of a PIX that has a copy-and-paste code (drawn at the edge), keeping the provider URL only without a code', async () => {
    const pix = fromOrdersApiOrder(
      order('pending', { last_transaction: { qr_code: '00020101021226', qr_code_url: 'https://api.pagar.me/qr/or_1.png' } }),
      READER,
    );
    expect(pix.pixQrCode).toBe('https://api.pagar.me/qr/or_1.png');
    expect(await pixCodeOnly(pix)).toEqual({ ...pix, pixQrCode: undefined });
    const withoutCode = fromOrdersApiOrder(order('pending', { last_transaction: { qr_code_url: 'https://api.pagar.me/qr/or_1.png' } }), READER);
    expect(await pixCodeOnly(withoutCode)).toEqual(withoutCode);
    const boleto = fromOrdersApiOrder(order('pending', { payment_method: 'boleto', last_transaction: { line: '1' } }), READER);
    expect(await pixCodeOnly(boleto)).toBe(boleto);
  });

  it("takes a boleto's URL when it has no PDF", () => {
    expect(fromOrdersApiOrder(order('pending', { payment_method: 'boleto', last_transaction: { url: 'https://b/1' } }), READER).billetUrl).toBe('https://b/1');
  });

  it('maps a card order without PIX or boleto fields, and the charge amount when the order has none', () => {
    expect(
      fromOrdersApiOrder(
        {
          id: 'or_2',
          status: 'paid',
          charges: [{ id: 'ch_2', status: 'paid', amount: 5000, payment_method: 'credit_card', paid_at: '2026-03-10T12:00:01Z' }],
        },
        READER,
      ),
    ).toEqual({
      paymentMethod: 'CREDIT_CARD',
      transactionId: 'or_2',
      status: 'APPROVED',
      amount: 5000,
    });
  });

  it('refuses an order without a known charge as an unusable answer', () => {
    expect(() => fromOrdersApiOrder({ id: 'or_3', status: 'pending' }, READER)).toThrow(ProviderCallError);
    expect(() => fromOrdersApiOrder({ id: 'or_3', status: 'pending', charges: [{ id: 'ch', status: 'pending', payment_method: 'voucher' }] }, READER)).toThrow(
      'order or_3 came back without a known charge',
    );
  });

  it('finds the reason of a charge that failed inside a 2xx answer', () => {
    expect(
      ordersApiFailureReason(
        order('failed', { last_transaction: { success: false, gateway_response: { code: '400', errors: [{ message: 'Pix não habilitado para a conta' }] } } }),
      ),
    ).toBe('Pix não habilitado para a conta');
    expect(ordersApiFailureReason(order('failed', { last_transaction: { acquirer_message: 'Transação recusada' } }))).toBe('Transação recusada');
    expect(ordersApiFailureReason({ id: 'or_1', status: 'failed' })).toBe('order failed');
  });

  it("gives a declined card's reason: the acquirer's return code, else the refusal's text, and the text beside it; none for a charge not declined", () => {
    const card = (status: string, last_transaction: Record<string, unknown>) => order(status, { payment_method: 'credit_card', last_transaction });
    const declined = { status: 'not_authorized', success: false, acquirer_return_code: '51', acquirer_message: 'SALDO/LIMITE INSUFICIENTE' };
    expect(fromOrdersApiOrder(card('failed', declined), READER)).toMatchObject({
      status: 'REJECTED',
      declineReason: '51',
      declineMessage: 'SALDO/LIMITE INSUFICIENTE',
    });
    expect(fromOrdersApiOrder(card('failed', { status: 'failed', gateway_response: { errors: [{ message: 'Antifraude reprovou' }] } }), READER)).toMatchObject({
      declineReason: 'Antifraude reprovou',
      declineMessage: 'Antifraude reprovou',
    });
    expect(
      fromOrdersApiOrder(card('failed', { status: 'failed', acquirer_return_code: '05', gateway_response: { errors: [{ message: 'Recusada' }] } }), READER),
    ).toMatchObject({ declineReason: '05', declineMessage: 'Recusada' });
    expect(fromOrdersApiOrder(card('failed', { status: 'not_authorized', acquirer_message: 'Transação recusada' }), READER).declineReason).toBe(
      'Transação recusada',
    );
    expect(
      fromOrdersApiOrder(card('paid', { status: 'captured', acquirer_return_code: '00', acquirer_message: 'Transação aprovada' }), READER),
    ).not.toHaveProperty('declineReason');
    expect(
      fromOrdersApiOrder(card('paid', { status: 'captured', acquirer_return_code: '00', acquirer_message: 'Transação aprovada' }), READER),
    ).not.toHaveProperty('declineMessage');
  });

  it('takes the charge id as the refund id when the cancelled charge has no last transaction', () => {
    expect(fromOrdersApiRefund({ id: 'ch_1', status: 'canceled' })).toEqual({ refundId: 'ch_1', status: true });
  });

  it('reads every refund answer as done, in progress or refused, from the table (unknown: in progress, never released)', () => {
    expect(ORDERS_API_REFUND_OUTCOMES).toEqual({
      entries: {
        refunded: 'done',
        partial_refunded: 'done',
        voided: 'done',
        partial_void: 'done',
        pending_refund: 'in_progress',
        waiting_cancellation: 'in_progress',
        error_on_refunding: 'refused',
        error_on_voiding: 'refused',
      },
      unknown: 'in_progress',
    });
    const refund = (status: string, transactionStatus?: string) =>
      fromOrdersApiRefund({ id: 'ch_1', status, last_transaction: { id: 'tran_r', ...(transactionStatus ? { status: transactionStatus } : {}) } });
    expect(refund('canceled', 'pending_refund')).toEqual({ refundId: 'tran_r', status: true });
    expect(refund('paid', 'PARTIAL_REFUNDED')).toEqual({ refundId: 'tran_r', status: true });
    expect(refund('paid', 'pending_refund')).toEqual({ refundId: 'tran_r', status: true, pending: true });
    expect(refund('paid', 'captured')).toEqual({ refundId: 'tran_r', status: true, pending: true });
    expect(refund('paid')).toEqual({ refundId: 'tran_r', status: true, pending: true });
    expect(refund('paid', 'error_on_refunding')).toEqual({ refundId: 'tran_r', status: false });
  });

  it("derives a refund's Idempotency-Key from the caller's key and the charge, deterministically", () => {
    const key = ordersApiRefundKey('caller-key', 'ch_1');
    expect(key).toMatch(/^refund-[0-9a-f]{64}$/);
    expect(ordersApiRefundKey('caller-key', 'ch_1')).toBe(key);
    expect(ordersApiRefundKey('caller-key', 'ch_2')).not.toBe(key);
    expect(ordersApiRefundKey('caller-key-2', 'ch_1')).not.toBe(key);
  });

  it("adds the provider's field errors to its message", () => {
    const body = {
      message: 'The request is invalid.',
      errors: { 'order.customer.name': ['The name field is required.'], 'order.items': ['The items field is required.', 'At least one.'] },
    };
    expect(ordersApiFieldErrors(body)).toBe('order.customer.name: The name field is required.; order.items: The items field is required. At least one.');
    expect(ordersApiFieldErrors({ message: 'x' })).toBeUndefined();
    expect(ordersApiFieldErrors({ message: 'x', errors: {} })).toBeUndefined();
    expect(ordersApiFieldErrors('text')).toBeUndefined();
    const failure = ordersApiError(
      'Erro ao criar transação',
      new ProviderCallError('UNAVAILABLE', 'PROVIDER_CIRCUIT_OPEN', 'provider temporarily unavailable'),
    );
    expect(failure).toMatchObject({ code: 'UNAVAILABLE', message: 'Erro ao criar transação: provider temporarily unavailable' });
  });
});

describe('the declaration', () => {
  it('refuses a member that declares reais: the dialect carries cents everywhere', () => {
    expect(() => new OrdersApiAdapter({ ...PAGARMEBAAS, money: 'reais' })).toThrow(/carries amounts in cents/);
  });
});
