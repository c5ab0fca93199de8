import { describe, expect, it } from '@jest/globals';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { SAQPAY, SaqpayAdapter } from '../../server/providers/members/saqpay.js';
import { MASKED_SECRET } from '../../server/providers/kit/bodySecrets.js';
import { notification, providerHarness } from './conformance/harness.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

const create = (runtime: AdapterRuntime) => new SaqpayAdapter(SAQPAY, runtime);
doc1CommonConformance(SAQPAY, { fixtures: { create, ownNotifications: true } });

describe('SAQPAY: its public IPN', () => {
  const h = providerHarness({ create, account: () => ({ publicKey: 'pk', secretKey: 'sk_saqpay' }) });
  const ipn = {
    transaction_id: 'sq_1',
    partner_conciliation_id: 'order-77',
    transaction_amount: 19.9,
    ipn_secret: 'shh',
    transaction_status: 'paid',
    payment_date: '2026-01-10',
  };

  it.each([
    ['paid', 'APPROVED'],
    ['refunded', 'REFUNDED'],
    ['failed', 'REJECTED'],
  ])('reads transaction_id and transaction_status: %s is %s', async (status, expected) => {
    expect(await h.adapter.processWebhook(h.ctx, notification({ ...ipn, transaction_status: status }))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'sq_1',
      status: expected,
    });
  });

  it.each([
    ['no status', { transaction_id: 'sq_1' }],
    ['the family shape', { data: { id: 'tx_1', status: 'paid' } }],
    ['not JSON', 'ipn=1'],
  ])('ignores a body with %s', async (_label, body) => {
    expect(await h.adapter.processWebhook(h.ctx, notification(body))).toBeUndefined();
  });

  it("checks ipn_secret against the account's webhook secret (constant time); unsigned without one", () => {
    const signed = { ...h.ctx, webhookSecret: 'shh' };
    expect(h.adapter.verifyNotification(signed, notification(ipn))).toBe('valid');
    expect(h.adapter.verifyNotification(signed, notification({ ...ipn, ipn_secret: 'guess' }))).toBe('invalid');
    expect(h.adapter.verifyNotification(signed, notification({ ...ipn, ipn_secret: undefined }))).toBe('invalid');
    expect(h.adapter.verifyNotification(h.ctx, notification(ipn))).toBe('unsigned');
  });

  it('stores an IPN with its ipn_secret masked, every other field kept; a masked IPN checked again is unsigned (intake kept the proof)', async () => {
    const stored = h.adapter.storableBody(Buffer.from(JSON.stringify(ipn)));
    expect(stored.toString()).not.toContain('shh');
    expect(JSON.parse(stored.toString())).toEqual({ ...ipn, ipn_secret: MASKED_SECRET });
    expect(h.adapter.verifyNotification({ ...h.ctx, webhookSecret: 'shh' }, { body: stored, headers: {} })).toBe('unsigned');
    expect(await h.adapter.processWebhook(h.ctx, { body: stored, headers: {} })).toEqual({ type: 'TRANSACTION', transactionId: 'sq_1', status: 'APPROVED' });
    for (const other of ['not json', JSON.stringify({ transaction_id: 'sq_1' })]) expect(h.adapter.storableBody(Buffer.from(other)).toString()).toBe(other);
  });

  it('keys an IPN by the transaction and its status', () => {
    expect(h.adapter.notificationKey(h.ctx, notification(ipn))).toBe('transaction:sq_1:paid');
  });
});
