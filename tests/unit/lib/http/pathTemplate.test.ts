import { expect, it } from '@jest/globals';
import { pathTemplate } from '../../../../server/lib/http/exchangeSpan.js';

it("keeps an API's words and versions", () => {
  for (const path of [
    '/v1/card-tokens',
    '/api/v2/transactions',
    '/accounts/request_withdraw',
    '/oauth2/token',
    '/charges/galaxPayId/capture',
    '/api/pix/refund-in',
  ])
    expect(pathTemplate(path)).toBe(path);
  expect(pathTemplate('/')).toBe('/');
});

it('blanks ids, documents, PIX keys, e-mails, phones and tokens', () => {
  expect(pathTemplate('/v1/charges/ch_Ab3dEfGhIjKl/refunds')).toBe('/v1/charges/{}/refunds');
  expect(pathTemplate('/transactions/12345')).toBe('/transactions/{}');
  expect(pathTemplate('/pix/dict/12345678909')).toBe('/pix/dict/{}');
  expect(pathTemplate('/pix/dict/ana%40example.com')).toBe('/pix/dict/{}');
  expect(pathTemplate('/pix/dict/ana@example.com')).toBe('/pix/dict/{}');
  expect(pathTemplate('/pix/dict/+5511999999999')).toBe('/pix/dict/{}');
  expect(pathTemplate('/cob/7d9f0335-8dcc-4054-9bf9-0dbd61d36906')).toBe('/cob/{}');
  expect(pathTemplate('/cards/tok_AbCdEfGhIjKlMnOp')).toBe('/cards/{}');
  expect(pathTemplate('/payments/QWxhZGRpbjpvcGVuIHNlc2FtZQ')).toBe('/payments/{}');
});
