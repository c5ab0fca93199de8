import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SandboxPsp } from '../../../server/sandbox/psp.js';
import { SANDBOX_FAILING_PIX_KEY, SANDBOX_FAILURE_REASON, SANDBOX_REFUSAL_MESSAGE, SANDBOX_REFUSED_PIX_KEY } from '../../../server/sandbox/api.js';
import { SANDBOX_TEST_CARDS } from '../../../server/sandbox/testCards.js';

/** The SANDBOX PSP's HTTP API as a merchant's code sees it: what each call answers, and what it refuses. */
let psp: SandboxPsp;

beforeAll(async () => {
  psp = await new SandboxPsp({ settleDelayMs: 10 }).start();
});

afterAll(async () => {
  await psp?.stop();
});

/** A call to `on` as the merchant whose key is `apiKey` (a header given overrides it). */
async function callAs(
  on: SandboxPsp,
  apiKey: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${on.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => callAs(psp, 'sk-unit', method, path, body, headers);

const cardId = async (number: string) => {
  const token = await call('POST', '/v1/card-tokens', { number, expMonth: 12, expYear: 2031, cvv: '123', holderName: 'Maria Souza' });
  return (await call('POST', '/v1/cards', { token: token.body.token })).body.id as string;
};

describe('charges', () => {
  it('makes a PIX charge with a BR Code and an image address, pays it once, and finds it by its reference', async () => {
    const created = await call('POST', '/v1/charges', { amount: 1990, method: 'pix' }, { 'idempotency-key': 'pedido-1' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ amount: 1990, method: 'pix', status: 'pending' });
    expect(created.body.pix.copyPaste).toMatch(/^000201/);
    const image = await fetch(created.body.pix.qrCodeUrl);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/png']);

    const again = await call('POST', '/v1/charges', { amount: 1990, method: 'pix' }, { 'idempotency-key': 'pedido-1' });
    expect(again.body.id).toBe(created.body.id);
    expect((await call('GET', '/v1/charges?reference=pedido-1')).body.data.map((c: { id: string }) => c.id)).toEqual([created.body.id]);

    expect((await call('POST', `/v1/charges/${created.body.id}/pay`)).body.charge.status).toBe('paid');
    expect((await call('POST', `/v1/charges/${created.body.id}/pay`)).status).toBe(409);
    expect((await call('GET', `/v1/charges/${created.body.id}`)).body.status).toBe('paid');
  });

  it('makes a boleto with its digitable line and due date', async () => {
    const { status, body } = await call('POST', '/v1/charges', { amount: 12_000, method: 'boleto' });
    expect(status).toBe(201);
    expect(body.boleto.digitableLine).toMatch(/^\d{47}$/);
    expect(new Date(body.boleto.dueDate).getTime()).toBeGreaterThan(Date.now());
  });

  it('approves a card charge, declines the test cards with their reasons and texts, and keeps only the brand and last digits', async () => {
    const approved = await call('POST', '/v1/charges', { amount: 5000, method: 'card', cardId: await cardId(SANDBOX_TEST_CARDS.approved), installments: 3 });
    expect(approved.body).toMatchObject({ status: 'paid', installments: 3 });
    expect(JSON.stringify(approved.body)).not.toContain(SANDBOX_TEST_CARDS.approved);
    const declined = await call('POST', '/v1/charges', { amount: 5000, method: 'card', cardId: await cardId(SANDBOX_TEST_CARDS.insufficientFunds) });
    expect(declined.body).toMatchObject({ status: 'declined', declineReason: 'insufficient_funds', declineMessage: 'Saldo insuficiente na conta' });
  });

  it('refunds part, then the rest, and refuses more than is left (a refund without an amount is the whole charge)', async () => {
    const { body: charge } = await call('POST', '/v1/charges', { amount: 3000, method: 'pix' });
    expect((await call('POST', `/v1/charges/${charge.id}/refunds`, { amount: 1000 })).status).toBe(409);
    await call('POST', `/v1/charges/${charge.id}/pay`);
    expect((await call('POST', `/v1/charges/${charge.id}/refunds`, { amount: 1000 })).body).toMatchObject({ amount: 1000, status: 'succeeded' });
    expect((await call('POST', `/v1/charges/${charge.id}/refunds`, { amount: 2001 })).status).toBe(422);
    expect((await call('POST', `/v1/charges/${charge.id}/refunds`, {})).status).toBe(422);
    await call('POST', `/v1/charges/${charge.id}/refunds`, { amount: 2000 });
    expect((await call('GET', `/v1/charges/${charge.id}`)).body).toMatchObject({ status: 'refunded', refundedAmount: 3000 });
  });

  it('refuses what no PSP would take, each with its reason', async () => {
    expect((await call('POST', '/v1/charges', { amount: 0, method: 'pix' })).body.error.message).toBe('amount must be a positive integer number of cents');
    expect((await call('POST', '/v1/charges', { amount: 100, method: 'cheque' })).status).toBe(422);
    expect((await call('POST', '/v1/charges', { amount: 100, method: 'card', cardId: 'card_nope' })).body.error.message).toBe('unknown card id');
    expect((await call('POST', '/v1/card-tokens', { number: '4111111111111112', expMonth: 1, expYear: 2031, cvv: '123', holderName: 'x' })).status).toBe(422);
    expect((await call('GET', '/v1/charges/ch_missing')).status).toBe(404);
    expect((await call('GET', '/v1/nothing')).status).toBe(404);
    const anonymous = await fetch(`${psp.url}/v1/charges`);
    expect(anonymous.status).toBe(401);
  });

  it("keeps one merchant's charges from another's key", async () => {
    const { body: charge } = await call('POST', '/v1/charges', { amount: 700, method: 'pix' });
    expect((await call('GET', `/v1/charges/${charge.id}`, undefined, { authorization: 'Bearer sk-other' })).status).toBe(404);
  });
});

describe('payouts, recipients, balance and installments', () => {
  it('settles a payout as paid, or as failed for the failing key, and reads it back', async () => {
    const paid = await call('POST', '/v1/withdrawals', { amount: 1200, pixKey: 'ana@example.com', pixKeyType: 'email' }, { 'idempotency-key': 'saque-1' });
    expect(paid.body.status).toBe('processing');
    expect((await call('POST', '/v1/withdrawals', { amount: 1200, pixKey: 'ana@example.com' }, { 'idempotency-key': 'saque-1' })).body.id).toBe(paid.body.id);
    const failing = await call('POST', '/v1/withdrawals', { amount: 300, pixKey: SANDBOX_FAILING_PIX_KEY });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await call('GET', `/v1/withdrawals/${paid.body.id}`)).body.status).toBe('paid');
    expect((await call('GET', `/v1/withdrawals/${failing.body.id}`)).body).toMatchObject({ status: 'failed', failureReason: SANDBOX_FAILURE_REASON });
    expect((await call('GET', `/v1/withdrawals/${paid.body.id}`)).body.failureReason).toBeUndefined();
    const refused = await call('POST', '/v1/withdrawals', { amount: 300, pixKey: SANDBOX_REFUSED_PIX_KEY });
    expect([refused.status, refused.body.error.message]).toEqual([422, SANDBOX_REFUSAL_MESSAGE]);
    expect((await call('GET', '/v1/withdrawals?reference=saque-1')).body.data).toHaveLength(1);
    expect((await call('POST', '/v1/withdrawals', { amount: 100 })).body.error.message).toBe('pixKey is required');
  });

  it("answers the merchant's own balance", async () => {
    const fresh = { authorization: 'Bearer sk-balance' };
    const { body: charge } = await call('POST', '/v1/charges', { amount: 2500, method: 'pix' }, fresh);
    await call('POST', `/v1/charges/${charge.id}/pay`, undefined, fresh);
    expect((await call('GET', '/v1/balance', undefined, fresh)).body).toMatchObject({ available: 2500 });
  });

  it('quotes installments that add up to the final value', async () => {
    const { body } = await call('GET', '/v1/installments?amount=1999');
    for (const option of body.options as { installmentNumber: number; installmentValue: number; finalValue: number; lastInstallmentValue: number }[])
      expect(option.installmentValue * (option.installmentNumber - 1) + option.lastInstallmentValue).toBe(option.finalValue);
    expect(body.options.length).toBeGreaterThan(1);
    expect((await call('GET', '/v1/installments?amount=-1')).status).toBe(422);
  });

  it('creates a recipient and reads it back', async () => {
    const created = await call('POST', '/v1/recipients', { name: 'Loja da Ana', document: '52998224725', email: 'ana@example.com' });
    expect(created.status).toBe(201);
    expect((await call('GET', `/v1/recipients/${created.body.id}`)).body).toMatchObject({ id: created.body.id });
  });
});

