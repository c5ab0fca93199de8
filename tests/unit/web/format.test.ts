import { expect, it } from '@jest/globals';
import {
  readableBody,
  currencyPrefix,
  documentKind,
  fileNameOf,
  formatCount,
  formatDocument,
  formatMoney,
  formatPhone,
  formatZipCode,
  isPdf,
  parseCents,
  shortEmail,
  shortId,
  withCheckDigit,
} from '../../../web/src/format.js';

it('shows 11 digits as a CPF and 14 as a CNPJ, whatever punctuation they came with; anything else as given', () => {
  expect(formatDocument('12345678909')).toBe('123.456.789-09');
  expect(formatDocument('123.456.789-09')).toBe('123.456.789-09');
  expect(formatDocument('11222333000181')).toBe('11.222.333/0001-81');
  expect(formatDocument('1234')).toBe('1234');
  expect(formatDocument('')).toBe('');
});

it('takes 11 digits for a CPF and 14 for a CNPJ, punctuation aside; anything else for neither yet', () => {
  expect(documentKind('529.982.247-25')).toBe('CPF');
  expect(documentKind('11.222.333/0001-81')).toBe('CNPJ');
  expect(documentKind('1122233300018')).toBeUndefined();
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

it('shows an 8-digit CEP as 00000-000; anything else as given', () => {
  expect(formatZipCode('01001000')).toBe('01001-000');
  expect(formatZipCode('01001-000')).toBe('01001-000');
  expect(formatZipCode('1001000')).toBe('1001000');
});

it('shows a branch or account number with its check digit when there is one', () => {
  expect(withCheckDigit('1234', '5')).toBe('1234-5');
  expect(withCheckDigit('67890', ' ')).toBe('67890');
});

it("names a stored file by its URL's last segment, decoded", () => {
  expect(fileNameOf('http://127.0.0.1:4569/gateway-uploads/uploads/0f0e/contrato%20social.pdf')).toBe('contrato social.pdf');
  expect(fileNameOf('https://cdn.example.com/a/b/rg.png?x=1')).toBe('rg.png');
  expect(fileNameOf('not a url')).toBe('not a url');
});

it("shows a notification's body as UTF-8 text, JSON indented, anything else as it came, a byte that is not UTF-8 as U+FFFD", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  expect(readableBody(bytes('{"id":"evt_1","data":{"status":"paga"}}'))).toBe('{\n  "id": "evt_1",\n  "data": {\n    "status": "paga"\n  }\n}');
  expect(readableBody(bytes('status=paid&id=ch_1'))).toBe('status=paid&id=ch_1');
  expect(readableBody(new Uint8Array([0x6f, 0x6b, 0xff]))).toBe('ok\ufffd');
  expect(readableBody(new Uint8Array())).toBe('');
});

it('shortens a gateway id to its first 8 characters, as the lists show it and the search finds it', () => {
  expect(shortId('3cfab32b-229a-47ea-b544-c5f02eff6949')).toBe('3cfab32b');
});

it("shortens an e-mail's name beyond 16 characters for the lists, keeping its domain whole", () => {
  expect(shortEmail('maria.souza@example.com')).toBe('maria.souza@example.com');
  expect(shortEmail('sixteen.chars.ok@example.com')).toBe('sixteen.chars.ok@example.com');
  expect(shortEmail('maria.aparecida.souza@example.com.br')).toBe('maria.aparecida…@example.com.br');
  expect(shortEmail('"a@b".very.long.local.part@example.com')).toBe('"a@b".very.long…@example.com');
});

it('groups counts by thousands in the language shown: 7.920 in Portuguese, 7,920 in English', () => {
  expect(formatCount(7920n, 'pt-BR')).toBe('7.920');
  expect(formatCount(1_234_567, 'pt-BR')).toBe('1.234.567');
  expect(formatCount(7920n, 'en')).toBe('7,920');
  expect(formatCount(999, 'pt-BR')).toBe('999');
});
