import { describe, expect, it } from '@jest/globals';
import { FAILURE_PREFIXES } from '../../server/lib/providerMessages.js';
import { IUGU } from '../../server/providers/members/iugu.js';
import { IUGUBAAS } from '../../server/providers/members/iugubaas.js';
import { iuguConformance, trigger } from './conformance/iugu.suite.js';

/** Iugu itself: the family's canned answers are its own. */
const h = iuguConformance(IUGU, { keys: { publicKey: 'A083919DEE244A0FA2705E309B378CD0', secretKey: 'live_iugu_1' } });

describe('IUGU (spec doc 2, group 1)', () => {
  it("is IUGUBAAS's API without IUGUBAAS's group-2 texts: a failed refund keeps the common prefix and Iugu's words", async () => {
    expect({ ...IUGU, identity: undefined, sources: undefined, failures: undefined }).toEqual({
      ...IUGUBAAS,
      identity: undefined,
      sources: undefined,
      failures: undefined,
    });
    expect(IUGU.identity).toEqual({ id: 'IUGU', specGroup: 'document 2 (group 1)', defaultBaseUrl: 'https://api.iugu.com/v1' });
    h.fake.expect({ method: 'POST', path: '/invoices/INV9/refund', reply: { status: 422, body: { errors: 'Fatura não pode ser reembolsada' } } });
    const refused = h.adapter.refoundTransaction(h.ctx, 'INV9', 100);
    await expect(refused).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `${FAILURE_PREFIXES.REFUND_TRANSACTION}: Fatura não pode ser reembolsada`,
    });
  });

  it('reads a refunded invoice from its form-encoded trigger', async () => {
    const body = trigger({ event: 'invoice.refund', 'data[id]': 'F00D', 'data[status]': 'refunded' });
    expect(await h.adapter.processWebhook(h.ctx, body)).toEqual({ type: 'TRANSACTION', transactionId: 'F00D', status: 'REFUNDED' });
  });
});
