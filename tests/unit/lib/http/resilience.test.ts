import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { CanceledError } from 'axios';
import { isProviderOutage, isRetryableRead } from '../../../../server/lib/http/resilience.js';
import { circuitStates, createProviderHttp, type HttpAccount, type ProviderHttpDeclaration } from '../../../../server/lib/http/index.js';
import { MAX_PROVIDER_URL_LENGTH } from '../../../../server/lib/http/providerHttp.js';
import { closedPort } from '../../../support/closedPort.js';
import { startFakeProvider, type FakeProvider } from '../../../support/fakeProvider.js';

const quiet = pino({ level: 'silent' });
let fake: FakeProvider;
const account = (baseUrl = fake.url): HttpAccount => ({ accountId: `acc-${randomUUID()}`, publicKey: 'pk', secretKey: 'sk', baseUrl });
const fast: ProviderHttpDeclaration = { auth: { type: 'bearer' }, retry: { retries: 2, initialDelayMs: 5, maxDelayMs: 20 }, logger: quiet };
const http = (declaration: ProviderHttpDeclaration = {}, ctx = account()) => createProviderHttp({ ...fast, ...declaration, ctx });
const outage = { status: 503, body: { message: 'em manutenção' } };

beforeAll(async () => {
  fake = await startFakeProvider();
});
afterEach(() => {
  try {
    fake.assertAllDone();
  } finally {
    fake.reset();
  }
});
afterAll(() => fake.close());

describe('retries', () => {
  it('a GET is retried after a 503 and then succeeds', async () => {
    fake.expect({ method: 'GET', path: '/transactions/t1', reply: outage });
    fake.expect({ method: 'GET', path: '/transactions/t1', reply: { body: { id: 't1', status: 'paid' } } });
    const { data } = await http().get('/transactions/t1');
    expect(data).toEqual({ id: 't1', status: 'paid' });
  });

  it('a GET gives up after its retries with UNAVAILABLE and the provider message', async () => {
    const attempts = fake.expect({ method: 'GET', path: '/transactions/t2', times: 3, reply: outage });
    await expect(http().get('/transactions/t2', { errorPrefix: 'Erro ao buscar transação' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Erro ao buscar transação: em manutenção',
    });
    expect(attempts.calls).toHaveLength(3);
  });

  it('a GET is retried after a dropped connection', async () => {
    fake.expect({ method: 'GET', path: '/withdrawals/w1', reply: { dropConnection: true } });
    fake.expect({ method: 'GET', path: '/withdrawals/w1', reply: { body: { id: 'w1' } } });
    await expect(http().get('/withdrawals/w1')).resolves.toMatchObject({ data: { id: 'w1' } });
  });

  it('a POST whose connection drops is not retried: UNAVAILABLE with the prefix', async () => {
    fake.expect({ method: 'POST', path: '/withdrawals', reply: { dropConnection: true } });
    await expect(http().post('/withdrawals', { amount: 100 }, { errorPrefix: 'Erro ao realizar saque' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/^Erro ao realizar saque: socket hang up/),
    });
  });

  it('a GET to a refused port is UNAVAILABLE with the prefix', async () => {
    const ctx = account(`http://127.0.0.1:${await closedPort()}`);
    const error = await http({}, ctx)
      .get('/x', { errorPrefix: 'Erro ao buscar saque' })
      .catch((failure: unknown) => failure);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', message: 'Erro ao buscar saque: connection refused' });
  });

  it('a GET answered 4xx is not retried and keeps the provider message', async () => {
    fake.expect({ method: 'GET', path: '/transactions/nope', reply: { status: 404, body: { error: { message: 'Transação não encontrada' } } } });
    await expect(http().get('/transactions/nope', { errorPrefix: 'Erro ao buscar transação' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Erro ao buscar transação: Transação não encontrada',
    });
  });

  it.each(['post', 'put', 'delete'] as const)('%s is never retried: one 503, UNAVAILABLE with the prefixed message', async (method) => {
    fake.expect({ method, path: '/transactions', reply: outage });
    const client = http();
    const call =
      method === 'delete'
        ? client.delete('/transactions', { body: { amount: 100 }, errorPrefix: 'Erro ao criar transação' })
        : client[method]('/transactions', { amount: 100 }, { errorPrefix: 'Erro ao criar transação' });
    await expect(call).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: em manutenção',
      details: { reason: 'PROVIDER_UNAVAILABLE' },
    });
    expect(fake.received).toHaveLength(1);
  });
});

