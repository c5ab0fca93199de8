import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import pg from 'pg';
import { ListAuditEventsRequest } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { CalculateInstallmentsRequest } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { InstallmentPlan } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { Operation } from '../../gen/ts-proto/gateway/v1/types.js';
import { errorDetailsOf, failureOf } from '../support/clients.js';
import { startTestStack, type TestStack } from '../support/gateway.js';

let stack: TestStack;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.close());

interface Option {
  installmentNumber: number;
  installmentValue: number;
  finalValue: number;
  lastInstallmentValue: number;
}

const PLAN = { maxInstallments: 6, interestFreeInstallments: 3, feePercentByInstallment: [0, 0, 0, 2.5, 3, 3.49], minInstallmentValue: 500 };

const createAccount = (provider: string, extra: Record<string, unknown> = {}) =>
  stack.client.call('accounts', 'createProviderAccount', {
    provider,
    name: `${provider} installments`,
    publicKey: 'pk',
    secretKey: 'sk-installments',
    ...extra,
  });

const quote = async (providerAccountId: string, amount: number, cardBin?: string): Promise<Option[]> =>
  (await stack.client.call('gateway', 'calculateInstallments', CalculateInstallmentsRequest.fromPartial({ providerAccountId, amount, cardBin }))).options;

const addsUp = (o: Option) => (o.installmentNumber - 1) * o.installmentValue + o.lastInstallmentValue === o.finalValue;