describe('faults and behaviours the tests of the gateway inject', () => {
  it('declines, answers slowly, fails after acting, or drops the request without acting, once each', async () => {
    psp.injectFault({ resource: 'charges', mode: 'decline', declineReason: 'do_not_honor' });
    expect((await call('POST', '/v1/charges', { amount: 100, method: 'pix' })).body).toMatchObject({ status: 'declined', declineReason: 'do_not_honor' });

    psp.injectFault({ resource: 'charges', mode: 'errorAfterActing' });
    const failed = await call('POST', '/v1/charges', { amount: 101, method: 'pix' }, { 'idempotency-key': 'acted-1' });
    expect(failed.status).toBe(500);
    expect((await call('GET', '/v1/charges?reference=acted-1')).body.data).toHaveLength(1);

    psp.injectFault({ resource: 'withdrawals', mode: 'slowAnswer', delayMs: 50 });
    const began = Date.now();
    expect((await call('POST', '/v1/withdrawals', { amount: 100, pixKey: 'ana@example.com' })).status).toBe(201);
    expect(Date.now() - began).toBeGreaterThanOrEqual(45);

    // Held instead of delayed: the charge is made at once, and answered only when the test lets it go.
    let letGo!: () => void;
    psp.injectFault({ resource: 'charges', mode: 'slowAnswer', heldUntil: new Promise<void>((resolve) => (letGo = resolve)) });
    let answered = false;
    const held = call('POST', '/v1/charges', { amount: 105, method: 'pix' }, { 'idempotency-key': 'held-1' }).finally(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await call('GET', '/v1/charges?reference=held-1')).body.data).toHaveLength(1);
    expect(answered).toBe(false);
    letGo();
    expect((await held).status).toBe(201);

    psp.injectFault({ resource: 'charges', mode: 'dropWithoutActing' });
    await expect(call('POST', '/v1/charges', { amount: 102, method: 'pix' }, { 'idempotency-key': 'dropped-1' })).rejects.toThrow();
    expect((await call('GET', '/v1/charges?reference=dropped-1')).body.data).toHaveLength(0);
  });

  it('acts late on queued creates, and makes a second resource for a repeated key when it does not honour keys', async () => {
    psp.behaviour = { actLateMs: 60_000 };
    const pending = call('POST', '/v1/charges', { amount: 103, method: 'pix' }, { 'idempotency-key': 'late-1' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await call('GET', '/v1/charges?reference=late-1')).body.data).toHaveLength(0);
    expect(psp.actOnQueued()).toBe(1);
    expect((await pending).status).toBe(201);

    psp.behaviour = { honourIdempotencyKeys: false };
    const first = await call('POST', '/v1/charges', { amount: 104, method: 'pix' }, { 'idempotency-key': 'twice-1' });
    const second = await call('POST', '/v1/charges', { amount: 104, method: 'pix' }, { 'idempotency-key': 'twice-1' });
    expect(second.body.id).not.toBe(first.body.id);
    psp.behaviour = {};
  });

  it('answers a body that is not JSON with 400 and an unknown QR image with 404', async () => {
    const response = await fetch(`${psp.url}/v1/charges`, { method: 'POST', headers: { authorization: 'Bearer sk-unit' }, body: '{not json' });
    expect(response.status).toBe(400);
    expect((await fetch(`${psp.url}/v1/charges/ch_nothing/qr.png`)).status).toBe(404);
  });
});

