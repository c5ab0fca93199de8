import type { SandboxCharge, SandboxWithdrawal } from './api.js';

/** GET /v1/balance: what the merchant holds at the sandbox PSP, in cents. */
export interface SandboxBalance {
  available: number;
  pending: number;
  currency: 'BRL';
}

/**
 * The sandbox's balance, computed from what it did for one merchant: PIX and boleto money is available once paid; a
 * card's stays pending, as an acquirer's receivable does until it settles; refunds leave the charge's side they came
 * from, and every payout not failed leaves the available side when it is asked for (as a PSP reserves it).
 */
export function sandboxBalance(
  charges: Iterable<Pick<SandboxCharge, 'method' | 'status' | 'amount' | 'refundedAmount'>>,
  withdrawals: Iterable<Pick<SandboxWithdrawal, 'status' | 'amount'>>,
): SandboxBalance {
  let available = 0;
  let pending = 0;
  for (const charge of charges) {
    if (charge.status !== 'paid' && charge.status !== 'refunded') continue;
    const kept = charge.amount - charge.refundedAmount;
    if (charge.method === 'card') pending += kept;
    else available += kept;
  }
  for (const withdrawal of withdrawals) if (withdrawal.status !== 'failed') available -= withdrawal.amount;
  return { available, pending, currency: 'BRL' };
}
