import { describe, expect, it } from '@jest/globals';
import { centsToReais, centsToReaisString, formatBRL, isWholeCents, reaisToCents, statedCents } from '../../server/lib/money.js';

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

  it('tells a whole, positive number of cents from anything else', () => {
    expect([1990, 1].map(isWholeCents)).toEqual([true, true]);
    expect([0, -1990, 19.9, '1990', undefined, null, Number.NaN].map(isWholeCents)).toEqual(Array(7).fill(false));
  });

  it('keeps what a provider that states integer cents sent: the integer, else the text of what came instead', () => {
    expect([1990, 0, -1990].map(statedCents)).toEqual([1990, 0, -1990]);
    expect(['1990', 1.5, null, undefined, { value: 1 }].map(statedCents)).toEqual([
      { unreadable: '"1990"' },
      { unreadable: '1.5' },
      { unreadable: 'null' },
      { unreadable: 'nothing' },
      { unreadable: '{"value":1}' },
    ]);
  });
});
