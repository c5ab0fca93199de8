import { describe, expect, it } from '@jest/globals';
import { requestHash } from '../../server/gateway/idempotency.js';

/**
 * An idempotency key stored before an upgrade is compared with a retry's request by this hash: its text must never
 * change. The values were computed by the first version (Object.entries, filter, sort, map, join), before it was
 * rewritten to make less garbage per charge (issue 31).
 */
const charge = {
  amount: 1990,
  paymentMethod: 'PIX',
  installments: 1,
  currency: 'BRL',
  webhookUrl: undefined,
  customer: { name: 'Ana Souza', document: '123.456.789-09', email: 'ana@example.com', address: { zipCode: '01001000', street: 'Praça da Sé', number: '1' } },
  items: [
    { title: 'Camiseta', unitPrice: 1990, quantity: 1, tangible: true },
    { title: 'Frete', unitPrice: 0, quantity: 1, tangible: false },
  ],
  metadata: { 'z-last': 'ü', 'a-first': 'x', Upper: 'y', ñ: '\u2028' },
  expiresAt: new Date('2030-01-02T03:04:05.678Z'),
  splits: [],
  nothing: null,
  nested: [[1, 'a'], [], [null]],
};

describe('the idempotency request hash', () => {
  it('is the one keys were stored with', () => {
    expect(requestHash(charge)).toBe('0e81a692c51b673a856b2b76d9f183f40e40c9ec96416a54268d674150f90454');
    expect(requestHash({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
    expect(requestHash('text')).toBe('1e1d0f251d3a76fa2b1bfc81164078572623403887db02988b504b0492e9f076');
    expect(requestHash(undefined)).toBe('74234e98afe7498fb5daf1f36ac2d78acc339464f950703b8c019892f982b90b');
    expect(requestHash({ b: undefined, a: [undefined] })).toBe('57bd7967e7b43193da68ca7b242b68d7f437eb51a4c69ea4abb4b1407a80b4a3');
    // eslint-disable-next-line no-sparse-arrays
    expect(requestHash([1, , 3])).toBe('cb0cfcbc65391b8b7eb9d01a23f28c3fdf9f864df849b6dbabf55c3b77cdf066');
  });

  it('does not depend on the order of keys, and leaves out undefined fields', () => {
    expect(requestHash({ b: 2, a: { d: 4, c: 3 } })).toBe(requestHash({ a: { c: 3, d: 4 }, b: 2, e: undefined }));
    expect(requestHash({ a: 1 })).not.toBe(requestHash({ a: 2 }));
  });
});
