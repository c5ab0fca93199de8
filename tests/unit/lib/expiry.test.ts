import { describe, expect, it } from '@jest/globals';
import {
  BOLETO_DEFAULT_DUE_DAYS,
  BOLETO_DUE_DAYS_BY_PROVIDER,
  PIX_DEFAULT_EXPIRY_SECONDS,
  PIX_EXPIRY_SECONDS_BY_PROVIDER,
  boletoDueDate,
  boletoDueDaysFor,
  pixExpiresAt,
  pixExpirySecondsFor,
} from '../../../server/lib/expiry.js';

const now = new Date('2025-03-10T12:00:00.000Z');

describe('expiry', () => {
  it('expires PIX after 1 day (86400 s) by default', () => {
    expect(PIX_DEFAULT_EXPIRY_SECONDS).toBe(86_400);
    expect(pixExpiresAt(now)).toEqual(new Date('2025-03-11T12:00:00.000Z'));
    expect(pixExpiresAt(now, 1_800)).toEqual(new Date('2025-03-10T12:30:00.000Z'));
  });

  it('makes a boleto due 3 days later by default', () => {
    expect(BOLETO_DEFAULT_DUE_DAYS).toBe(3);
    expect(boletoDueDate(now)).toEqual(new Date('2025-03-13T12:00:00.000Z'));
    expect(boletoDueDate(now, 7)).toEqual(new Date('2025-03-17T12:00:00.000Z'));
  });

  it("holds the spec's named PIX variants", () => {
    expect(PIX_EXPIRY_SECONDS_BY_PROVIDER.NEWLEVEL).toBe(2 * 86_400);
    expect(pixExpirySecondsFor('NEWLEVEL')).toBe(172_800);
    expect(pixExpirySecondsFor('Syncpay')).toBe(172_800);
    expect(pixExpirySecondsFor('FastSoft')).toBe(172_800);
    expect(pixExpirySecondsFor('OwemPay')).toBe(3_600);
    expect(pixExpirySecondsFor('Flow2Pay')).toBe(86_400);
    expect(pixExpirySecondsFor('PAGUESAFE')).toBe(86_400);
    expect(pixExpiresAt(now, pixExpirySecondsFor('NEWLEVEL'))).toEqual(new Date('2025-03-12T12:00:00.000Z'));
  });

  it("holds the spec's named boleto variants", () => {
    expect(BOLETO_DUE_DAYS_BY_PROVIDER.PAGARMEBAAS).toBe(5);
    expect(boletoDueDaysFor('CELCOIN')).toBe(5);
    for (const provider of ['MakeYourBank', 'FastSoft', 'ByNet']) expect(boletoDueDaysFor(provider)).toBe(7);
    expect(boletoDueDaysFor('PIXIUM')).toBe(3);
    expect(boletoDueDate(now, boletoDueDaysFor('PAGARMEBAAS'))).toEqual(new Date('2025-03-15T12:00:00.000Z'));
  });

  it('does not move the clock it is given', () => {
    const before = now.getTime();
    pixExpiresAt(now);
    boletoDueDate(now);
    expect(now.getTime()).toBe(before);
  });
});
