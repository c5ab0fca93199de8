import { expect, it, jest } from '@jest/globals';
import { lookupStatus, statusTable } from '../../../server/lib/statusTable.js';

it('maps case-insensitively on own keys, and reports anything else before giving the default', () => {
  const table = statusTable({ PAID: 'APPROVED', waiting_payment: 'PENDING' }, 'REJECTED');
  const onUnknown = jest.fn();
  expect(lookupStatus(table, 'paid', onUnknown)).toBe('APPROVED');
  expect(lookupStatus(table, ' Waiting_Payment ', onUnknown)).toBe('PENDING');
  expect(onUnknown).not.toHaveBeenCalled();
  for (const odd of ['constructor', 'toString', '', 42, undefined]) expect(lookupStatus(table, odd, onUnknown)).toBe('REJECTED');
  expect(onUnknown).toHaveBeenCalledTimes(5);
  expect(onUnknown).toHaveBeenCalledWith('constructor', 'REJECTED');
});
