import { expect, it } from '@jest/globals';
import { calculateInstallments } from '../../server/lib/installments.js';

it('charges no fee up to the interest-free maximum, then the listed fee, and drops options under the minimum', () => {
  const options = calculateInstallments(10000, {
    maxInstallments: 4,
    interestFreeInstallments: 2,
    feePercentByInstallment: [0, 0, 3.5, 4.25],
    minInstallmentValue: 2700,
  });
  expect(options).toEqual([
    { installmentNumber: 1, installmentValue: 10000, finalValue: 10000 },
    { installmentNumber: 2, installmentValue: 5000, finalValue: 5000 * 2 },
    { installmentNumber: 3, installmentValue: 3450, finalValue: 10350 },
  ]);
});
