import { expect, it } from '@jest/globals';
import { csvCell, csvFile, csvFileName, decimalCents } from '../../../web/src/csv.js';

it('quotes a value with a separator, a quote or a line break, doubling its quotes; leaves others as they are', () => {
  expect(csvCell('pedido-1')).toBe('pedido-1');
  expect(csvCell('Situação')).toBe('Situação');
  expect(csvCell('a;b')).toBe('"a;b"');
  expect(csvCell('diz "oi"')).toBe('"diz ""oi"""');
  expect(csvCell('linha\noutra')).toBe('"linha\noutra"');
  expect(csvCell('linha\r\noutra')).toBe('"linha\r\noutra"');
  expect(csvCell('')).toBe('');
});

it("puts a ' before a value Excel would run as a formula, then quotes it if it must", () => {
  expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  expect(csvCell('+1')).toBe("'+1");
  expect(csvCell('-2')).toBe("'-2");
  expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
  expect(csvCell('\tcmd')).toBe("'\tcmd");
  expect(csvCell('a=b')).toBe('a=b');
});

it('writes cents as a plain decimal with a comma, exactly, without thousands separators', () => {
  expect(decimalCents(123456)).toBe('1234,56');
  expect(decimalCents(29)).toBe('0,29');
  expect(decimalCents(5)).toBe('0,05');
  expect(decimalCents(1000n)).toBe('10,00');
  expect(decimalCents(0)).toBe('0,00');
  expect(decimalCents(-50)).toBe('-0,50');
  expect(decimalCents(9007199254740993n)).toBe('90071992547409,93');
});

it('builds a UTF-8 file Excel opens: byte-order mark, ; between cells, CRLF after every row', () => {
  expect(
    csvFile(
      ['ID', 'Pedido', 'Valor'],
      [
        ['tx_1', 'a;b', '12,34'],
        ['tx_2', '=1+1', '0,05'],
      ],
    ),
  ).toBe('\uFEFFID;Pedido;Valor\r\ntx_1;"a;b";12,34\r\ntx_2;\'=1+1;0,05\r\n');
  expect(csvFile(['ID'], [])).toBe('\uFEFFID\r\n');
});

it("names the file by the reader's day", () => {
  expect(csvFileName('transacoes', new Date(2026, 0, 5, 23, 59))).toBe('transacoes-2026-01-05.csv');
});
