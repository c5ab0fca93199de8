import { formatBRL } from './money.js';

/**
 * Default withdraw description (spec doc 1 §9, doc 3 §9): providers word it one
 * of two ways; the adapter picks the style its provider used.
 */
export type WithdrawDescriptionStyle = 'requested' | 'withAmount';

export const WITHDRAW_REQUESTED_DESCRIPTION = 'Saque solicitado';

/** 1050 → 'Saque de R$ 10,50'. */
export function defaultWithdrawDescription(amountCents: number, style: WithdrawDescriptionStyle): string {
  return style === 'requested' ? WITHDRAW_REQUESTED_DESCRIPTION : `Saque de ${formatBRL(amountCents)}`;
}

/** Display prefixes the spec names; every other currency, BRL included, shows R$. */
const CURRENCY_PREFIXES: Readonly<Record<string, string>> = { USD: '$', EUR: '€', MXN: 'MX$' };
const DEFAULT_CURRENCY_PREFIX = 'R$';

export function currencyPrefix(currency?: string): string {
  return CURRENCY_PREFIXES[(currency ?? '').trim().toUpperCase()] ?? DEFAULT_CURRENCY_PREFIX;
}
