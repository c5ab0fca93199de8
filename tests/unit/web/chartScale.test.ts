import { expect, it } from '@jest/globals';
import { niceStep } from '../../../web/src/chartScale.js';

it("the dashboard's bar charts step their scale by 1, 2 or 5 times a power of ten, in about four steps, never below 1", () => {
  expect(niceStep(0)).toBe(1);
  expect(niceStep(3)).toBe(1);
  expect(niceStep(7)).toBe(2);
  expect(niceStep(100)).toBe(50);
  expect(niceStep(9_490)).toBe(5_000);
  expect(niceStep(12_345)).toBe(5_000);
});
