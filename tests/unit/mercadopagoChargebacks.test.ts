import { describe, expect, it } from '@jest/globals';
import { reaisToCents } from '../../server/lib/money.js';
import { mercadoPagoChargebackCase, mercadoPagoChargebackNotice, mercadoPagoNotified } from '../../server/providers/mercadopago/adapter.js';

/** A chargebacks topic notification shaped as the chargebacks guide's example, `data.id` written as an 18-digit JSON number. */
const chargebackNotification = (chargebackId: string, paymentId: number) =>
  Buffer.from(
    `{"actions":["changed_case_status"],"api_version":"v1","application_id":9007201037432480,"data":{"checkout":"PRO",` +
      `"date_updated":"0001-01-01T00:00:00Z","id":${chargebackId},"payment_id":${paymentId},"product_id":"C00A2J8RF4DI8BCIMFU0",` +
      `"site_id":"MLB","transaction_intent_id":""},"date_created":"2024-07-03T19:34:28-04:00","id":114411153595,"live_mode":true,` +
      `"type":"topic_chargebacks_wh","user_id":634060442,"version":1720035618}`,
  );

describe("MERCADOPAGO's chargeback notifications, read", () => {
  it("keeps an 18-digit chargeback id digit for digit (a double would round it), with the notification's own id and payment", () => {
    expect(String(JSON.parse('217000087654321001'))).not.toBe('217000087654321001');
    expect(mercadoPagoNotified(chargebackNotification('217000087654321001', 81968653106))).toEqual({
      topic: 'chargeback',
      id: '217000087654321001',
      eventId: '114411153595',
      paymentId: '81968653106',
    });
  });

  it('reads a payment notification as before, and ignores other topics and bodies that are not JSON', () => {
    const payment = Buffer.from('{"id":12345,"type":"payment","action":"payment.updated","data":{"id":"1325000001"}}');
    expect(mercadoPagoNotified(payment)).toEqual({ topic: 'payment', id: '1325000001', eventId: '12345' });
    expect(mercadoPagoNotified(Buffer.from('{"type":"merchant_order","data":{"id":"1"}}'))).toBeUndefined();
    expect(mercadoPagoNotified(Buffer.from('topic=chargebacks&id=1'))).toBeUndefined();
  });

  it("reads an IPN from the address (the IPN guide's ?topic=…&id=…) where the body is not a webhook's; a webhook's body wins", () => {
    expect(mercadoPagoNotified(Buffer.from('{}'), { topic: 'chargebacks', id: '217000087654321001' })).toEqual({
      topic: 'chargeback',
      id: '217000087654321001',
      ipn: true,
    });
    expect(mercadoPagoNotified(Buffer.alloc(0), { topic: 'payment', id: '1325000001' })).toEqual({ topic: 'payment', id: '1325000001', ipn: true });
    expect(mercadoPagoNotified(Buffer.from('{}'), { topic: 'merchant_order', id: '4945357007' })).toBeUndefined();
    expect(mercadoPagoNotified(Buffer.from('{}'), { topic: 'payment', id: '../v1/payments' })).toBeUndefined();
    const webhook = Buffer.from('{"id":12345,"type":"payment","data":{"id":"1325000001"}}');
    expect(mercadoPagoNotified(webhook, { 'data.id': '1325000001', type: 'payment' })).toEqual({ topic: 'payment', id: '1325000001', eventId: '12345' });
  });

  it('places the chargeback on the notified payment where its read lists it, else its first; amount in cents and deadline where stated', () => {
    const read = mercadoPagoChargebackCase.parse({
      id: '217000087654321000',
      payments: [1325000001, 1325000002],
      currency: 'BRL',
      amount: '108.43',
      documentation_required: true,
      date_documentation_deadline: '2024-05-26T23:59:59.000-04:00',
    });
    expect(mercadoPagoChargebackNotice(read, '1325000002', reaisToCents)).toEqual({
      paymentId: '1325000002',
      chargeback: { providerDisputeId: '217000087654321000', amount: 10843, deadline: new Date('2024-05-27T03:59:59.000Z') },
    });
    expect(mercadoPagoChargebackNotice(read, '999', reaisToCents).paymentId).toBe('1325000001');

    const bare = mercadoPagoChargebackCase.parse({ id: '217000087654321000', payments: [1325000001], amount: 'n/a', date_documentation_deadline: 7 });
    expect(mercadoPagoChargebackNotice(bare, undefined, reaisToCents)).toEqual({
      paymentId: '1325000001',
      chargeback: { providerDisputeId: '217000087654321000' },
    });
    expect(mercadoPagoChargebackCase.safeParse({ id: '217000087654321000', payments: [] }).success).toBe(false);
  });
});
