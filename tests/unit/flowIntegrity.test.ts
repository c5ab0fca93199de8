import { describe, expect, it } from '@jest/globals';
import type { Transaction, Withdrawal } from '../../server/domain/types.js';
import { mismatchOf } from '../../server/gateway/flowIntegrity.js';
import { TRANSACTIONS, WITHDRAWALS } from '../../server/gateway/subjects.js';

/**
 * Flow integrity's rule on amounts: every money status (paid, failed, cancelled, refunded, charged back; charges and
 * payouts) is checked, not only approvals, and an amount that is not a whole number of cents never passes as "not
 * said".
 */
const charge = {
  id: 'c',
  provider: 'SANDBOX',
  providerAccountId: 'a',
  transactionId: 'ch_1',
  status: 'PENDING',
  amount: 1990,
  refundedAmount: 0,
} as Transaction;
const payout = { id: 'w', provider: 'SANDBOX', providerAccountId: 'a', withdrawId: 'wd_1', status: 'PENDING', amount: 777 } as Withdrawal;

describe('mismatchOf', () => {
  it('checks the amount of every money status of a charge, and of a payout', () => {
    for (const status of ['APPROVED', 'REJECTED', 'CANCELED', 'REFUNDED', 'CHARGEBACK'] as const) {
      expect(mismatchOf(TRANSACTIONS, charge, { status, amount: 1990 })).toBeUndefined();
      expect(mismatchOf(TRANSACTIONS, charge, { status, amount: 1 })).toBe(`the provider answered ${status} for 1 cents, the transaction is 1990 cents`);
    }
    for (const status of ['APPROVED', 'REJECTED', 'CANCELED'] as const) {
      expect(mismatchOf(WITHDRAWALS, payout, { status, amount: 777 })).toBeUndefined();
      expect(mismatchOf(WITHDRAWALS, payout, { status, amount: 1 })).toBe(`the provider answered ${status} for 1 cents, the withdrawal is 777 cents`);
    }
  });

  it('leaves a PENDING answer alone: it moves no money', () => {
    expect(mismatchOf(TRANSACTIONS, charge, { status: 'PENDING', amount: 1 })).toBeUndefined();
    expect(mismatchOf(WITHDRAWALS, payout, { status: 'PENDING', amount: { unreadable: 'nothing' } })).toBeUndefined();
  });

  it('calls an amount that is not a whole number of cents a mismatch: a string, a fraction, a negative, zero, nothing sent', () => {
    const sent = [
      [{ unreadable: '"1990"' }, '"1990"'],
      [{ unreadable: 'nothing' }, 'nothing'],
      [19.9, '19.9'],
      [-1990, '-1990'],
      [0, '0'],
    ] as const;
    for (const [amount, text] of sent)
      expect(mismatchOf(TRANSACTIONS, charge, { status: 'APPROVED', amount })).toBe(
        `the provider answered APPROVED with an amount that is not a whole number of cents (${text}), the transaction is 1990 cents`,
      );
  });

  it('takes a refund for the part the gateway refunded (a partial refund), and nothing else but the charge', () => {
    const partlyRefunded = { ...charge, status: 'APPROVED', refundedAmount: 500 } as Transaction;
    expect(mismatchOf(TRANSACTIONS, partlyRefunded, { status: 'REFUNDED', amount: 500 })).toBeUndefined();
    expect(mismatchOf(TRANSACTIONS, partlyRefunded, { status: 'REFUNDED', amount: 1990 })).toBeUndefined();
    expect(mismatchOf(TRANSACTIONS, partlyRefunded, { status: 'REFUNDED', amount: 400 })).toBe(
      'the provider answered REFUNDED for 400 cents, the transaction is 1990 cents',
    );
    expect(mismatchOf(TRANSACTIONS, partlyRefunded, { status: 'APPROVED', amount: 500 })).toBe(
      'the provider answered APPROVED for 500 cents, the transaction is 1990 cents',
    );
  });

  it('compares by id alone only an answer that says no amount (a read of a provider whose reads never say it)', () => {
    expect(mismatchOf(TRANSACTIONS, charge, { status: 'APPROVED', amount: undefined, providerId: 'ch_1' })).toBeUndefined();
    expect(mismatchOf(TRANSACTIONS, charge, { status: 'APPROVED', amount: undefined, providerId: 'ch_2' })).toBe(
      'the provider answered APPROVED about ch_2, asked about ch_1',
    );
  });
});

describe("a read's amount of 0", () => {
  const ask = (readsStateAmounts: boolean) =>
    TRANSACTIONS.askProvider(
      {
        readsStateAmounts,
        getTransaction: async () => ({ paymentMethod: 'PIX', transactionId: 'ch_1', status: 'APPROVED', amount: 0 }),
      } as unknown as Parameters<typeof TRANSACTIONS.askProvider>[0],
      {} as Parameters<typeof TRANSACTIONS.askProvider>[1],
      'ch_1',
    );

  it('is "not said" for a provider whose reads never say the amount, and 0 cents (a mismatch) for any other', async () => {
    expect(mismatchOf(TRANSACTIONS, charge, await ask(false))).toBeUndefined();
    expect(mismatchOf(TRANSACTIONS, charge, await ask(true))).toBe(
      'the provider answered APPROVED with an amount that is not a whole number of cents (0), the transaction is 1990 cents',
    );
  });
});
