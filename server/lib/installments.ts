/**
 * Installment plans (specification, document 000 §5 "Installments"): "For each count from 1 up to the allowed number,
 * the fee is 0 up to the interest-free maximum, then taken from a per-installment fee list in percent. The installment
 * value is rounded to 2 decimals. It is offered only when it is at least the minimum installment value."
 *
 * Rounding the installment leaves the installments a few cents off the final value (3 × 666 = 1998 for 1999): the
 * last installment absorbs the difference (666, 666, 667), so they always add up to the final value exactly. A count
 * is offered only when every installment, the last one too, is at least the minimum (and at least one cent).
 */
export interface InstallmentRules {
  maxInstallments: number;
  interestFreeInstallments: number;
  /** Fee in percent for each count, index 0 = 1 installment. Missing entries are 0. */
  feePercentByInstallment: readonly number[];
  /** Cents. */
  minInstallmentValue: number;
}

export interface InstallmentOption {
  installmentNumber: number;
  /** Cents, rounded to 2 decimals of reais: each installment but the last. */
  installmentValue: number;
  /** Cents: what the buyer pays in all. */
  finalValue: number;
  /** Cents: the last installment, finalValue − (installmentNumber − 1) × installmentValue. */
  lastInstallmentValue: number;
}

/** The gateway's plan for an account of a card provider that has set none: one installment, no fee. */
export const SINGLE_INSTALLMENT_RULES: InstallmentRules = {
  maxInstallments: 1,
  interestFreeInstallments: 1,
  feePercentByInstallment: [],
  minInstallmentValue: 0,
};

/** The largest count an account's plan may offer. */
export const MAX_PLAN_INSTALLMENTS = 24;
/** The largest fee, in percent, an account's plan may add for one count. */
export const MAX_PLAN_FEE_PERCENT = 100;

/** The last installment of `count`, each other one being `installmentValue`, so that they add up to `finalValue`. */
export function lastInstallmentOf(finalValue: number, count: number, installmentValue: number): number {
  return finalValue - (count - 1) * installmentValue;
}

export function calculateInstallments(amount: number, rules: InstallmentRules): InstallmentOption[] {
  const options: InstallmentOption[] = [];
  const minimum = Math.max(1, rules.minInstallmentValue);
  for (let count = 1; count <= rules.maxInstallments; count += 1) {
    const feePercent = count <= rules.interestFreeInstallments ? 0 : (rules.feePercentByInstallment[count - 1] ?? 0);
    // Basis points keep the fee arithmetic in integers.
    const feeBasisPoints = Math.round(feePercent * 100);
    const finalValue = Math.round((amount * (10_000 + feeBasisPoints)) / 10_000);
    const installmentValue = Math.round(finalValue / count);
    const lastInstallmentValue = lastInstallmentOf(finalValue, count, installmentValue);
    if (Math.min(installmentValue, lastInstallmentValue) < minimum) continue;
    options.push({ installmentNumber: count, installmentValue, finalValue, lastInstallmentValue });
  }
  return options;
}

/** A plan's fault: the field it is in (the contract's names), a text naming it, and the range a count must be in. */
export interface InstallmentPlanFault {
  field: string;
  message: string;
  range?: { min: number; max: number };
}

/** A plan's first fault; undefined when it is sound. */
export function installmentPlanFault(plan: InstallmentRules, field = 'installment_plan'): InstallmentPlanFault | undefined {
  const fault = (name: string, message: string, range?: InstallmentPlanFault['range']) => ({
    field: `${field}.${name}`,
    message: `${field}.${name} ${message}`,
    ...(range ? { range } : {}),
  });
  const { maxInstallments, interestFreeInstallments, feePercentByInstallment: fees, minInstallmentValue } = plan;
  if (!Number.isInteger(maxInstallments) || maxInstallments < 1 || maxInstallments > MAX_PLAN_INSTALLMENTS)
    return fault('max_installments', `must be a whole number from 1 to ${MAX_PLAN_INSTALLMENTS}, got ${maxInstallments}`, {
      min: 1,
      max: MAX_PLAN_INSTALLMENTS,
    });
  if (!Number.isInteger(interestFreeInstallments) || interestFreeInstallments < 0 || interestFreeInstallments > maxInstallments)
    return fault('interest_free_installments', `must be a whole number from 0 to max_installments (${maxInstallments}), got ${interestFreeInstallments}`, {
      min: 0,
      max: maxInstallments,
    });
  if (!Number.isSafeInteger(minInstallmentValue) || minInstallmentValue < 0)
    return fault('min_installment_value', `must be a whole number of cents, 0 or more, got ${minInstallmentValue}`);
  const withFee = maxInstallments - interestFreeInstallments;
  if (withFee > 0 && fees.length !== maxInstallments)
    return fault(
      'fee_percent_by_installment',
      `must have one fee per count from 1 to max_installments (${maxInstallments} entries, 0 for the interest-free ones), got ${fees.length}`,
    );
  if (withFee === 0 && fees.length > maxInstallments)
    return fault('fee_percent_by_installment', `has ${fees.length} entries for at most ${maxInstallments} counts`);
  for (const [index, fee] of fees.entries()) {
    const count = index + 1;
    if (!Number.isFinite(fee) || fee < 0 || fee > MAX_PLAN_FEE_PERCENT)
      return fault('fee_percent_by_installment', `for ${count} installments must be a percentage from 0 to ${MAX_PLAN_FEE_PERCENT}, got ${fee}`);
    if (Math.abs(fee * 100 - Math.round(fee * 100)) > 1e-6)
      return fault('fee_percent_by_installment', `for ${count} installments has more than 2 decimals: ${fee}`);
    if (count <= interestFreeInstallments && fee !== 0)
      return fault(
        'fee_percent_by_installment',
        `for ${count} installments must be 0: counts up to interest_free_installments (${interestFreeInstallments}) carry no fee, got ${fee}`,
      );
  }
  return undefined;
}
