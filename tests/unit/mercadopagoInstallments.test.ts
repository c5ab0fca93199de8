import { describe, expect, it } from '@jest/globals';
import { creditCardInstallmentsOf, mercadoPagoInstallments } from '../../server/providers/mercadopago/installments.js';

/** One payment method's entry of Mercado Pago's installments answer, amounts in reais. */
const entry = (paymentTypeId: string, costs: Array<Record<string, unknown>>) => ({
  payment_method_id: paymentTypeId === 'credit_card' ? 'visa' : 'debvisa',
  payment_type_id: paymentTypeId,
  payer_costs: costs,
});

describe("MERCADOPAGO's installments quote, read", () => {
  it('takes the credit-card entry, fewest installments first, in cents, the last installment absorbing the cents', () => {
    const quote = mercadoPagoInstallments.parse([
      entry('debit_card', [{ installments: 1, installment_rate: 0, installment_amount: 19.99, total_amount: 19.99 }]),
      entry('credit_card', [
        { installments: 3, installment_rate: 1.99, installment_amount: '6.80', total_amount: '20.39' },
        { installments: 1, installment_rate: 0, installment_amount: 19.99, total_amount: 19.99 },
      ]),
    ]);
    expect(creditCardInstallmentsOf(quote)).toEqual([
      { installmentNumber: 1, installmentValue: 1999, finalValue: 1999, lastInstallmentValue: 1999 },
      { installmentNumber: 3, installmentValue: 680, finalValue: 2039, lastInstallmentValue: 679 },
    ]);
  });

  it('answers nothing for a BIN without credit-card costs (a debit card, an unknown BIN)', () => {
    expect(creditCardInstallmentsOf(mercadoPagoInstallments.parse([]))).toBeUndefined();
    expect(creditCardInstallmentsOf(mercadoPagoInstallments.parse([entry('credit_card', [])]))).toBeUndefined();
    expect(
      creditCardInstallmentsOf(mercadoPagoInstallments.parse([entry('debit_card', [{ installments: 1, installment_amount: 10, total_amount: 10 }])])),
    ).toBeUndefined();
  });

  it('refuses amounts that are not reais with at most two decimals above zero, counts under one, and installments past the total', () => {
    const cost = (overrides: Record<string, unknown>) => [
      entry('credit_card', [{ installments: 2, installment_rate: 0, installment_amount: 10, total_amount: 20, ...overrides }]),
    ];
    for (const bad of [
      { installment_amount: 10.001 },
      { installment_amount: 0 },
      { total_amount: -20 },
      { total_amount: 'vinte' },
      { installment_amount: Number.NaN },
      { installments: 0 },
      { installments: 1.5 },
      { installment_amount: 25 },
    ])
      expect(mercadoPagoInstallments.safeParse(cost(bad)).success).toBe(false);
    expect(mercadoPagoInstallments.safeParse(cost({ installment_rate: undefined })).success).toBe(true);
  });
});
