import { describe, expect, it } from '@jest/globals';
import { COUNTRY_CODE, formatPhoneForDisplay, nationalPhoneDigits, splitPhone } from '../../../server/lib/phone.js';

describe('phone', () => {
  it("uses Brazil's country code 55", () => {
    expect(COUNTRY_CODE).toBe('55');
  });

  it('splits a national number into a 2-digit area code and the rest', () => {
    expect(splitPhone('(11) 98765-4321')).toEqual({ areaCode: '11', number: '987654321' });
    expect(splitPhone('1130000000')).toEqual({ areaCode: '11', number: '30000000' });
  });

  it('drops a leading 55 country code only when 12 or 13 digits are given', () => {
    expect(splitPhone('+55 (11) 98765-4321')).toEqual({ areaCode: '11', number: '987654321' });
    expect(splitPhone('551130000000')).toEqual({ areaCode: '11', number: '30000000' });
    // DDD 55 without a country code keeps its 55.
    expect(splitPhone('55987654321')).toEqual({ areaCode: '55', number: '987654321' });
    expect(nationalPhoneDigits('5555987654321')).toBe('55987654321');
    // Too long to be 55 + a national number: left as it is, not shortened.
    expect(nationalPhoneDigits('55119876543210')).toBe('55119876543210');
  });

  it('formats an 11-digit phone as (DD) NNNNN-NNNN for display', () => {
    expect(formatPhoneForDisplay('11987654321')).toBe('(11) 98765-4321');
    expect(formatPhoneForDisplay('+55 11 98765-4321')).toBe('(11) 98765-4321');
    expect(formatPhoneForDisplay('1130000000')).toBe('(11) 3000-0000');
    expect(formatPhoneForDisplay('12345')).toBe('12345');
  });
});
