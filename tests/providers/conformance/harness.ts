import { afterAll, afterEach, beforeAll, beforeEach, expect, it, jest } from '@jest/globals';
import { pino } from 'pino';
import type { TransactionInput } from '../../../server/domain/types.js';
import { GatewayError } from '../../../server/lib/errors.js';
import { resetCircuitBreakers } from '../../../server/lib/http/index.js';
import { CATALOGUE, FAILURE_PREFIXES, type CatalogueKey } from '../../../server/lib/providerMessages.js';
import { OPERATIONS, type Operation } from '../../../server/domain/types.js';
import type { AdapterContext, ProviderAdapter } from '../../../server/providers/adapter.js';
import type { Logger } from '../../../server/lib/logger.js';
import { GARBAGE_2XX_BODIES, startFakeProvider, type FakeProvider, type FakeProviderOptions } from '../../support/fakeProvider.js';

/**
 * What every conformance suite shares: a fake provider on loopback, a fresh
 * account context and adapter per test, a captured warning log, and the
 * assertions a failure or a notification needs. A suite calls `providerHarness`
 * once at the top of its describe block.
 */
export interface Harness<A extends ProviderAdapter> {
  readonly fake: FakeProvider;
  readonly adapter: A;
  readonly ctx: AdapterContext;
  readonly warn: jest.Mock;
}

export const NOW = new Date('2025-03-10T12:00:00.000Z');

/** The call timeout of the tests about a provider that answers too late: short, so they are quick. */
export const TIMEOUT_MS = 3_000;
/**
 * The call timeout of every other test: a test that expects an answer must not fail because a loaded machine
 * (2 cores, several suites at once) took seconds to hand a prompt answer over; only the tests about lateness (their
 * names say timeout, late or "in time") wait for TIMEOUT_MS to pass.
 */
export const PROMPT_TIMEOUT_MS = 30_000;
const ABOUT_LATENESS = /time ?out|\blate\b|in time/i;
/** A canned answer this late is past the timeout. */
export const LATE_MS = TIMEOUT_MS + 1_000;
export const TIMEOUT_TEXT = `timeout of ${TIMEOUT_MS}ms exceeded`;

export function providerHarness<A extends ProviderAdapter>(options: {
  tls?: FakeProviderOptions['tls'];
  /** Builds the adapter for one test; runtime knobs: a fixed clock, a short timeout, a captured logger. */
  create: (runtime: { now: () => Date; timeoutMs: number; logger: Logger; retry: false | undefined; ca?: string }) => A;
  /** The account: keys and certificate URLs (mTLS families). */
  account: (fake: FakeProvider) => Omit<AdapterContext, 'accountId' | 'baseUrl' | 'notificationUrl'>;
  /** GET retries stay on (the default) unless a suite turns them off. */
  retry?: false;
}): Harness<A> {
  const state = {} as { fake: FakeProvider; adapter: A; ctx: AdapterContext; warn: jest.Mock };
  let accountNumber = 0;
  beforeAll(async () => {
    state.fake = await startFakeProvider({ tls: options.tls });
  });
  afterAll(() => state.fake.close());
  beforeEach(() => {
    resetCircuitBreakers();
    // A real (silent) logger, so the HTTP toolkit can use it too; the adapter's warnings are what the tests read.
    const logger = pino({ level: 'silent' });
    state.warn = jest.spyOn(logger, 'warn').mockImplementation(() => undefined) as unknown as jest.Mock;
    const timeoutMs = ABOUT_LATENESS.test(expect.getState().currentTestName ?? '') ? TIMEOUT_MS : PROMPT_TIMEOUT_MS;
    state.adapter = options.create({ now: () => NOW, timeoutMs, logger, retry: options.retry, ca: state.fake.ca });
    accountNumber += 1;
    state.ctx = {
      accountId: `acc-${accountNumber}`,
      baseUrl: state.fake.url,
      notificationUrl: `http://127.0.0.1:8081/webhooks/${state.adapter.identity.id}/acc-${accountNumber}`,
      ...options.account(state.fake),
    };
  });
  afterEach(() => {
    try {
      state.fake.assertAllDone();
    } finally {
      state.fake.reset();
    }
  });
  return {
    get fake() {
      return state.fake;
    },
    get adapter() {
      return state.adapter;
    },
    get ctx() {
      return state.ctx;
    },
    get warn() {
      return state.warn;
    },
  };
}

/** The failure of a call as a GatewayError's code and message (fails the test when it succeeds or throws anything else). */
export async function failure(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(GatewayError);
    return { code: (error as GatewayError).code, message: (error as GatewayError).message };
  }
  throw new Error('expected a failure');
}

