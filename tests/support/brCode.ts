import { createStaticPix, hasError } from 'pix-utils';

/** CRC16/CCITT-FALSE as the BR Code (EMV QRCPS) defines it, written here independently of the server. */
export function brCodeCrcIsValid(code: string): boolean {
  const match = /^(.*6304)([0-9A-F]{4})$/.exec(code);
  if (!match) return false;
  let crc = 0xffff;
  for (const byte of Buffer.from(match[1]!, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0') === match[2];
}

/** A stand-in's BR Code for a charge: a static one by pix-utils (its CRC valid, as the payer's bank reads it). */
export function standInBrCode(fields: Parameters<typeof createStaticPix>[0]): string {
  const pix = createStaticPix(fields);
  if (hasError(pix)) throw new Error('could not build a BR Code');
  return pix.toBRCode();
}