describe('CalculateInstallments at a card provider that quotes none itself: from the account’s plan', () => {
  it('is listed as offered by every provider that takes cards, and not by one that does not; the plan is taken where the gateway quotes', async () => {
    const { providers } = await stack.client.call('gateway', 'listProviders', {});
    const infoOf = (id: string) => providers.find((p: { id: string }) => p.id === id);
    expect(infoOf('PAGUESAFE')).toMatchObject({ takesInstallmentPlan: true, operations: expect.arrayContaining([Operation.OPERATION_CALCULATE_INSTALLMENTS]) });
    expect(infoOf('SANDBOX')).toMatchObject({ takesInstallmentPlan: false, operations: expect.arrayContaining([Operation.OPERATION_CALCULATE_INSTALLMENTS]) });
    expect(infoOf('SYNCPAY').takesInstallmentPlan).toBe(false);
    expect(infoOf('SYNCPAY').operations).not.toContain(Operation.OPERATION_CALCULATE_INSTALLMENTS);
  });

  it('stores the plan on the account and quotes from it: fee after the interest-free counts, minimum cutting the count, the last installment absorbing the cents', async () => {
    const { providerAccount } = await createAccount('PAGUESAFE', { installmentPlan: PLAN });
    expect(providerAccount.installmentPlan).toEqual(PLAN);
    expect((await stack.client.call('accounts', 'getProviderAccount', { id: providerAccount.id })).providerAccount.installmentPlan).toEqual(PLAN);

    const options = await quote(providerAccount.id, 1999);
    expect(options).toEqual([
      { installmentNumber: 1, installmentValue: 1999, finalValue: 1999, lastInstallmentValue: 1999 },
      { installmentNumber: 2, installmentValue: 1000, finalValue: 1999, lastInstallmentValue: 999 },
      { installmentNumber: 3, installmentValue: 666, finalValue: 1999, lastInstallmentValue: 667 },
      // 1999 + 2.5% = 2048.975, rounded 2049: 512, 512, 512, 513.
      { installmentNumber: 4, installmentValue: 512, finalValue: 2049, lastInstallmentValue: 513 },
      // 5 (2059 / 5 = 411.80) and 6 fall under the 500 minimum.
    ]);
    expect(options.every(addsUp)).toBe(true);

    const { rows } = await withDatabase((db) => db.query('select installment_plan from provider_accounts where id = $1', [providerAccount.id]));
    expect(rows[0].installment_plan).toEqual(PLAN);
  });

  it('offers one installment without a fee where the account has no plan; a plan set later is quoted at once, and an empty plan removes it', async () => {
    const { providerAccount } = await createAccount('PAGUESAFE');
    expect(providerAccount.installmentPlan).toBeUndefined();
    expect(await quote(providerAccount.id, 1999)).toEqual([{ installmentNumber: 1, installmentValue: 1999, finalValue: 1999, lastInstallmentValue: 1999 }]);

    const interestFree = { maxInstallments: 3, interestFreeInstallments: 3, feePercentByInstallment: [], minInstallmentValue: 0 };
    const { providerAccount: updated } = await stack.client.call('accounts', 'updateProviderAccount', {
      id: providerAccount.id,
      installmentPlan: interestFree,
    });
    expect(updated.installmentPlan).toEqual(interestFree);
    expect((await quote(providerAccount.id, 1999)).map((o) => [o.installmentValue, o.lastInstallmentValue])).toEqual([
      [1999, 1999],
      [1000, 999],
      [666, 667],
    ]);

    const { providerAccount: renamed } = await stack.client.call('accounts', 'updateProviderAccount', { id: providerAccount.id, name: 'renamed' });
    expect(renamed.installmentPlan).toEqual(interestFree);

    const { providerAccount: cleared } = await stack.client.call('accounts', 'updateProviderAccount', {
      id: providerAccount.id,
      installmentPlan: InstallmentPlan.fromPartial({}),
    });
    expect(cleared.installmentPlan).toBeUndefined();
    expect(await quote(providerAccount.id, 1999)).toHaveLength(1);
  });

  it('audits the plan’s changes like any other account change', async () => {
    const { providerAccount } = await createAccount('PAGUESAFE');
    await stack.client.call('accounts', 'updateProviderAccount', { id: providerAccount.id, installmentPlan: PLAN });
    await failureOf(stack.client.call('accounts', 'updateProviderAccount', { id: providerAccount.id, installmentPlan: { ...PLAN, maxInstallments: 30 } }));
    const { events } = await stack.client.call(
      'access',
      'listAuditEvents',
      ListAuditEventsRequest.fromPartial({ action: 'gateway.v1.ProviderAccountService/UpdateProviderAccount' }),
    );
    const mine = events.filter((e: { resource: string }) => e.resource === providerAccount.id);
    expect(mine.map((e: { outcome: string; detail: string }) => [e.outcome, e.detail])).toEqual([
      ['INVALID_ARGUMENT', 'installment_plan.max_installments must be a whole number from 1 to 24, got 30'],
      ['OK', ''],
    ]);
  });

  it('keeps SANDBOX’s own quote, and says its last installment so that its options add up too', async () => {
    const { providerAccount } = await createAccount('SANDBOX', { webhookSecret: 'whsec-installments' });
    const options = await quote(providerAccount.id, 1999);
    // The fake PSP's rules (12 at most, 3 interest-free, then 4.99 % for 4, 5.00 minimum): 1999 reaches 4 installments.
    expect(options).toEqual([
      { installmentNumber: 1, installmentValue: 1999, finalValue: 1999, lastInstallmentValue: 1999 },
      { installmentNumber: 2, installmentValue: 1000, finalValue: 1999, lastInstallmentValue: 999 },
      { installmentNumber: 3, installmentValue: 666, finalValue: 1999, lastInstallmentValue: 667 },
      { installmentNumber: 4, installmentValue: 525, finalValue: 2099, lastInstallmentValue: 524 },
    ]);
    expect((await quote(providerAccount.id, 100000)).every(addsUp)).toBe(true);
  });
});

