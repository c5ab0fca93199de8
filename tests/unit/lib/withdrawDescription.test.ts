import { describe, expect, it } from '@jest/globals';
import { currencyPrefix, defaultWithdrawDescription } from '../../../server/lib/withdrawDescription.js';

describe('withdraw description', () => {
  it("is 'Saque solicitado' in the plain style", () => {
    expect(defaultWithdrawDescription(1050, 'requested')).toBe('Saque solicitado');
  });

  it("is 'Saque de R$ {amount}' with the amount in Brazilian format", () => {
    expect(defaultWithdrawDescription(1050, 'withAmount')).toBe('Saque de R$ 10,50');
    expect(defaultWithdrawDescription(123456, 'withAmount')).toBe('Saque de R$ 1234,56');
    expect(defaultWithdrawDescription(5, 'withAmount')).toBe('Saque de R$ 0,05');
  });
});

describe('currency prefix', () => {
  it.each([
    ['USD', '$'],
    ['EUR', '€'],
    ['MXN', 'MX$'],
    ['usd', '$'],
    ['BRL', 'R$'],
    ['GBP', 'R$'],
    ['', 'R$'],
    [undefined, 'R$'],
  ])('%s shows %s', (currency, prefix) => {
    expect(currencyPrefix(currency)).toBe(prefix);
  });
});
