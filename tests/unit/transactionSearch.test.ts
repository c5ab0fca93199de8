import { expect, it } from '@jest/globals';
import { containsPattern } from '../../server/db/transactionSearch.js';

it("finds the text anywhere, lower-cased, with LIKE's own wildcards and escape taken literally", () => {
  expect(containsPattern('Mari')).toBe('%mari%');
  expect(containsPattern('50%_off\\')).toBe('%50\\%\\_off\\\\%');
});
