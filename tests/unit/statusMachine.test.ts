import { expect, it } from '@jest/globals';
import { canMoveTransaction, canMoveWithdrawal } from '../../server/domain/statusMachine.js';

it('moves statuses only forward', () => {
  expect(canMoveTransaction('PENDING', 'APPROVED')).toBe(true);
  expect(canMoveTransaction('APPROVED', 'REFUNDED')).toBe(true);
  expect(canMoveTransaction('APPROVED', 'CHARGEBACK')).toBe(true);
  expect(canMoveTransaction('APPROVED', 'PENDING')).toBe(false);
  expect(canMoveTransaction('REFUNDED', 'APPROVED')).toBe(false);
  expect(canMoveTransaction('REJECTED', 'APPROVED')).toBe(false);
  expect(canMoveWithdrawal('PENDING', 'APPROVED')).toBe(true);
  expect(canMoveWithdrawal('APPROVED', 'REJECTED')).toBe(false);
});
