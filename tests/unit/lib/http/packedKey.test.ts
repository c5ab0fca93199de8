import { describe, expect, it } from '@jest/globals';
import { splitPackedKey } from '../../../../server/lib/http/index.js';

describe('splitPackedKey', () => {
  it('names the parts of a key packed with |', () => {
    expect(splitPackedKey('ak_1| s3cret |acc-9', ['apiKey', 'secret', 'accountId'])).toEqual({ apiKey: 'ak_1', secret: 's3cret', accountId: 'acc-9' });
  });

  it("a wrong part count is FAILED_PRECONDITION with the spec's message showing the expected shape", () => {
    for (const value of ['ak_1|s3cret', 'a|b|c|d', 'a||c']) {
      expect(() => splitPackedKey(value, ['apiKey', 'secret', 'accountId'])).toThrow(
        expect.objectContaining({
          code: 'FAILED_PRECONDITION',
          message: 'Formato de credenciais inválido. Use: apiKey|secret|accountId',
          details: { reason: 'CREDENTIALS_FORMAT' },
        }),
      );
    }
  });

  it('an empty key says the credentials are not configured; messages and separator can be the provider’s own', () => {
    expect(() => splitPackedKey('', ['a', 'b'])).toThrow(expect.objectContaining({ code: 'FAILED_PRECONDITION', message: 'Credenciais não configuradas' }));
    expect(() => splitPackedKey(undefined, ['a', 'b'], { missingMessage: 'Bravive secretKey is required' })).toThrow('Bravive secretKey is required');
    expect(() => splitPackedKey('x', ['clientId', 'clientSecret'], { formatMessage: 'use clientId:clientSecret', separator: ':' })).toThrow(
      'use clientId:clientSecret',
    );
    expect(splitPackedKey('id:secret', ['clientId', 'clientSecret'], { separator: ':' })).toEqual({ clientId: 'id', clientSecret: 'secret' });
  });
});
