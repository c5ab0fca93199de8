/**
 * Boleto bancário (FEBRABAN layout): the 44-digit bar code and its 47-digit
 * digitable line, with the modulo-10 field check digits and the modulo-11
 * general check digit.
 */

const DUE_DATE_BASE = Date.UTC(1997, 9, 7);
const DAY_MS = 86_400_000;

/** Days since 1997-10-07; after 9999 (2025-02-21) the factor starts again at 1000. */
export function dueDateFactor(dueDate: Date): string {
  const days = Math.floor((Date.UTC(dueDate.getUTCFullYear(), dueDate.getUTCMonth(), dueDate.getUTCDate()) - DUE_DATE_BASE) / DAY_MS);
  const factor = days < 1000 ? days : ((days - 1000) % 9000) + 1000;
  return factor.toString().padStart(4, '0');
}

export function modulo10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? Math.floor(product / 10) + (product % 10) : product;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

export function modulo11(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const digit = 11 - (sum % 11);
  return digit === 0 || digit === 10 || digit === 11 ? 1 : digit;
}

export interface BoletoFields {
  /** Three digits, e.g. "001". */
  bankCode: string;
  amountCents: number;
  dueDate: Date;
  /** The bank's 25-digit "campo livre". */
  freeField: string;
}

export function buildBarcode({ bankCode, amountCents, dueDate, freeField }: BoletoFields): string {
  if (!/^\d{3}$/.test(bankCode)) throw new RangeError('bankCode must be 3 digits');
  if (!/^\d{25}$/.test(freeField)) throw new RangeError('freeField must be 25 digits');
  if (!Number.isSafeInteger(amountCents) || amountCents < 0 || amountCents > 99_999_999_99) throw new RangeError('amount out of range for a boleto');
  const withoutCheck = `${bankCode}9${dueDateFactor(dueDate)}${amountCents.toString().padStart(10, '0')}${freeField}`;
  const check = modulo11(withoutCheck);
  return `${withoutCheck.slice(0, 4)}${check}${withoutCheck.slice(4)}`;
}

export function barcodeToDigitableLine(barcode: string): string {
  if (!/^\d{44}$/.test(barcode)) throw new RangeError('barcode must be 44 digits');
  const free = barcode.slice(19);
  const field1 = `${barcode.slice(0, 4)}${free.slice(0, 5)}`;
  const field2 = free.slice(5, 15);
  const field3 = free.slice(15, 25);
  return [`${field1}${modulo10(field1)}`, `${field2}${modulo10(field2)}`, `${field3}${modulo10(field3)}`, barcode[4], barcode.slice(5, 19)].join('');
}

/** Checks the three field digits and the general digit of a 47-digit line. */
export function isValidDigitableLine(line: string): boolean {
  const digits = line.replace(/\D/g, '');
  if (digits.length !== 47) return false;
  const fields = [digits.slice(0, 10), digits.slice(10, 21), digits.slice(21, 32)];
  if (!fields.every((field) => modulo10(field.slice(0, -1)) === Number(field.slice(-1)))) return false;
  const barcode = `${digits.slice(0, 4)}${digits[32]}${digits.slice(33, 47)}${digits.slice(4, 9)}${digits.slice(10, 20)}${digits.slice(21, 31)}`;
  return modulo11(`${barcode.slice(0, 4)}${barcode.slice(5)}`) === Number(barcode[4]);
}