describe('what it keeps whole (wholeRecords), so a load test does not grow it without bound', () => {
  let small: SandboxPsp;
  beforeAll(async () => {
    small = await new SandboxPsp({ settleDelayMs: 10, wholeRecords: 3 }).start();
  });
  afterAll(async () => {
    await small?.stop();
  });
  const on = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => callAs(small, 'sk-small', method, path, body, headers);
  const charge = async (body: Record<string, unknown>, headers: Record<string, string> = {}) => (await on('POST', '/v1/charges', body, headers)).body;

  it('keeps the latest charges whole; an older one keeps its id, amount, method and status, canceled if it was pending', async () => {
    const pending = await charge({ amount: 1000, method: 'pix' }, { 'idempotency-key': 'old-1' });
    const paid = await charge({ amount: 2000, method: 'pix' });
    await on('POST', `/v1/charges/${paid.id}/pay`);
    const image = await fetch(pending.pix.qrCodeUrl);
    expect(image.status).toBe(200);
    await image.arrayBuffer();
    const newer = [await charge({ amount: 300, method: 'boleto' }), await charge({ amount: 400, method: 'pix' }), await charge({ amount: 500, method: 'pix' })];

    expect((await on('GET', `/v1/charges/${pending.id}`)).body).toEqual({
      id: pending.id,
      amount: 1000,
      method: 'pix',
      status: 'canceled',
      refundedAmount: 0,
      forgotten: true,
    });
    expect((await on('GET', `/v1/charges/${paid.id}`)).body).toEqual({
      id: paid.id,
      amount: 2000,
      method: 'pix',
      status: 'paid',
      refundedAmount: 0,
      forgotten: true,
    });
    for (const whole of newer) expect((await on('GET', `/v1/charges/${whole.id}`)).body).toEqual(whole);

    // A canceled one says why it cannot be paid, and its image is gone; its key still finds it, and makes no second charge.
    const payment = await on('POST', `/v1/charges/${pending.id}/pay`);
    expect([payment.status, payment.body.error.message]).toEqual([
      409,
      'charge is canceled, only a pending charge can be paid: the sandbox cancels a pending charge when its PIX expires, or once 3 newer charges were made (SANDBOX_WHOLE_RECORDS)',
    ]);
    expect((await on('POST', `/v1/charges/${paid.id}/pay`)).body.error.message).toBe('charge is paid, only a pending charge can be paid');
    expect((await fetch(pending.pix.qrCodeUrl)).status).toBe(404);
    const forgotten = { id: pending.id, amount: 1000, method: 'pix', status: 'canceled', refundedAmount: 0, forgotten: true };
    expect((await on('GET', '/v1/charges?reference=old-1')).body.data).toEqual([forgotten]);
    const again = await on('POST', '/v1/charges', { amount: 1000, method: 'pix' }, { 'idempotency-key': 'old-1' });
    expect([again.status, again.body]).toEqual([200, forgotten]);

    // A paid one is still refunded, and still counts in the balance.
    expect((await on('POST', `/v1/charges/${paid.id}/refunds`, { amount: 500 })).body).toMatchObject({ chargeId: paid.id, amount: 500 });
    expect((await on('GET', `/v1/charges/${paid.id}`)).body).toMatchObject({ status: 'paid', refundedAmount: 500 });
    expect((await on('GET', '/v1/balance')).body).toEqual({ available: 1500, pending: 0, currency: 'BRL' });
    // Another merchant's key finds none of it.
    expect((await on('GET', `/v1/charges/${paid.id}`, undefined, { authorization: 'Bearer sk-other' })).status).toBe(404);
  });

  it('keeps the latest payouts whole once settled, and the balance still takes the older ones out', async () => {
    const other = { authorization: 'Bearer sk-small-payouts' };
    const received = (await on('POST', '/v1/charges', { amount: 10_000, method: 'pix' }, other)).body;
    await on('POST', `/v1/charges/${received.id}/pay`, undefined, other);
    const payouts = [];
    for (const amount of [100, 200, 300, 400]) {
      const key = { ...other, 'idempotency-key': `saque-${amount}` };
      payouts.push((await on('POST', '/v1/withdrawals', { amount, pixKey: amount === 100 ? SANDBOX_FAILING_PIX_KEY : 'ana@example.com' }, key)).body);
      await new Promise((resolve) => setTimeout(resolve, 40));
    }
    expect((await on('GET', `/v1/withdrawals/${payouts[0].id}`, undefined, other)).body).toEqual({
      id: payouts[0].id,
      amount: 100,
      status: 'failed',
      failureReason: SANDBOX_FAILURE_REASON,
      forgotten: true,
    });
    expect((await on('GET', '/v1/withdrawals?reference=saque-100', undefined, other)).body.data).toEqual([
      { id: payouts[0].id, amount: 100, status: 'failed', failureReason: SANDBOX_FAILURE_REASON, forgotten: true },
    ]);
    expect((await on('GET', `/v1/withdrawals/${payouts[3].id}`, undefined, other)).body).toMatchObject({ status: 'paid', pixKey: 'ana@example.com' });
    expect((await on('GET', '/v1/balance', undefined, other)).body.available).toBe(10_000 - 200 - 300 - 400);
  });

  it('never charges a card twice for one key, however old the charge', async () => {
    const token = (await on('POST', '/v1/card-tokens', { number: SANDBOX_TEST_CARDS.approved, expMonth: 12, expYear: 2031, cvv: '123', holderName: 'Ana' }))
      .body.token as string;
    const cardId = (await on('POST', '/v1/cards', { token })).body.id as string;
    const paid = await charge({ amount: 4200, method: 'card', cardId }, { 'idempotency-key': 'pedido-card' });
    for (const amount of [1, 2, 3]) await charge({ amount, method: 'pix' });
    const again = await on('POST', '/v1/charges', { amount: 4200, method: 'card', cardId }, { 'idempotency-key': 'pedido-card' });
    expect([again.status, again.body]).toEqual([200, { id: paid.id, amount: 4200, method: 'card', status: 'paid', refundedAmount: 0, forgotten: true }]);
  });

  it('forgets the oldest card past the limit (cards are kept in memory only)', async () => {
    const token = async () =>
      (await on('POST', '/v1/card-tokens', { number: SANDBOX_TEST_CARDS.approved, expMonth: 12, expYear: 2031, cvv: '123', holderName: 'Maria Souza' })).body
        .token as string;
    const oldest = await token();
    const saved = (await on('POST', '/v1/cards', { token: await token() })).body.id as string;
    await token();
    expect((await on('POST', '/v1/cards', { token: oldest })).body.error.message).toBe('unknown card token');
    expect((await charge({ amount: 900, method: 'card', cardId: saved })).status).toBe('paid');
  });
});

