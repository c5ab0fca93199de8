import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { clearHttpsAgents } from '../../server/lib/http/index.js';
import { CATALOGUE } from '../../server/lib/providerMessages.js';
import { BacenPixAdapter, payoutIdempotencyKey, type BacenPixMember } from '../../server/providers/families/bacenPix/index.js';
import { ONZ } from '../../server/providers/members/onz.js';
import { startFakeProvider, type FakeProvider } from '../support/fakeProvider.js';
import { bacenPixConformance } from './conformance/bacenPix.suite.js';
import { failure, NOW, TIMEOUT_MS } from './conformance/harness.js';

const KEYS = { clientId: '12345678000199', clientSecret: 'onz-secret', chave: 'pix@loja.example' };
const E2E = 'E33053580202503101200212912f6b8';

// The suite's fake is one host: there the cash-out host is the account's; the separate host is tested below with a second fake.
const { baseUrl: CASH_OUT_HOST, ...payoutOnOneHost } = ONZ.payout!;
const onz = bacenPixConformance(
  { ...ONZ, payout: payoutOnOneHost },
  {
    keys: KEYS,
    // Onz's token answer (F8): {accessToken, expiresAt}.
    answers: { tokenResponse: { access_token: 'onz-token', accessToken: 'onz-token', expiresAt: '2025-03-10T13:00:00.000Z' } },
  },
);

describe('ONZ, as the spec and its public material name it (doc 3, group 3; F8)', () => {
  let cashOut: FakeProvider;
  beforeAll(async () => {
    cashOut = await startFakeProvider({ tls: 'mtls' });
  });
  afterEach(() => cashOut.reset());
  afterAll(async () => {
    clearHttpsAgents();
    await cashOut.close();
  });

  const onTwoHosts = (): BacenPixAdapter => {
    const member: BacenPixMember = { ...ONZ, payout: { ...ONZ.payout, baseUrl: cashOut.url } };
    return new BacenPixAdapter(member, { now: () => NOW, timeoutMs: TIMEOUT_MS, retry: false, ca: [onz.fake.ca!, cashOut.ca!] });
  };

  it('pays out at its cash-out host (token and /pix/payments/dict there, cash-out certificate), APPROVED at once (§4, §7)', async () => {
    const token = cashOut.expect({
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': /^application\/x-www-form-urlencoded/ },
      body: { grant_type: 'client_credentials', client_id: KEYS.clientId, client_secret: KEYS.clientSecret },
      reply: { body: { accessToken: 'onz-cash-out', expiresAt: '2025-03-10T13:00:00.000Z' } },
    });
    cashOut.expect({
      method: 'POST',
      path: '/pix/payments/dict',
      // Onz takes `[a-zA-Z0-9]{1,50}` (no hyphens): the caller's key is never sent as it is, but the same key is the same header.
      headers: { authorization: 'Bearer onz-cash-out', 'x-idempotency-key': (key) => key === payoutIdempotencyKey(onz.ctx.accountId, 'saque77') },
      body: { pixKey: '+5511987654321', payment: { currency: 'BRL', amount: 10.5 }, paymentFlow: 'INSTANT' },
      reply: { status: 202, body: { endToEndId: E2E, status: 'PROCESSING' } },
    });
    const paid = onTwoHosts().withdraw(
      { ...onz.ctx, certCashInUrl: undefined },
      { paymentMethod: 'PIX', amount: 1050, pixKey: '11987654321', pixType: 'PHONE', idempotencyKey: 'saque77' },
    );
    await expect(paid).resolves.toMatchObject({ withdrawId: E2E, amount: 1050, status: 'APPROVED' });
    expect(token.calls).toHaveLength(1);
    expect(cashOut.received.map((request) => request.clientCertificate)).toEqual(['platform-client', 'platform-client']);
    expect(onz.fake.received).toHaveLength(0);
    cashOut.assertAllDone();
  });

  it("'Unauthorized.' on withdraw without the platform record or the cash-out certificate, on charges without the cash-in one (§5)", async () => {
    const adapter = onTwoHosts();
    const refused = { code: CATALOGUE.UNAUTHORIZED.code, message: CATALOGUE.UNAUTHORIZED.message };
    const payout = { paymentMethod: 'PIX' as const, amount: 1050, pixKey: 'pix@cliente.example', pixType: 'EMAIL' as const };
    expect(await failure(adapter.withdraw({ ...onz.ctx, platformId: undefined }, payout))).toEqual(refused);
    expect(await failure(adapter.withdraw({ ...onz.ctx, certCashOutUrl: undefined }, payout))).toEqual(refused);
    expect(() => adapter.checkAccount({ ...onz.ctx, certCashInUrl: undefined })).toThrow(CATALOGUE.UNAUTHORIZED.message);
    expect([cashOut.received, onz.fake.received]).toEqual([[], []]);
  });

  it('declares cashout.infopago.com.br/api/v2 for cash-out, form token with client credentials in the body, POST /sells/{id}/refund', () => {
    expect(CASH_OUT_HOST).toBe('https://cashout.infopago.com.br/api/v2');
    expect(ONZ.payout).toEqual({ baseUrl: CASH_OUT_HOST, statusAtCreation: 'approved', requirePlatform: true });
    expect(ONZ.auth).toMatchObject({ type: 'oauth2', tokenPath: '/oauth/token', body: 'form', clientAuth: 'body' });
    expect(ONZ.refund).toEqual({ kind: 'post', path: '/sells/{id}/refund' });
    expect([ONZ.apiVersions, ONZ.publicRefund]).toEqual([['specification', 'public'], { kind: 'devolucao' }]);
    expect(ONZ.identity).toEqual({ id: 'ONZ', specGroup: 'document 3 (group 3)', defaultBaseUrl: 'https://secureapi.bancodigital.onz.software/api/v2' });
    expect(ONZ.capabilities).toEqual({ paymentMethods: ['PIX'], withdrawMethods: ['PIX'], refunds: true, webhooks: true });
  });
});
