/**
 * Spreadsheet files the back-office builds in the browser: `;`-separated
 * (Brazilian Excel reads `,` as the decimal comma), UTF-8 with a byte-order mark
 * so Excel shows accents, CRLF between rows. A value with `;`, `"` or a line
 * break is quoted with its quotes doubled; one Excel would run as a formula
 * (beginning with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a `'`
 * in front. Plain functions, no DOM: unit-tested in node.
 */

import { isoDayOf } from './days.js';

export const CSV_SEPARATOR = ';';
const BOM = '\uFEFF';

/** One value as a cell: guarded against formulas, quoted when it must be. */
export function csvCell(value: string): string {
  const guarded = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[;"\r\n]/.test(guarded) ? `"${guarded.replace(/"/g, '""')}"` : guarded;
}

/** The whole file: the byte-order mark, the header row and one line per row, each ended by CRLF. */
export function csvFile(header: string[], rows: string[][]): string {
  return BOM + [header, ...rows].map((row) => `${row.map(csvCell).join(CSV_SEPARATOR)}\r\n`).join('');
}

/** Integer cents as a plain decimal with a comma, `1234,56`, `-0,50`: integer arithmetic, no thousands separator. */
export function decimalCents(cents: number | bigint): string {
  const value = BigInt(cents);
  const absolute = value < 0n ? -value : value;
  return `${value < 0n ? '-' : ''}${absolute / 100n},${String(absolute % 100n).padStart(2, '0')}`;
}

/** A file name for a day's export, in the reader's calendar: `transacoes-2026-11-25.csv`. */
export function csvFileName(prefix: string, day: Date): string {
  return `${prefix}-${isoDayOf(day)}.csv`;
}
