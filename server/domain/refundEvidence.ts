/**
 * What the gateway knows of a charge's refunds when it asks the provider about
 * one whose outcome is unknown: read after the provider's answer, so that no
 * refund sent after that read can be counted here and not there.
 */
export interface RefundLedger {
  /** Cents the gateway recorded as refunded. */
  refunded: number;
  /** Cents held by refunds not yet settled (in flight, accepted but still being carried out, or unknown), the one asked about included. */
  reserved: number;
}

/**
 * Whether the provider's refunded total for a charge proves that the refund of
 * `amount` cents was made. The provider's total beyond what the gateway
 * recorded is made of refunds the gateway still holds; it proves this one only
 * when the others held, all of them made, could not explain it, and it covers
 * this one. Anything less (the provider still carrying it out, a total that one
 * of the others could account for) proves nothing yet: the resolver asks again.
 * Like the REFUNDED rule before it, this takes the charge's refunds to be sent
 * through the gateway: one made in the provider's own dashboard would be
 * counted as this one.
 */
export function refundShownByTotal(providerRefunded: number, ledger: RefundLedger, amount: number): boolean {
  if (!Number.isSafeInteger(amount) || amount <= 0) return false;
  const unexplained = providerRefunded - ledger.refunded;
  const others = Math.max(ledger.reserved - amount, 0);
  return unexplained >= amount && unexplained > others;
}
