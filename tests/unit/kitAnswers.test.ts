import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ProviderCallError } from '../../server/lib/http/index.js';
import { absentable, parseAnswer, unwrappedAnswer, wireAmount, wireId, wireStatus } from '../../server/providers/kit/answers.js';

const CHARGE = z.object({ id: wireId, status: wireStatus, amount: wireAmount, pix: absentable(z.object({ qrcode: z.string() })) });

function refusal(answer: unknown): ProviderCallError {
  try {
    parseAnswer(CHARGE, answer);
  } catch (error) {
    if (error instanceof ProviderCallError) return error;
    throw error;
  }
  throw new Error('the answer was accepted');
}

describe('answers parsed by schema at the edge (kit/answers.ts)', () => {
  it('reads ids as text whether string or number, statuses as text, amounts as written, absent-likes as absent', () => {
    expect(parseAnswer(CHARGE, { id: 42, status: ' paid ', amount: '19.90', pix: null, extra: true })).toEqual({ id: '42', status: 'paid', amount: '19.90' });
    expect(parseAnswer(CHARGE, { id: ' tx_1 ', status: 'waiting', amount: 1990, pix: { qrcode: '000201' } })).toEqual({
      id: 'tx_1',
      status: 'waiting',
      amount: 1990,
      pix: { qrcode: '000201' },
    });
  });

  it.each<[string, unknown, string]>([
    ['an HTML page', '<html><body>502 Bad Gateway</body></html>', 'corpo: esperado object'],
    ['an empty body', '', 'corpo: esperado object'],
    ['a missing id', { status: 'paid', amount: 1 }, 'id:'],
    ['a blank id', { id: '  ', status: 'paid', amount: 1 }, 'id:'],
    ['a status that is not text', { id: 1, status: 3, amount: 1 }, 'status: esperado string'],
    ['an amount that is not money', { id: 1, status: 'paid', amount: '19,90' }, 'amount:'],
    ['a wrong nested type', { id: 1, status: 'paid', amount: 1, pix: { qrcode: 5 } }, 'pix.qrcode: esperado string'],
  ])('%s is the one bad-answer failure: UNAVAILABLE, outcome unknown, naming the field', (_label, answer, where) => {
    const error = refusal(answer);
    expect([error.code, error.reason, error.outcome]).toEqual(['UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', 'unknown']);
    expect(error.message).toContain(where);
  });

  it("never repeats the answer's values in the failure (they may be card data or a provider's secret)", () => {
    const error = refusal({ id: 1, status: 'paid', amount: '4111111111111111x' });
    expect(error.message).not.toContain('4111');
  });

  it('reads an answer bare or under the first of its wrappers that holds an object, and refuses what is neither', () => {
    const wrapped = unwrappedAnswer(z.object({ id: wireId }), ['_body', 'data']);
    expect(parseAnswer(wrapped, { id: 1 })).toEqual({ id: '1' });
    expect(parseAnswer(wrapped, { data: { id: 'd' }, id: 'outer' })).toEqual({ id: 'd' });
    expect(parseAnswer(wrapped, { _body: { id: 'b' }, data: { id: 'd' } })).toEqual({ id: 'b' });
    expect(parseAnswer(wrapped, { data: 'not an object', id: 'outer' })).toEqual({ id: 'outer' });
    expect(() => parseAnswer(wrapped, { data: {} })).toThrow(ProviderCallError);
    expect(() => parseAnswer(wrapped, '<html>')).toThrow(ProviderCallError);
  });
});
