/**
 * Installment plans (specification, document 1 §5): for each count up to the
 * allowed maximum, no fee up to the interest-free maximum, then the fee for that
 * count from a list in percent; an option is offered only when one installment is
 * at least the minimum installment value.
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
  /** Cents, rounded to 2 decimals of reais. */
  installmentValue: number;
  /** Cents. */
  finalValue: number;
}

export function calculateInstallments(amount: number, rules: InstallmentRules): InstallmentOption[] {
  const options: InstallmentOption[] = [];
  for (let count = 1; count <= rules.maxInstallments; count += 1) {
    const feePercent = count <= rules.interestFreeInstallments ? 0 : (rules.feePercentByInstallment[count - 1] ?? 0);
    // Basis points keep the fee arithmetic in integers.
    const feeBasisPoints = Math.round(feePercent * 100);
    const finalValue = Math.round((amount * (10_000 + feeBasisPoints)) / 10_000);
    const installmentValue = Math.round(finalValue / count);
    if (installmentValue < rules.minInstallmentValue) continue;
    options.push({ installmentNumber: count, installmentValue, finalValue });
  }
  return options;
}
