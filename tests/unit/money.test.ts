import { describe, expect, it } from '@jest/globals';
import { centsToReais, centsToReaisString, formatBRL, reaisToCents } from '../../server/lib/money.js';

describe('money', () => {
  it('converts reais to cents without float drift', () => {
    expect(reaisToCents(0.29)).toBe(29);
    expect(reaisToCents(1999.99)).toBe(199999);
    expect(reaisToCents(10.1)).toBe(1010);
    expect(reaisToCents('19.90')).toBe(1990);
    expect(reaisToCents('7')).toBe(700);
    expect(() => reaisToCents('abc')).toThrow(RangeError);
  });

  it('converts cents to reais for providers that take currency units', () => {
    expect(centsToReaisString(1990)).toBe('19.90');
    expect(centsToReaisString(5)).toBe('0.05');
    expect(centsToReais(29)).toBe(0.29);
    expect(formatBRL(123456)).toBe('R$ 1234,56');
    expect(() => centsToReais(1.5)).toThrow(RangeError);
  });
});
