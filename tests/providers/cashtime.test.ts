import { describe, expect, it } from '@jest/globals';
import { createRegistry } from '../../server/providers/catalog.js';
import { CASHTIME } from '../../server/providers/members/cashtime.js';
import { toCashtimeTransaction, toCashtimeWithdrawal } from '../../server/providers/families/cashtime/index.js';
import { cashtimeTransactionRequest, cashtimeWithdrawalRequest } from '../../server/providers/families/cashtime/wire.js';
import { bareTransactionInput, failure, notification, transactionInput } from './conformance/harness.js';
import { cashtimeConformance } from './conformance/cashtime.suite.js';
import { PIX_KEY_SAMPLES, expectBodiesOf } from './requestSchemas.js';

// Cashtime (research G-A): the secret key in x-authorization-key.
const h = cashtimeConformance(CASHTIME, { keys: { publicKey: 'pk_live_ct', secretKey: 'sk_live_ct' }, authHeaders: { 'x-authorization-key': 'sk_live_ct' } });

describe('CASHTIME (spec doc 2, group 2)', () => {
  it("reads infraction as CHARGEBACK, the table's reading (doc 2 §4; docs/decisions.md): a claim against a payment is not money received", async () => {
    h.fake.expect({ method: 'GET', path: '/details/orders/ord_1', reply: { body: { id: 'ord_1', status: 'INFRACTION', amount: 1990 } } });
    expect((await h.adapter.getTransaction(h.ctx, 'ord_1')).status).toBe('CHARGEBACK');
    expect(await h.adapter.processWebhook(h.ctx, notification({ id: 'ord_1', status: 'infraction' }))).toEqual({
      type: 'TRANSACTION',
      transactionId: 'ord_1',
      status: 'CHARGEBACK',
    });
  });

  it("pays out but does not read payouts back: GET /request/withdraw/{id} is REFLOWPAY's (§7)", async () => {
    expect(h.adapter.supports('withdraw')).toBe(true);
    expect(await failure(h.adapter.getWithdraw(h.ctx, 'wd_1'))).toEqual({ code: 'UNIMPLEMENTED', message: 'Method not implemented.' });
  });

  it("builds bodies of the platform's request schemas (wire.ts)", () => {
    const terms = { amount: (cents: number) => cents, notificationUrl: 'https://gateway.example/webhooks/acc_1' };
    expectBodiesOf(cashtimeTransactionRequest, [
      toCashtimeTransaction(transactionInput({ customerIp: '10.0.0.1' }), terms),
      toCashtimeTransaction(bareTransactionInput({ description: 'Curso' }), terms),
      toCashtimeTransaction(transactionInput({ customer: { name: 'ACME', email: 'a@b.c', document: '11.222.333/0001-81', phone: '1133334444' } }), terms),
    ]);
    expectBodiesOf(
      cashtimeWithdrawalRequest,
      PIX_KEY_SAMPLES.map(([pixType, pixKey]) =>
        toCashtimeWithdrawal({ paymentMethod: 'PIX', amount: 2500, pixKey, pixType, withdrawReference: 'wd-1' }, terms),
      ),
    );
  });

  it('is registered in the catalogue, case-insensitively', async () => {
    expect((await createRegistry({ sandboxUrl: 'http://127.0.0.1:1' })).find('cashtime')?.identity.id).toBe('CASHTIME');
  });
});