/** The text a failed operation shows: the declared fixed text, else '<prefix>: <provider message>'. */
export const failureText = (fixed: CatalogueKey | undefined, prefix: string, providerText: string): string =>
  fixed ? CATALOGUE[fixed].message : `${prefix}: ${providerText}`;

export const notification = (body: unknown) => ({
  body: Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)),
  headers: { 'content-type': 'application/json' },
});

/** A PIX charge of R$ 19,90 with nothing optional: no customer, items or order id (for the pure mappers' tests). */
export const bareTransactionInput = (extra: Partial<TransactionInput> = {}): TransactionInput => ({
  amount: 1990,
  paymentMethod: 'PIX',
  items: [],
  installments: 1,
  fingerPrints: [],
  splits: [],
  currency: 'BRL',
  ...extra,
});

/** A PIX charge of R$ 19,90 with a customer, one item and an order id. */
export const transactionInput = (extra: Partial<TransactionInput> = {}): TransactionInput => ({
  amount: 1990,
  paymentMethod: 'PIX',
  customer: { name: 'Ana Souza', email: 'ana@example.com', document: '123.456.789-09', phone: '(11) 98765-4321' },
  items: [{ id: 'sku-1', title: 'Curso', unitPrice: 1990, quantity: 1, tangible: false }],
  orderId: 'order-77',
  installments: 1,
  fingerPrints: [],
  splits: [],
  currency: 'BRL',
  ...extra,
});

/**
 * Every operation the adapter does not offer rejects with the spec's text, as a
 * promise, and sends nothing: 'Method not implemented.', or the provider's own
 * text where the spec gives one (`own`, e.g. Payber's withdraw).
 */
export async function expectUnsupportedOperationsRejected(
  adapter: ProviderAdapter,
  ctx: AdapterContext,
  fake: FakeProvider,
  own: Partial<Record<Operation, CatalogueKey>> = {},
): Promise<void> {
  const offered = new Set<Operation>(adapter.operations);
  for (const operation of OPERATIONS.filter((op) => !offered.has(op))) {
    const call = (adapter[operation] as (...args: unknown[]) => Promise<unknown>).bind(adapter);
    let pending: Promise<unknown> | undefined;
    expect(() => {
      pending = call(ctx, {}, 0);
    }).not.toThrow();
    const key = own[operation];
    await expect(pending).rejects.toMatchObject({ code: 'UNIMPLEMENTED', message: key ? CATALOGUE[key].message : 'Method not implemented.' });
  }
  expect(fake.received).toHaveLength(0);
}

const COMMON_PREFIXES: Partial<Record<Operation, string>> = {
  createTransaction: FAILURE_PREFIXES.CREATE_TRANSACTION,
  getTransaction: FAILURE_PREFIXES.GET_TRANSACTION,
  refoundTransaction: FAILURE_PREFIXES.REFUND_TRANSACTION,
  withdraw: FAILURE_PREFIXES.WITHDRAW,
  getWithdraw: FAILURE_PREFIXES.GET_WITHDRAW,
  createReceiver: FAILURE_PREFIXES.CREATE_RECEIVER,
  getReceiver: FAILURE_PREFIXES.GET_RECEIVER,
  getAccountBalance: FAILURE_PREFIXES.GET_ACCOUNT_BALANCE,
};

/**
 * A bespoke adapter's calls, each answered 2xx with a body that is not the
 * resource (GARBAGE_2XX_BODIES): UNAVAILABLE under the operation's common
 * prefix, never a status. `route` is 'METHOD /path'; `before` sets up what the
 * call needs first (a login).
 */
export function itRefusesGarbageAnswers<A extends ProviderAdapter>(
  h: Harness<A>,
  calls: Array<[operation: Operation, route: string, run: () => Promise<unknown>]>,
  before: (operation: Operation) => void = () => undefined,
): void {
  const cases = calls.flatMap(([operation, route, run]) => GARBAGE_2XX_BODIES.map(([label, body]) => [operation, route, label, body, run] as const));
  it.each(cases)('%s (%s) answered with %s', async (operation, route, _label, body, run) => {
    before(operation);
    const [method, path] = route.split(' ');
    h.fake.expect({ method: method!, path: path!, reply: { status: 200, body } });
    const { code, message } = await failure(run());
    expect([code, message.startsWith(`${COMMON_PREFIXES[operation]}: `)]).toEqual(['UNAVAILABLE', true]);
  });
}
