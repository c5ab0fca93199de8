import { describe, expect, it } from '@jest/globals';
import { parseCredentials } from '../../server/providers/kit/credentials.js';

const OWEM = { secretKey: ['apiKey', 'secret', 'accountId'], missing: 'OWEMPAY_CREDENTIALS_MISSING', format: 'OWEMPAY_CREDENTIALS_FORMAT' } as const;
const BACEN = { publicKey: ['clientId', 'chave?'], secretKey: ['clientSecret', 'certificatePassphrase?'] } as const;

describe('parseCredentials (the declared credential layout)', () => {
  it('names the parts of a key packed with |, trimmed, and keeps both keys whole', () => {
    expect(parseCredentials(OWEM, { publicKey: 'pk', secretKey: 'ak_1| s3cret |acc-9' })).toEqual({
      ...{ publicKey: 'pk', secretKey: 'ak_1| s3cret |acc-9' },
      ...{ apiKey: 'ak_1', secret: 's3cret', accountId: 'acc-9' },
    });
  });

  it('a wrong part count or an empty part is FAILED_PRECONDITION with the declared text, on the key at fault', () => {
    for (const secretKey of ['ak_1|s3cret', 'a|b|c|d', 'a||c']) {
      expect(() => parseCredentials(OWEM, { publicKey: '', secretKey })).toThrow(
        expect.objectContaining({
          code: 'FAILED_PRECONDITION',
          message: 'Formato de credenciais inválido. Use: apiKey|secret|accountId',
          details: { reason: 'CREDENTIALS_FORMAT', field: 'secret_key' },
        }),
      );
    }
    expect(() => parseCredentials(OWEM, { publicKey: '', secretKey: ' ' })).toThrow(
      expect.objectContaining({ message: 'Credenciais não configuradas', details: { reason: 'CREDENTIALS_MISSING', field: 'secret_key' } }),
    );
  });

  it("optional parts may be left out; without a declared text the shape and the key's name are said", () => {
    expect(parseCredentials(BACEN, { publicKey: 'client', secretKey: 'shh' })).toMatchObject({ clientId: 'client', chave: undefined, clientSecret: 'shh' });
    expect(parseCredentials(BACEN, { publicKey: 'client|key@pix', secretKey: 'shh|pass' })).toMatchObject({ chave: 'key@pix', certificatePassphrase: 'pass' });
    expect(() => parseCredentials(BACEN, { publicKey: '', secretKey: 'shh' })).toThrow('publicKey is required');
    expect(() => parseCredentials(BACEN, { publicKey: 'a|b|c', secretKey: 'shh' })).toThrow('Formato de credenciais inválido. Use: clientId|chave');
  });
});
