import type { PixPayment, RefundedCharge } from './types.js';

/** The longest text kept of each fact: an end-to-end id is 32 characters, the rest are names and documents. */
const MAX_LENGTH = 200;

const FIELDS = ['endToEndId', 'payerName', 'payerDocument', 'payerBankIspb', 'payerBankName'] as const satisfies ReadonlyArray<keyof PixPayment>;

/** A provider's facts trimmed and bounded, the empty ones left out; undefined when none is left. */
export function pixPaymentOf(facts: { [K in keyof PixPayment]?: string | null } | undefined): PixPayment | undefined {
  if (!facts) return undefined;
  const kept: PixPayment = {};
  for (const field of FIELDS) {
    const value = facts[field]?.trim().slice(0, MAX_LENGTH);
    if (value) kept[field] = value;
  }
  return Object.keys(kept).length ? kept : undefined;
}

/** Each fact from the first answer that states it (e.g. the provider's read before the notification it confirmed). */
export function firstStated(...answers: ReadonlyArray<PixPayment | undefined>): PixPayment | undefined {
  const merged: PixPayment = {};
  for (const field of FIELDS) {
    const value = answers.find((answer) => answer?.[field])?.[field];
    if (value) merged[field] = value;
  }
  return pixPaymentOf(merged);
}

/** The facts as the record's columns, in FIELDS order: null for each one not stated. */
export const pixPaymentColumns = (facts: PixPayment): Array<string | null> => FIELDS.map((field) => facts[field] ?? null);

/** What a refund's provider is told of the charge: its PIX's end-to-end id, once known. */
export const refundedCharge = (charge: { pixPayment?: PixPayment }): RefundedCharge =>
  charge.pixPayment?.endToEndId ? { pixEndToEndId: charge.pixPayment.endToEndId } : {};

/** An answer's facts to spread into a result: `{pixPayment}` when one is stated, else nothing. */
export function statedPixPayment(facts: Parameters<typeof pixPaymentOf>[0]): { pixPayment?: PixPayment } {
  const pixPayment = pixPaymentOf(facts);
  return pixPayment ? { pixPayment } : {};
}
