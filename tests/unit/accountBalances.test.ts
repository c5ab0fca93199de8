import { describe, expect, it } from '@jest/globals';
import { dayStartIn, daysBetween, isCalendarDay, nextDay } from '../../server/lib/calendarDay.js';
import { sandboxBalance } from '../../server/sandbox/balance.js';
import type { SandboxCharge, SandboxWithdrawal } from '../../server/sandbox/api.js';

const charge = (method: SandboxCharge['method'], status: SandboxCharge['status'], amount: number, refundedAmount = 0): SandboxCharge => ({
  id: `ch_${method}_${status}_${amount}`,
  amount,
  method,
  status,
  installments: 1,
  createdAt: '2026-03-10T12:00:00Z',
  refundedAmount,
});
const withdrawal = (status: SandboxWithdrawal['status'], amount: number): SandboxWithdrawal => ({
  id: `wd_${status}_${amount}`,
  amount,
  status,
  pixKey: 'ana@example.com',
  pixKeyType: 'EMAIL',
  description: 'Saque',
  createdAt: '2026-03-10T12:00:00Z',
});

describe("the sandbox PSP's balance", () => {
  it('counts paid PIX and boleto as available and paid cards as pending, less refunds; unpaid charges count nothing', () => {
    const charges = [
      charge('pix', 'paid', 1990),
      charge('boleto', 'paid', 5000, 1000),
      charge('pix', 'refunded', 700, 700),
      charge('card', 'paid', 10_000, 2500),
      charge('card', 'declined', 3000),
      charge('pix', 'pending', 4000),
      charge('boleto', 'canceled', 4000),
    ];
    expect(sandboxBalance(charges, [])).toEqual({ available: 5990, pending: 7500, currency: 'BRL' });
  });

  it('takes payouts off the available side when asked for, and gives a failed one back', () => {
    const withdrawals = [withdrawal('paid', 1000), withdrawal('processing', 500), withdrawal('failed', 9000)];
    expect(sandboxBalance([charge('pix', 'paid', 1990)], withdrawals)).toEqual({ available: 490, pending: 0, currency: 'BRL' });
    expect(sandboxBalance([], [withdrawal('paid', 100)]).available).toBe(-100);
  });
});

describe('calendar days of a time zone', () => {
  it('checks days written YYYY-MM-DD that exist', () => {
    expect(isCalendarDay('2026-03-10')).toBe(true);
    expect(isCalendarDay('2028-02-29')).toBe(true);
    expect(isCalendarDay('2026-02-29')).toBe(false);
    expect(isCalendarDay('2026-3-10')).toBe(false);
    expect(isCalendarDay('10/03/2026')).toBe(false);
  });

  it("starts a São Paulo day at its own midnight, before 2019's end of summer time and after", () => {
    expect(dayStartIn('2026-03-10', 'America/Sao_Paulo').toISOString()).toBe('2026-03-10T03:00:00.000Z');
    // Summer time (UTC−2) in January 2018.
    expect(dayStartIn('2018-01-15', 'America/Sao_Paulo').toISOString()).toBe('2018-01-15T02:00:00.000Z');
    expect(dayStartIn('2026-03-10', 'UTC').toISOString()).toBe('2026-03-10T00:00:00.000Z');
  });

  it('steps and counts days across months and years', () => {
    expect(nextDay('2026-02-28')).toBe('2026-03-01');
    expect(nextDay('2026-12-31')).toBe('2027-01-01');
    expect(daysBetween('2026-03-10', '2026-03-10')).toBe(0);
    expect(daysBetween('2025-03-10', '2026-03-10')).toBe(365);
  });
});
