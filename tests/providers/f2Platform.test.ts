import { describe, expect, it } from '@jest/globals';
import { F2Adapter, f2PostbackSignature, F2_SIGNATURE_HEADER } from '../../server/providers/families/transactionsApi/platforms/f2.js';
import { MEDIUS } from '../../server/providers/members/medius.js';
import { partial } from '../support/fakeProvider.js';
import { failure, providerHarness, transactionInput } from './conformance/harness.js';

/**
 * The "functions/v1" platform's own ways (platforms/f2.ts), as the pages of
 * HunterSub and FullPix show them: upper-case names, the account's webhook
 * secret sent with each charge and the postback signature checked with it,
 * the cashout answered as its `withdrawal.created` event.
 */
describe('the F2 ("functions/v1") platform', () => {
  const h = providerHarness({
    create: (runtime) => new F2Adapter(MEDIUS, runtime),
    account: () => ({ publicKey: '', secretKey: 'sk_md', webhookSecret: 'whsec_1' }),
  });

  it("names the method and the buyer's document in upper case and sends the account's webhook secret", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/transactions',
      body: partial({ paymentMethod: 'PIX', customer: partial({ document: { number: '12345678909', type: 'CPF' } }), webhookSecret: 'whsec_1' }),
      reply: { body: { id: 'tx_1', status: 'waiting_payment', amount: 1990, paymentMethod: 'PIX', pix: { qrcode: '000201' } } },
    });
    expect(await h.adapter.createTransaction(h.ctx, transactionInput())).toMatchObject({ transactionId: 'tx_1', status: 'PENDING', paymentMethod: 'PIX' });
  });

  it('checks X-Webhook-Signature (sha256=HMAC-SHA256 of the raw body) against the account webhook secret', () => {
    const body = Buffer.from(JSON.stringify({ id: 'tx_1', status: 'paid', amount: 1990 }));
    const verdict = (headers: Record<string, string>, webhookSecret: string | undefined = h.ctx.webhookSecret) =>
      h.adapter.verifyNotification({ ...h.ctx, webhookSecret }, { body, headers });
    const withoutSecret = (headers: Record<string, string>) => h.adapter.verifyNotification({ ...h.ctx, webhookSecret: undefined }, { body, headers });
    expect(verdict({ [F2_SIGNATURE_HEADER]: f2PostbackSignature('whsec_1', body) })).toBe('valid');
    expect(verdict({ [F2_SIGNATURE_HEADER]: f2PostbackSignature('another', body) })).toBe('invalid');
    expect(verdict({ [F2_SIGNATURE_HEADER]: `sha1=${f2PostbackSignature('whsec_1', body).slice(7)}` })).toBe('invalid');
    expect(verdict({ [F2_SIGNATURE_HEADER]: 'sha256=zz' })).toBe('invalid');
    // Payout events are not signed, nor are postbacks of an account without a secret: hints, confirmed or left unproven.
    expect(verdict({})).toBe('unsigned');
    expect(withoutSecret({ [F2_SIGNATURE_HEADER]: f2PostbackSignature('whsec_1', body) })).toBe('unsigned');
  });

  it("reads the cashout's answer, the withdrawal.created event, keeping the amount asked for (its requested_amount is reais)", async () => {
    h.fake.expect({
      method: 'POST',
      path: '/withdrawals/cashout',
      headers: { 'idempotency-key': 'idem-9' },
      body: { pixkeytype: 'EVP', pixkey: '123e4567-e12b-12d1-a456-426655440000', requestedamount: 254, isPix: true, postbackUrl: h.ctx.notificationUrl },
      reply: {
        body: {
          event: 'withdrawal.created',
          timestamp: '2025-07-10T17:40:27.885Z',
          withdrawal: { id: 'wd_1', requested_amount: 2.54, currency: 'BRL', status: 'pending', pix: { key_type: 'EVP' }, fee: 0, net_amount: 2.54 },
          metadata: { source: 'withdrawals_service', version: '1.0.0' },
        },
      },
    });
    expect(
      await h.adapter.withdraw(h.ctx, {
        paymentMethod: 'PIX',
        amount: 254,
        pixKey: '123e4567-e12b-12d1-a456-426655440000',
        pixType: 'RANDOM',
        idempotencyKey: 'idem-9',
      }),
    ).toEqual({ withdrawId: 'wd_1', amount: 254, status: 'PENDING' });
  });

  it('refuses a payout to a key without a type before calling (never guessed)', async () => {
    expect(await failure(h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 254, pixKey: 'ana@example.com' }))).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});
