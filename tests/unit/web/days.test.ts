import { describe, expect, it } from '@jest/globals';
import { formatDay, isoDayOf, isoDayOrEmpty, parseDay, typingDay } from '../../../web/src/days.js';

describe('days in the back-office: dd/mm/aaaa on screen, yyyy-mm-dd in the address', () => {
  it('puts the slashes in while a day is typed, and keeps 8 digits at most', () => {
    expect(['2', '28', '281', '2811', '28112', '28112026', '281120261', '28/11/2026', 'ab28x11'].map(typingDay)).toEqual([
      '2',
      '28',
      '28/1',
      '28/11',
      '28/11/2',
      '28/11/2026',
      '28/11/2026',
      '28/11/2026',
      '28/11',
    ]);
  });

  it('reads a whole, real day, and nothing else', () => {
    expect(parseDay('28/11/2026')).toBe('2026-11-28');
    expect(parseDay('29/02/2028')).toBe('2028-02-29');
    expect(parseDay('  ')).toBe('');
    for (const text of ['31/02/2026', '29/02/2026', '12/13/2026', '00/01/2026', '1/1/26', '28/11/20', '2026-11-28', '01/01/0999'])
      expect(parseDay(text)).toBeUndefined();
  });

  it('shows an ISO day as dd/mm/aaaa, and takes from the address only a real ISO day', () => {
    expect(formatDay('2026-11-28')).toBe('28/11/2026');
    expect(formatDay('')).toBe('');
    expect(isoDayOrEmpty('2026-11-28')).toBe('2026-11-28');
    expect(['2026-02-31', '28/11/2026', 'x', '', null].map(isoDayOrEmpty)).toEqual(['', '', '', '', '']);
  });

  it("writes an instant's day in the reader's calendar as an ISO day", () => {
    expect(isoDayOf(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(isoDayOf(new Date(2026, 11, 31, 0, 0))).toBe('2026-12-31');
  });
});
