/**
 * A static PIX BR Code (the copy-and-paste code), as the Banco Central's BR Code manual lays it out: EMV fields of
 * two-digit id, two-digit length and value, the merchant account (GUI `br.gov.bcb.pix` and the key) in field 26, the
 * amount in 54 when there is one, the txid in 62/05 (`***` when none), and a CRC16/CCITT-FALSE of everything before it,
 * `6304` included, in field 63. The SANDBOX PSP's own: the `pix-utils` package it used loads axios for the dynamic
 * codes the PSP never makes, about 20 MB in the PSP's worker thread (docs/benchmarks.md, issue 31 §6).
 */

export interface StaticPix {
  pixKey: string;
  /** Up to 25 characters; written in capitals without accents. */
  merchantName: string;
  /** Up to 15 characters; written in capitals without accents. */
  merchantCity: string;
  /** Up to 25 letters and digits; none: `***`. */
  txid?: string;
  /** Cents; 0 or none: the payer types the amount. */
  amountCents?: number;
}

const field = (id: string, value: string): string => {
  if (value.length > 99) throw new Error(`BR Code field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
};

/** Capitals, accents taken off: what a payer's bank app shows, and plain ASCII, so that lengths are bytes. */
const plain = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase();

/** CRC16/CCITT-FALSE (polynomial 0x1021, start 0xFFFF), four upper-case hex digits. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i += 1) {
    crc ^= text.charCodeAt(i) << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

export function staticPixCode({ pixKey, merchantName, merchantCity, txid, amountCents }: StaticPix): string {
  const name = plain(merchantName);
  const city = plain(merchantCity);
  if (name.length > 25) throw new Error('merchantName is longer than 25 characters');
  if (city.length === 0 || city.length > 15) throw new Error('merchantCity must have 1 to 15 characters');
  if (txid && !/^[A-Za-z0-9]{1,25}$/.test(txid)) throw new Error('txid must be 1 to 25 letters and digits');
  const body = [
    field('00', '01'),
    field('26', field('00', 'br.gov.bcb.pix') + field('01', pixKey)),
    field('52', '0000'),
    field('53', '986'),
    amountCents ? field('54', (amountCents / 100).toFixed(2)) : '',
    field('58', 'BR'),
    field('59', name),
    field('60', city),
    field('62', field('05', txid || '***')),
    '6304',
  ].join('');
  return body + crc16(body);
}
