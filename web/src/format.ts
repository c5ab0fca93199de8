/**
 * How the back-office shows documents, phones, money and files (specification:
 * document 3 §5 and §9, document 1 §9): 11 or 14 digits as CPF or CNPJ, an
 * 11-digit phone as (DD) NNNNN-NNNN, amounts with the currency's prefix (USD $,
 * EUR €, MXN MX$, otherwise R$) in Brazilian number format, and a file whose
 * name ends in .pdf as a PDF; a CEP as 00000-000. Plain functions, no DOM: unit-tested in node.
 */

const digitsOf = (value: string) => value.replace(/\D/g, '');

/** A CPF (000.000.000-00) or CNPJ (00.000.000/0000-00) from 11 or 14 digits; anything else as given. */
export function formatDocument(value: string): string {
  const digits = digitsOf(value);
  if (digits.length === 11) return digits.replace(/^(\d{3})(\d{3})(\d{3})(\d{2})$/, '$1.$2.$3-$4');
  if (digits.length === 14) return digits.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5');
  return value;
}

/** What a document is by its digits: 11 a CPF, 14 a CNPJ; undefined while it is neither. */
export function documentKind(value: string): 'CPF' | 'CNPJ' | undefined {
  const digits = digitsOf(value);
  return digits.length === 11 ? 'CPF' : digits.length === 14 ? 'CNPJ' : undefined;
}

/** An 11-digit phone (area code and mobile number) as (DD) NNNNN-NNNN; anything else as given. */
export function formatPhone(value: string): string {
  const digits = digitsOf(value);
  return digits.length === 11 ? digits.replace(/^(\d{2})(\d{5})(\d{4})$/, '($1) $2-$3') : value;
}

const PREFIXES: Record<string, string> = { USD: '$', EUR: '€', MXN: 'MX$' };

export const currencyPrefix = (currency: string | undefined): string => PREFIXES[(currency ?? '').toUpperCase()] ?? 'R$';

const NUMBER = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** Integer cents as money: `R$ 1.234,56`, `$ 10,00`, `-R$ 0,50`. Integer arithmetic, so 29 cents is never 0,28. */
export function formatMoney(cents: number | bigint, currency?: string): string {
  const value = BigInt(cents);
  const negative = value < 0n;
  const absolute = negative ? -value : value;
  const amount = `${NUMBER.format(Number(absolute / 100n)).slice(0, -3)},${String(absolute % 100n).padStart(2, '0')}`;
  return `${negative ? '-' : ''}${currencyPrefix(currency)} ${amount}`;
}

/** A count in the UI's language, grouped by thousands: `7.920` in Portuguese, `7,920` in English. */
export function formatCount(value: number | bigint, locale: string): string {
  return new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(value);
}

/** Whether a file is shown as a PDF: its name ends in .pdf, whatever the case. */
export const isPdf = (fileName: string): boolean => /\.pdf$/i.test(fileName.trim());

/** An 8-digit CEP as 00000-000; anything else as given. */
export function formatZipCode(value: string): string {
  const digits = digitsOf(value);
  return digits.length === 8 ? `${digits.slice(0, 5)}-${digits.slice(5)}` : value;
}

/** A bank branch or account number with its check digit, `1234-5`; without one, the number alone. */
export const withCheckDigit = (number: string, digit: string): string => (digit.trim() ? `${number}-${digit.trim()}` : number);

/** The file name a stored file's URL ends in (its last path segment, decoded): `contrato social.pdf`. */
export function fileNameOf(url: string): string {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? '';
    return decodeURIComponent(last) || url;
  } catch {
    return url;
  }
}

/**
 * An amount typed in reais as integer cents, without floating point: `12,34`,
 * `1.234,56`, `R$ 0,5`, `12.34` and `12` are 1234, 123456, 50, 1234 and 1200.
 * A comma is the decimal separator (dots before it group thousands); without a
 * comma, a dot followed by one or two digits is (`1.234` is a thousand). Null for anything else,
 * including zero, negative amounts and more than two decimals.
 */
export function parseCents(text: string): bigint | null {
  const value = text.replace(/^\s*R\$\s*/i, '').trim();
  const match = value.includes(',') ? /^(\d{1,3}(?:\.\d{3})+|\d+),(\d{1,2})$/.exec(value) : /^(\d{1,3}(?:\.\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(value);
  if (!match) return null;
  const cents = BigInt(match[1]!.replace(/\./g, '')) * 100n + BigInt((match[2] ?? '0').padEnd(2, '0'));
  return cents > 0n ? cents : null;
}

/** A notification's body as the operator reads it: UTF-8 (a byte that is not becomes U+FFFD), JSON indented by two spaces when it parses as JSON, anything else as it came. */
export function readableBody(body: Uint8Array): string {
  const text = new TextDecoder('utf-8').decode(body);
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** A gateway id (a UUID) as lists show it: its first 8 characters, enough to tell charges apart and to search by. */
export const shortId = (id: string): string => id.slice(0, 8);

/** Characters of an e-mail's name (before the @) a list shows; a longer one is cut with an ellipsis, the domain kept. */
const LISTED_EMAIL_NAME = 16;

/** An e-mail as a list shows it: `maria.aparecida…@example.com` for a long name; the whole one is on the record's page. */
export function shortEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const name = at < 0 ? email : email.slice(0, at);
  return name.length <= LISTED_EMAIL_NAME ? email : `${name.slice(0, LISTED_EMAIL_NAME - 1)}…${email.slice(name.length)}`;
}
