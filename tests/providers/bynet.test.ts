import { describe, expect, it } from '@jest/globals';
import { declaredStatusTable, lookupStatus } from '../../server/lib/statusTable.js';
import { TRANSACTIONS_API_WITHDRAWAL_STATUSES } from '../../server/providers/families/transactionsApi/index.js';
import { UserApiAdapter } from '../../server/providers/families/transactionsApi/platforms/userApi.js';
import type { AdapterRuntime } from '../../server/providers/kit/declaration.js';
import { BYNET } from '../../server/providers/members/bynet.js';
import { FASTSOFT } from '../../server/providers/members/fastsoft.js';
import { failure, notification, providerHarness, transactionInput } from './conformance/harness.js';
import { statusOf, transactionsApiConformance } from './conformance/transactionsApi.suite.js';

const keys = { publicKey: 'pk_bynet', secretKey: 'key_bynet' };
const create = (runtime: AdapterRuntime) => new UserApiAdapter(BYNET, runtime);
transactionsApiConformance(BYNET, { keys, authHeaders: { 'x-api-key': 'key_bynet', 'user-agent': 'AtivoB2B/1.0' }, create, ownBodies: true });

describe('BYNET (spec doc 3, group 4)', () => {
  const h = providerHarness({ create, account: () => keys });

  it("shares FastSoft's paths, validity, charge statuses and prefixes (§4, §7, §9); its cancelled payout is CANCELED", () => {
    for (const field of ['expiry', 'failurePrefixes'] as const) expect(BYNET[field]).toEqual(FASTSOFT[field]);
    // Its own documentation adds the payout read (Cashout → Find by ID) to the shared paths and capabilities.
    expect(BYNET.paths).toEqual({ ...FASTSOFT.paths, getWithdraw: '/user/cashout/{id}' });
    expect(BYNET.capabilities).toEqual({ ...FASTSOFT.capabilities, withdrawalLookup: true });
    for (const status of ['paid', 'captured', 'declined', 'voided', 'cancelled', 'mystery']) expect(statusOf(BYNET, status)).toBe(statusOf(FASTSOFT, status));
    const payout = declaredStatusTable(TRANSACTIONS_API_WITHDRAWAL_STATUSES, BYNET.statuses?.withdrawal);
    expect(lookupStatus(payout, 'cancelled')).toBe('CANCELED');
  });

  it('pays out by POST /user/cashout with the API key and the AtivoB2B user agent; reads the answer inside data', async () => {
    h.fake.expect({
      method: 'POST',
      path: '/user/cashout',
      headers: { 'x-api-key': 'key_bynet', 'user-agent': 'AtivoB2B/1.0' },
      body: { amount: 500, pixKey: 'ana@example.com', pixType: 'EMAIL', description: 'Saque', postbackUrl: h.ctx.notificationUrl },
      reply: { body: { data: { id: 'co_9', amount: 500, fee: 10, status: 'PENDING', endToEndId: null }, status: 200, message: 'ok', error: null } },
    });
    expect(await h.adapter.withdraw(h.ctx, { paymentMethod: 'PIX', amount: 500, pixKey: 'ana@example.com', pixType: 'EMAIL', description: 'Saque' })).toEqual({
      withdrawId: 'co_9',
      amount: 500,
      status: 'PENDING',
    });
  });

  it("reads a payout back by GET /user/cashout/{id} (its documentation's Cashout → Find by ID), the answer inside data", async () => {
    h.fake.expect({
      method: 'GET',
      path: '/user/cashout/co_9',
      headers: { 'x-api-key': 'key_bynet', 'user-agent': 'AtivoB2B/1.0' },
      reply: { body: { data: { id: 'co_9', amount: 500, fee: 50, status: 'CANCELLED' }, status: 200, message: 'ok', error: null } },
    });
    expect(h.adapter.supports('getWithdraw')).toBe(true);
    expect(await h.adapter.getWithdraw(h.ctx, 'co_9')).toEqual({ withdrawId: 'co_9', amount: 500, status: 'CANCELED' });
  });

  it("reads a cancelled payout's postback as CANCELED", async () => {
    const body = { type: 'cashout', data: { id: 'co_9', status: 'cancelled' } };
    expect(await h.adapter.processWebhook(h.ctx, notification(body))).toEqual({ type: 'WITHDRAW', transactionId: 'co_9', status: 'CANCELED' });
  });

  it("refuses a card with 'Payment method CREDIT_CARD not implemented for ByNet' (§8)", async () => {
    expect(await failure(h.adapter.createTransaction(h.ctx, transactionInput({ paymentMethod: 'CREDIT_CARD', cardId: 'c' })))).toEqual({
      code: 'UNIMPLEMENTED',
      message: 'Payment method CREDIT_CARD not implemented for ByNet',
    });
  });
});
