import { describe, expect, it } from '@jest/globals';
import { recordTransaction, recordWithdrawal } from '../../server/gateway/recording.js';

/**
 * Recording a provider's read after an unknown outcome (an operator's
 * settlement): a read that does not say the amount (0, PAGSTAR's checks) keeps
 * the amount the caller asked for, never records a charge or payout of 0 cents.
 */
function stubDeps() {
  const inserted: Array<{ result: { amount: number } }> = [];
  const deps = {
    db: { em: () => ({}), rootEm: () => ({}) },
    events: { published: () => undefined },
    transactions: {
      insertTransaction: async (_em: unknown, input: { result: { amount: number } }) => (inserted.push(input), { transaction: input, event: undefined }),
    },
    withdrawals: {
      insertWithdrawal: async (_em: unknown, input: { result: { amount: number } }) => (inserted.push(input), { withdrawal: input, event: undefined }),
    },
  };
  return { deps: deps as unknown as Parameters<typeof recordTransaction>[0], inserted };
}

const charge = { kind: 'transaction' as const, provider: 'PAGSTAR', installments: 1, currency: 'BRL' };
const read = (amount: number) => ({ paymentMethod: 'PIX' as const, transactionId: 'ps-1', status: 'APPROVED' as const, amount });

describe('recording a read after an unknown outcome', () => {
  it('keeps the amount asked for when the read says none (0)', async () => {
    const { deps, inserted } = stubDeps();
    await recordTransaction(deps, 'acc', { ...charge, amount: 1990 }, read(0), 'idem-1');
    await recordWithdrawal(
      deps,
      'acc',
      { kind: 'withdrawal', provider: 'PAGSTAR', paymentMethod: 'PIX', amount: 2500 },
      { withdrawId: 'w', status: 'PENDING', amount: 0 },
      'idem-2',
    );
    expect(inserted.map((input) => input.result.amount)).toEqual([1990, 2500]);
  });

  it('keeps the amount asked for when the read says a negative or a fraction of a cent', async () => {
    const { deps, inserted } = stubDeps();
    await recordTransaction(deps, 'acc', { ...charge, amount: 1990 }, read(-1990), 'idem-6');
    await recordTransaction(deps, 'acc', { ...charge, amount: 1990 }, read(19.9), 'idem-7');
    expect(inserted.map((input) => input.result.amount)).toEqual([1990, 1990]);
  });

  it("records the provider's amount when it says one, and a pending record of old (without an amount) as it is", async () => {
    const { deps, inserted } = stubDeps();
    await recordTransaction(deps, 'acc', { ...charge, amount: 1990 }, read(1500), 'idem-3');
    await recordTransaction(deps, 'acc', charge, read(0), 'idem-4');
    expect(inserted.map((input) => input.result.amount)).toEqual([1500, 0]);
  });
});

describe('recording a charge settled after an unknown outcome', () => {
  it("keeps the customer's document and e-mail the pending record held, so that the back-office's search finds it", async () => {
    const { deps, inserted } = stubDeps();
    await recordTransaction(deps, 'acc', { ...charge, customerDocument: '12345678909', customerEmail: 'ana@example.com' }, read(1990), 'idem-5');
    expect(inserted[0]).toMatchObject({ customerDocument: '12345678909', customerEmail: 'ana@example.com' });
  });
});