describe('a plan that cannot be honoured is refused, naming the field', () => {
  const refusals: [string, Record<string, unknown>, string, string][] = [
    [
      'too many installments',
      { ...PLAN, maxInstallments: 25 },
      'installment_plan.max_installments',
      'installment_plan.max_installments must be a whole number from 1 to 24, got 25',
    ],
    [
      'more interest-free counts than counts',
      { ...PLAN, interestFreeInstallments: 7 },
      'installment_plan.interest_free_installments',
      'installment_plan.interest_free_installments must be a whole number from 0 to max_installments (6), got 7',
    ],
    [
      'a fee missing',
      { ...PLAN, feePercentByInstallment: [0, 0, 0, 2.5] },
      'installment_plan.fee_percent_by_installment',
      'installment_plan.fee_percent_by_installment must have one fee per count from 1 to max_installments (6 entries, 0 for the interest-free ones), got 4',
    ],
    [
      'a fee on an interest-free count',
      { ...PLAN, feePercentByInstallment: [0, 0, 1.5, 2.5, 3, 3.49] },
      'installment_plan.fee_percent_by_installment',
      'installment_plan.fee_percent_by_installment for 3 installments must be 0: counts up to interest_free_installments (3) carry no fee, got 1.5',
    ],
    [
      'a negative minimum',
      { ...PLAN, minInstallmentValue: -100 },
      'installment_plan.min_installment_value',
      'installment_plan.min_installment_value must be a whole number of cents, 0 or more, got -100',
    ],
  ];
  it.each(refusals)('refuses %s, at creation and on an update', async (_name, plan, field, message) => {
    expect(await failureOf(createAccount('PAGUESAFE', { installmentPlan: plan }))).toEqual({ code: 'INVALID_ARGUMENT', message });
    expect((await errorDetailsOf(createAccount('PAGUESAFE', { installmentPlan: plan }))).fields).toEqual([field]);
    const { providerAccount } = await createAccount('PAGUESAFE');
    expect(await failureOf(stack.client.call('accounts', 'updateProviderAccount', { id: providerAccount.id, installmentPlan: plan }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message,
    });
    expect((await stack.client.call('accounts', 'getProviderAccount', { id: providerAccount.id })).providerAccount.installmentPlan).toBeUndefined();
  });

  it('removes a plan only when the update’s plan is wholly empty: max_installments 0 with anything else set is refused', async () => {
    const { providerAccount } = await createAccount('PAGUESAFE', { installmentPlan: PLAN });
    const halfEmpty = InstallmentPlan.fromPartial({ minInstallmentValue: 500 });
    expect(await failureOf(stack.client.call('accounts', 'updateProviderAccount', { id: providerAccount.id, installmentPlan: halfEmpty }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'installment_plan.max_installments must be a whole number from 1 to 24, got 0',
    });
    expect((await stack.client.call('accounts', 'getProviderAccount', { id: providerAccount.id })).providerAccount.installmentPlan).toEqual(PLAN);
  });

  it('refuses a plan at a provider that does not take cards, and at one that quotes its own installments', async () => {
    expect(await failureOf(createAccount('SYNCPAY', { installmentPlan: PLAN }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'SYNCPAY does not take cards (CREDIT_CARD): installment_plan is not taken',
    });
    expect(await failureOf(createAccount('SANDBOX', { installmentPlan: PLAN }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'SANDBOX quotes its own installments: installment_plan is not taken',
    });
    expect(await failureOf(createAccount('MERCADOPAGO', { installmentPlan: PLAN }))).toEqual({
      code: 'INVALID_ARGUMENT',
      message: 'MERCADOPAGO quotes its own installments: installment_plan is not taken',
    });
    const { providers } = await stack.client.call('gateway', 'listProviders', {});
    expect(providers.find((p: { id: string }) => p.id === 'MERCADOPAGO')).toMatchObject({
      takesInstallmentPlan: false,
      operations: expect.arrayContaining([Operation.OPERATION_CALCULATE_INSTALLMENTS]),
    });
  });

  it('checks card_bin (6 to 8 digits) at a provider quoted from the plan, and otherwise leaves the plan’s quote as it is', async () => {
    const { providerAccount } = await createAccount('PAGUESAFE', { installmentPlan: PLAN });
    expect(await quote(providerAccount.id, 1999, '41111111')).toEqual(await quote(providerAccount.id, 1999));
    for (const cardBin of ['41111', '411111111', '4111 11', 'undefined']) {
      expect(await failureOf(quote(providerAccount.id, 1999, cardBin))).toEqual({
        code: 'INVALID_ARGUMENT',
        message: `card_bin must be the card's first 6 to 8 digits, digits only (got ${cardBin.length} characters)`,
      });
    }
  });

  it('still refuses CalculateInstallments at a provider that does not take cards', async () => {
    const { providerAccount } = await createAccount('SYNCPAY');
    expect(await failureOf(quote(providerAccount.id, 1999))).toEqual({ code: 'UNIMPLEMENTED', message: 'Method not implemented.' });
  });
});

async function withDatabase<T>(use: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: stack.database.url });
  await db.connect();
  try {
    return await use(db);
  } finally {
    await db.end();
  }
}
