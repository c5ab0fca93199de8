import { expect, it } from '@jest/globals';
import { containsPattern, idPrefixRange } from '../../server/db/transactionSearch.js';

it("finds the text anywhere, lower-cased, with LIKE's own wildcards and escape taken literally", () => {
  expect(containsPattern('Mari')).toBe('%mari%');
  expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
});

it('reads the beginning of a gateway id as the range of the ids that begin so, whatever the case', () => {
  expect(idPrefixRange('3f2a1b4c')).toEqual({ from: '3f2a1b4c-0000-0000-0000-000000000000', to: '3f2a1b4c-ffff-ffff-ffff-ffffffffffff' });
  expect(idPrefixRange('3F2A1B4C-9D')).toEqual({ from: '3f2a1b4c-9d00-0000-0000-000000000000', to: '3f2a1b4c-9dff-ffff-ffff-ffffffffffff' });
  // Its dash typed too, and nothing after it yet.
  expect(idPrefixRange('3f2a1b4c-')).toEqual({ from: '3f2a1b4c-0000-0000-0000-000000000000', to: '3f2a1b4c-ffff-ffff-ffff-ffffffffffff' });
  expect(idPrefixRange('3f2a1b4c-9d0e-4f1a-8b2c-0123456789ab')).toEqual({
    from: '3f2a1b4c-9d0e-4f1a-8b2c-0123456789ab',
    to: '3f2a1b4c-9d0e-4f1a-8b2c-0123456789ab',
  });
});

it('reads nothing as an id that cannot begin one as the gateway writes them', () => {
  // Not hex, a dash where none goes, the digits run past a dash's place, or longer than an id.
  for (const text of ['mari', 'ord-1', '3f-2a', '3f2a1b4c9d', '3f2a1b4c-9d0e-4f1a-8b2c-0123456789abc', '']) expect(idPrefixRange(text)).toBeUndefined();
});
