import { describe, expect, it } from '@jest/globals';
import { calculateInstallments, installmentPlanFault, SINGLE_INSTALLMENT_RULES, type InstallmentRules } from '../../server/lib/installments.js';
import { SANDBOX_INSTALLMENT_RULES } from '../../server/sandbox/psp.js';

const interestFree = (maxInstallments: number, minInstallmentValue = 0): InstallmentRules => ({
  maxInstallments,
  interestFreeInstallments: maxInstallments,
  feePercentByInstallment: [],
  minInstallmentValue,
});

it('charges no fee up to the interest-free maximum, then the listed fee, and drops options under the minimum', () => {
  const options = calculateInstallments(10000, {
    maxInstallments: 4,
    interestFreeInstallments: 2,
    feePercentByInstallment: [0, 0, 3.5, 4.25],
    minInstallmentValue: 2700,
  });
  expect(options).toEqual([
    { installmentNumber: 1, installmentValue: 10000, finalValue: 10000, lastInstallmentValue: 10000 },
    { installmentNumber: 2, installmentValue: 5000, finalValue: 5000 * 2, lastInstallmentValue: 5000 },
    { installmentNumber: 3, installmentValue: 3450, finalValue: 10350, lastInstallmentValue: 3450 },
  ]);
});

describe('the installments add up to the final value exactly: the last one absorbs the cents', () => {
  // [amount, rules, count, installment, last, final]
  const cases: [string, number, InstallmentRules, number, number, number, number][] = [
    ['1999 in 3, rounded down: the last takes the cent over', 1999, interestFree(3), 3, 666, 667, 1999],
    ['2000 in 3, rounded up: the last is the cent short', 2000, interestFree(3), 3, 667, 666, 2000],
    ['1000 in 3', 1000, interestFree(3), 3, 333, 334, 1000],
    ['10000 in 7', 10000, interestFree(7), 7, 1429, 1426, 10000],
    ['an even split', 9000, interestFree(3), 3, 3000, 3000, 9000],
    [
      'with a fee: 1999 + 4.99% = 2099 (2098.75 rounded) in 4',
      1999,
      { maxInstallments: 4, interestFreeInstallments: 3, feePercentByInstallment: [0, 0, 0, 4.99], minInstallmentValue: 0 },
      4,
      525,
      524,
      2099,
    ],
    [
      'with a fee: 12345 + 10.99% = 13702 (13701.72 rounded) in 10, at SANDBOX rates',
      12345,
      { ...SANDBOX_INSTALLMENT_RULES, minInstallmentValue: 0 },
      10,
      1370,
      1372,
      13702,
    ],
  ];
  it.each(cases)('%s', (_name, amount, rules, count, installment, last, final) => {
    const option = calculateInstallments(amount, rules).find((o) => o.installmentNumber === count);
    expect(option).toEqual({ installmentNumber: count, installmentValue: installment, finalValue: final, lastInstallmentValue: last });
    expect((count - 1) * installment + last).toBe(final);
  });

  it('every option of every amount adds up (SANDBOX rules, amounts 1 to 5000)', () => {
    for (let amount = 1; amount <= 5000; amount += 1) {
      for (const o of calculateInstallments(amount, SANDBOX_INSTALLMENT_RULES)) {
        expect((o.installmentNumber - 1) * o.installmentValue + o.lastInstallmentValue).toBe(o.finalValue);
      }
    }
  });
});