describe('PIX expiry (pixTtlMs)', () => {
  let brief: SandboxPsp;
  beforeAll(async () => {
    brief = await new SandboxPsp({ pixTtlMs: 100 }).start();
  });
  afterAll(async () => {
    await brief?.stop();
  });
  const at = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => callAs(brief, 'sk-brief', method, path, body, headers);

  it('cancels a pending PIX charge past its expiry when next read, and says why it cannot be paid; a paid one stays paid', async () => {
    const expiring = (await at('POST', '/v1/charges', { amount: 800, method: 'pix' }, { 'idempotency-key': 'pix-brief' })).body;
    const paid = (await at('POST', '/v1/charges', { amount: 900, method: 'pix' })).body;
    const boleto = (await at('POST', '/v1/charges', { amount: 1000, method: 'boleto' })).body;
    expect(Date.parse(expiring.pix.expiresAt) - Date.parse(expiring.createdAt)).toBe(100);
    await at('POST', `/v1/charges/${paid.id}/pay`);
    await new Promise((resolve) => setTimeout(resolve, 150));

    expect((await at('GET', `/v1/charges/${expiring.id}`)).body.status).toBe('canceled');
    expect((await at('GET', '/v1/charges?reference=pix-brief')).body.data.map((charge: { status: string }) => charge.status)).toEqual(['canceled']);
    const payment = await at('POST', `/v1/charges/${expiring.id}/pay`);
    expect([payment.status, payment.body.error.message]).toEqual([
      409,
      `charge is canceled, only a pending charge can be paid: its PIX expired at ${expiring.pix.expiresAt}`,
    ]);
    expect((await at('GET', `/v1/charges/${paid.id}`)).body.status).toBe('paid');
    expect((await at('GET', `/v1/charges/${boleto.id}`)).body.status).toBe('pending');
  });
});
