import { expect, it } from '@jest/globals';
import { currencyPrefix, formatDocument, formatMoney, formatPhone, isPdf, parseCents } from '../../../web/src/format.js';

it('shows 11 digits as a CPF and 14 as a CNPJ, whatever punctuation they came with; anything else as given', () => {
  expect(formatDocument('12345678909')).toBe('123.456.789-09');
  expect(formatDocument('123.456.789-09')).toBe('123.456.789-09');
  expect(formatDocument('11222333000181')).toBe('11.222.333/0001-81');
  expect(formatDocument('1234')).toBe('1234');
  expect(formatDocument('')).toBe('');
});

it('shows an 11-digit phone as (DD) NNNNN-NNNN; anything else as given', () => {
  expect(formatPhone('11987654321')).toBe('(11) 98765-4321');
  expect(formatPhone('+55 11 98765-4321')).toBe('+55 11 98765-4321');
  expect(formatPhone('1133334444')).toBe('1133334444');
});

it('prefixes USD $, EUR €, MXN MX$ and otherwise R$, in Brazilian number format, from integer cents', () => {
  expect(formatMoney(123456)).toBe('R$ 1.234,56');
  expect(formatMoney(123456, 'BRL')).toBe('R$ 1.234,56');
  expect(formatMoney(1000, 'usd')).toBe('$ 10,00');
  expect(formatMoney(29, 'EUR')).toBe('€ 0,29');
  expect(formatMoney(123456789012, 'MXN')).toBe('MX$ 1.234.567.890,12');
  expect(formatMoney(-50)).toBe('-R$ 0,50');
  expect(formatMoney(0, 'JPY')).toBe('R$ 0,00');
  expect(currencyPrefix(undefined)).toBe('R$');
});

it('recognises a PDF by its name ending in .pdf', () => {
  expect(isPdf('contrato-social.pdf')).toBe(true);
  expect(isPdf('RG.PDF')).toBe(true);
  expect(isPdf('foto.pdf.png')).toBe(false);
  expect(isPdf('pdf')).toBe(false);
});

it('reads an amount typed in reais as integer cents without floating point, and refuses anything else', () => {
  expect(parseCents('12,34')).toBe(1234n);
  expect(parseCents('1.234,56')).toBe(123456n);
  expect(parseCents('R$ 0,5')).toBe(50n);
  expect(parseCents('0,29')).toBe(29n);
  expect(parseCents('12.34')).toBe(1234n);
  expect(parseCents('1.234')).toBe(123400n);
  expect(parseCents('12')).toBe(1200n);
  expect(parseCents('90071992547409,93')).toBe(9007199254740993n);
  for (const bad of ['', '0', '0,00', '-1', '12,345', '1,2,3', 'abc', '12.3.4', '1e3']) expect(parseCents(bad)).toBeNull();
});