describe('the minimum installment cuts the count', () => {
  it('offers only the counts whose installments are all at least the minimum', () => {
    expect(calculateInstallments(10000, interestFree(12, 2500)).map((o) => o.installmentNumber)).toEqual([1, 2, 3, 4]);
    expect(calculateInstallments(10000, interestFree(12, 2501)).map((o) => o.installmentNumber)).toEqual([1, 2, 3]);
  });

  it('counts the fee in: 10000 + 4.99% in 4 is 2624.75 each, over a 2600 minimum; without the fee it would not be', () => {
    const rules = { maxInstallments: 4, interestFreeInstallments: 3, feePercentByInstallment: [0, 0, 0, 4.99], minInstallmentValue: 2600 };
    expect(calculateInstallments(10000, rules).map((o) => o.installmentNumber)).toEqual([1, 2, 3, 4]);
    expect(calculateInstallments(10000, { ...rules, feePercentByInstallment: [0, 0, 0, 0] }).map((o) => o.installmentNumber)).toEqual([1, 2, 3]);
  });

  it('checks the last installment too: 999 in 2 is 500 + 499, under a 500 minimum', () => {
    expect(calculateInstallments(999, interestFree(2, 500)).map((o) => o.installmentNumber)).toEqual([1]);
    expect(calculateInstallments(1001, interestFree(2, 500)).map((o) => o.installmentNumber)).toEqual([1, 2]);
  });

  it('never offers an installment of nothing: 1 cent in 2 is not offered even with no minimum', () => {
    expect(calculateInstallments(1, interestFree(2))).toEqual([{ installmentNumber: 1, installmentValue: 1, finalValue: 1, lastInstallmentValue: 1 }]);
  });

  it('the default plan is one installment with no fee', () => {
    expect(calculateInstallments(1999, SINGLE_INSTALLMENT_RULES)).toEqual([
      { installmentNumber: 1, installmentValue: 1999, finalValue: 1999, lastInstallmentValue: 1999 },
    ]);
  });
});

describe('a plan is checked before it is stored, naming the field at fault', () => {
  const sound: InstallmentRules = {
    maxInstallments: 6,
    interestFreeInstallments: 3,
    feePercentByInstallment: [0, 0, 0, 2.5, 3, 3.49],
    minInstallmentValue: 500,
  };

  it('takes a sound plan, and an all interest-free plan without fees', () => {
    expect(installmentPlanFault(sound)).toBeUndefined();
    expect(installmentPlanFault(interestFree(12, 1000))).toBeUndefined();
  });

  const faults: [string, InstallmentRules, string, RegExp][] = [
    ['no installment at all', { ...sound, maxInstallments: 0 }, 'installment_plan.max_installments', /from 1 to 24, got 0/],
    ['too many installments', { ...sound, maxInstallments: 25 }, 'installment_plan.max_installments', /from 1 to 24, got 25/],
    [
      'more interest-free counts than counts',
      { ...sound, interestFreeInstallments: 7 },
      'installment_plan.interest_free_installments',
      /from 0 to max_installments \(6\), got 7/,
    ],
    ['a negative minimum', { ...sound, minInstallmentValue: -1 }, 'installment_plan.min_installment_value', /0 or more, got -1/],
    ['a minimum in fractions of a cent', { ...sound, minInstallmentValue: 10.5 }, 'installment_plan.min_installment_value', /whole number of cents/],
    ['a fee missing', { ...sound, feePercentByInstallment: [0, 0, 0, 2.5, 3] }, 'installment_plan.fee_percent_by_installment', /6 entries.*got 5/],
    [
      'a negative fee',
      { ...sound, feePercentByInstallment: [0, 0, 0, -1, 3, 3.49] },
      'installment_plan.fee_percent_by_installment',
      /for 4 installments must be a percentage from 0 to 100, got -1/,
    ],
    [
      'a fee over 100%',
      { ...sound, feePercentByInstallment: [0, 0, 0, 2.5, 3, 101] },
      'installment_plan.fee_percent_by_installment',
      /for 6 installments .* got 101/,
    ],
    [
      'a fee with 3 decimals',
      { ...sound, feePercentByInstallment: [0, 0, 0, 2.5, 3.001, 3.49] },
      'installment_plan.fee_percent_by_installment',
      /for 5 installments has more than 2 decimals/,
    ],
    [
      'a fee on an interest-free count',
      { ...sound, feePercentByInstallment: [0, 1, 0, 2.5, 3, 3.49] },
      'installment_plan.fee_percent_by_installment',
      /for 2 installments must be 0/,
    ],
  ];
  it.each(faults)('refuses %s', (_name, plan, field, message) => {
    const fault = installmentPlanFault(plan);
    expect(fault?.field).toBe(field);
    expect(fault?.message).toMatch(message);
    expect(fault?.message.startsWith(field)).toBe(true);
  });

  it('gives the range a count must be in, for the client text of the rule it broke (issue 33 §8)', () => {
    expect(installmentPlanFault({ ...sound, maxInstallments: 25 })?.range).toEqual({ min: 1, max: 24 });
    expect(installmentPlanFault({ ...sound, interestFreeInstallments: 7 })?.range).toEqual({ min: 0, max: 6 });
    expect(installmentPlanFault({ ...sound, minInstallmentValue: -1 })?.range).toBeUndefined();
  });
});
