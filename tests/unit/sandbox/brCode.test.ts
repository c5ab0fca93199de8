import { describe, expect, it } from '@jest/globals';
import { createStaticPix, hasError, parsePix } from 'pix-utils';
import { crc16, staticPixCode } from '../../../server/sandbox/brCode.js';

/** pix-utils, the package the SANDBOX PSP used before, as an independent reading of the same manual. */
function byPixUtils(pixKey: string, merchantName: string, merchantCity: string, txid: string, amountCents: number): string {
  const pix = createStaticPix({ pixKey, merchantName, merchantCity, txid, transactionAmount: amountCents / 100 });
  if (hasError(pix)) throw new Error(pix.message);
  return pix.toBRCode();
}

describe('the SANDBOX PSP’s static BR Code', () => {
  it.each([
    ['2f1d7c8e-5b4a-4e3f-9a1b-0c2d3e4f5a6b', 'Gateway Sandbox', 'Sao Paulo', 'ch123abc', 1990],
    ['sandbox@example.com', 'Gateway Sandbox', 'São Paulo', '', 0],
    ['+5511987654321', 'Loja da Maria', 'Brasília', 'A1B2C3D4E5F6G7H8I9J0K1L2M', 123456789],
    ['12345678909', 'Ação', 'Rio', 'x', 1],
  ])('writes what pix-utils writes for key %s', (pixKey, merchantName, merchantCity, txid, amountCents) => {
    expect(staticPixCode({ pixKey, merchantName, merchantCity, txid, amountCents })).toBe(byPixUtils(pixKey, merchantName, merchantCity, txid, amountCents));
  });

  it('is read back by a BR Code parser with its amount, txid and key', () => {
    const parsed = parsePix(
      staticPixCode({ pixKey: 'sandbox@example.com', merchantName: 'Gateway Sandbox', merchantCity: 'Sao Paulo', txid: 'abc123', amountCents: 1990 }),
    );
    if (hasError(parsed)) throw new Error(parsed.message);
    expect(parsed).toMatchObject({ pixKey: 'sandbox@example.com', transactionAmount: 19.9, txid: 'abc123', merchantName: 'GATEWAY SANDBOX' });
  });

  it('computes CRC16/CCITT-FALSE (check value of "123456789": 29B1)', () => {
    expect(crc16('123456789')).toBe('29B1');
  });

  it('refuses what the manual does not allow', () => {
    const base = { pixKey: 'k', merchantName: 'Loja', merchantCity: 'Rio' };
    expect(() => staticPixCode({ ...base, merchantName: 'x'.repeat(26) })).toThrow('merchantName is longer than 25 characters');
    expect(() => staticPixCode({ ...base, merchantCity: '' })).toThrow('merchantCity must have 1 to 15 characters');
    expect(() => staticPixCode({ ...base, txid: 'has-dash' })).toThrow('txid must be 1 to 25 letters and digits');
  });
});