describe('timeouts', () => {
  // Timeouts of a second against answers 5 s late: on a loaded machine a request can take far more than the 150 ms
  // these tests once allowed just to reach the fake, and a timeout that fires before it arrives shows nothing.
  it('a provider slower than the timeout is UNAVAILABLE, not a pending charge, and is not retried', async () => {
    fake.expect({ method: 'POST', path: '/pix', reply: { status: 201, body: { status: 'pending' }, delayMs: 5_000 } });
    await expect(http({ timeoutMs: 1_000 }).post('/pix', { amount: 1 }, { errorPrefix: 'Erro ao criar transação' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: timeout of 1000ms exceeded',
    });
  });

  it('a GET that times out is not retried either: the time budget is spent', async () => {
    fake.expect({ method: 'GET', path: '/slow', reply: { delayMs: 5_000 } });
    await expect(http({ timeoutMs: 1_000 }).get('/slow')).rejects.toMatchObject({ code: 'ECONNABORTED' });
    expect(fake.received).toHaveLength(1);
  });

  it('a per-request timeout overrides the client default', async () => {
    fake.expect({ method: 'GET', path: '/slowish', reply: { delayMs: 300, body: { ok: true } } });
    const { data } = await http({ timeoutMs: 100 }).get('/slowish', { timeoutMs: 10_000 });
    expect(data).toEqual({ ok: true });
  });
});

describe('circuit breaker per account', () => {
  const breaker = { retry: false as const, breaker: { consecutiveFailures: 3, halfOpenAfterMs: 60_000 } };

  it('opens after repeated outages and then fails fast without calling the provider', async () => {
    const ctx = account();
    fake.expect({ method: 'POST', path: '/transactions', times: 3, reply: outage });
    for (let i = 0; i < 3; i++) {
      await expect(http(breaker, ctx).post('/transactions', {}, { errorPrefix: 'Erro ao criar transação' })).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    }
    // Fails fast: refused without a request (the provider still saw only the 3), not timed, which a loaded machine can stretch.
    await expect(http(breaker, ctx).post('/transactions', {}, { errorPrefix: 'Erro ao criar transação' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: 'Erro ao criar transação: provider temporarily unavailable (circuit open after repeated failures)',
      details: { reason: 'PROVIDER_CIRCUIT_OPEN' },
    });
    await expect(http(breaker, ctx).get('/transactions/1', { errorPrefix: 'Erro ao buscar transação' })).rejects.toMatchObject({
      message: /^Erro ao buscar transação: provider temporarily unavailable/,
    });
    expect(fake.received).toHaveLength(3);

    // Another account on the same provider host keeps working.
    fake.expect({ method: 'POST', path: '/transactions', reply: { status: 201, body: { id: 'ok' } } });
    await expect(http(breaker).post('/transactions', {})).resolves.toMatchObject({ status: 201 });
  });

  it('provider rejections (4xx) do not open it', async () => {
    const ctx = account();
    fake.expect({ method: 'POST', path: '/transactions', times: 4, reply: { status: 422, body: { message: 'CPF inválido' } } });
    for (let i = 0; i < 4; i++) {
      await expect(http(breaker, ctx).post('/transactions', {}, { errorPrefix: 'Erro ao criar transação' })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: 'Erro ao criar transação: CPF inválido',
      });
    }
    fake.expect({ method: 'POST', path: '/transactions', reply: { status: 201 } });
    await http(breaker, ctx).post('/transactions', {});
  });

  it('oversized input is refused before sending and does not open it', async () => {
    const ctx = account();
    const hugeId = 'x'.repeat(1_000_000);
    for (let i = 0; i < 5; i++) {
      await expect(http(breaker, ctx).get(`/transactions/${hugeId}`, { errorPrefix: 'Erro ao buscar transação' })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
        message: expect.stringMatching(/^Erro ao buscar transação: request URL too long for the provider/),
        details: { reason: 'PROVIDER_REQUEST_TOO_LARGE', outcome: 'failed' },
      });
    }
    expect(fake.received).toHaveLength(0);
    fake.expect({ method: 'GET', path: '/transactions/t9', reply: { body: { id: 't9' } } });
    await expect(http(breaker, ctx).get('/transactions/t9')).resolves.toMatchObject({ data: { id: 't9' } });
  });

  it('the URL length limit is exact at its edge: MAX_PROVIDER_URL_LENGTH characters go out, one more is refused', async () => {
    const ctx = account();
    // The path that makes the whole URL exactly `length` characters long.
    const pathOf = (length: number) => `/t/${'x'.repeat(length - ctx.baseUrl.length - 3)}`;
    const atLimit = pathOf(MAX_PROVIDER_URL_LENGTH);
    fake.expect({ method: 'GET', path: atLimit, reply: { body: { id: 'edge' } } });
    await expect(http({}, ctx).get(atLimit)).resolves.toMatchObject({ data: { id: 'edge' } });
    const justUnder = pathOf(MAX_PROVIDER_URL_LENGTH - 1);
    fake.expect({ method: 'GET', path: justUnder, reply: { body: { id: 'under' } } });
    await expect(http({}, ctx).get(justUnder)).resolves.toMatchObject({ data: { id: 'under' } });
    await expect(http({}, ctx).get(pathOf(MAX_PROVIDER_URL_LENGTH + 1))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: `request URL too long for the provider (${MAX_PROVIDER_URL_LENGTH + 1} characters, at most ${MAX_PROVIDER_URL_LENGTH}): an id or parameter is oversized`,
    });
    // Parameters count too.
    await expect(http({}, ctx).get('/t', { params: { q: 'x'.repeat(MAX_PROVIDER_URL_LENGTH) } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('after the pause one trial call goes through and a success closes it', async () => {
    const ctx = account();
    const shortPause = { retry: false as const, breaker: { consecutiveFailures: 2, halfOpenAfterMs: 100 } };
    fake.expect({ method: 'GET', path: '/health', times: 2, reply: outage });
    await http(shortPause, ctx)
      .get('/health')
      .catch(() => undefined);
    await http(shortPause, ctx)
      .get('/health')
      .catch(() => undefined);
    await expect(http(shortPause, ctx).get('/health', { errorPrefix: 'Erro ao buscar saque' })).rejects.toMatchObject({
      details: { reason: 'PROVIDER_CIRCUIT_OPEN' },
    });
    await sleep(150);
    fake.expect({ method: 'GET', path: '/health', times: 2, reply: { body: { up: true } } });
    await expect(http(shortPause, ctx).get('/health')).resolves.toMatchObject({ data: { up: true } });
    await expect(http(shortPause, ctx).get('/health')).resolves.toMatchObject({ data: { up: true } });
  });

  it('reports each circuit with its provider, account, host and state: closed, open, closed again after a good trial call', async () => {
    const ctx = account();
    const stateOf = () => circuitStates().filter((circuit) => circuit.accountId === ctx.accountId);
    const shortPause = { provider: 'ACME', retry: false as const, breaker: { consecutiveFailures: 2, halfOpenAfterMs: 100 } };
    expect(stateOf()).toEqual([]);
    fake.expect({ method: 'GET', path: '/health', times: 2, reply: outage });
    await http(shortPause, ctx)
      .get('/health')
      .catch(() => undefined);
    expect(stateOf()).toEqual([{ provider: 'ACME', accountId: ctx.accountId, origin: new URL(fake.url).origin, state: 'closed' }]);
    await http(shortPause, ctx)
      .get('/health')
      .catch(() => undefined);
    expect(stateOf()).toMatchObject([{ state: 'open' }]);
    await sleep(150);
    fake.expect({ method: 'GET', path: '/health', reply: { body: { up: true } } });
    await http(shortPause, ctx).get('/health');
    expect(stateOf()).toMatchObject([{ state: 'closed' }]);
  });

  it('without an errorPrefix the open circuit is thrown raw, for the adapter’s providerError', async () => {
    const ctx = account();
    fake.expect({ method: 'POST', path: '/w', times: 3, reply: outage });
    for (let i = 0; i < 3; i++)
      await http(breaker, ctx)
        .post('/w', {})
        .catch(() => undefined);
    await expect(http(breaker, ctx).post('/w', {})).rejects.toMatchObject({ name: 'ProviderCallError', code: 'UNAVAILABLE' });
  });
});

describe('a read its caller gave up on', () => {
  it('is neither retried nor counted against the circuit', () => {
    const canceled = new CanceledError();
    expect(isProviderOutage(canceled)).toBe(false);
    expect(isRetryableRead(canceled)).toBe(false);
  });
});
