import { invalidArgument } from '../lib/errors.js';
import { calculateInstallments, installmentPlanFault, lastInstallmentOf, SINGLE_INSTALLMENT_RULES } from '../lib/installments.js';
import type { InstallmentOption, InstallmentPlan, ProviderAccountWithSecrets } from '../domain/types.js';
import type { AdapterContext, InstallmentCard, ProviderAdapter } from '../providers/adapter.js';
import { invalidValue, outOfRange } from './validation.js';

/** An option as the gateway answers it: the last installment always said. */
export type QuotedInstallment = InstallmentOption & { lastInstallmentValue: number };

export const takesCards = (adapter: ProviderAdapter): boolean => adapter.capabilities.paymentMethods.includes('CREDIT_CARD');

/** Whether the provider answers CalculateInstallments itself (SANDBOX's fake PSP, MERCADOPAGO's quote API); elsewhere the gateway computes it. */
export const quotesInstallmentsItself = (adapter: ProviderAdapter): boolean => adapter.supports('calculateInstallments');

/** Whether CalculateInstallments answers at an account of this provider: its own quote, or the gateway's for a card provider. */
export const answersInstallments = (adapter: ProviderAdapter): boolean => quotesInstallmentsItself(adapter) || takesCards(adapter);

/** Whether an account of this provider takes a plan: it takes cards and quotes no installments itself. */
export const takesInstallmentPlan = (adapter: ProviderAdapter): boolean => takesCards(adapter) && !quotesInstallmentsItself(adapter);

/** A plan an account of this provider may hold, or INVALID_ARGUMENT naming the field. */
export function checkInstallmentPlan(adapter: ProviderAdapter, plan: InstallmentPlan | null | undefined): void {
  if (!plan) return;
  const { id } = adapter.identity;
  if (quotesInstallmentsItself(adapter))
    throw invalidArgument('installment_plan', `${id} quotes its own installments: installment_plan is not taken`, 'NOT_ALLOWED');
  if (!takesCards(adapter)) throw invalidArgument('installment_plan', `${id} does not take cards (CREDIT_CARD): installment_plan is not taken`, 'NOT_ALLOWED');
  const fault = installmentPlanFault(plan);
  if (fault) throw fault.range ? outOfRange(fault.field, fault.message, fault.range.min, fault.range.max) : invalidValue(fault.field, fault.message);
}

/** Completes a provider's option with its last installment, where the provider's answer does not say it. */
function withLastInstallment(option: InstallmentOption): QuotedInstallment {
  const { installmentNumber, installmentValue, finalValue } = option;
  return { ...option, lastInstallmentValue: option.lastInstallmentValue ?? lastInstallmentOf(finalValue, installmentNumber, installmentValue) };
}

/**
 * The installments offered for `amount` at an account: the provider's own quote where it has one, else the account's
 * plan (one installment, no fee, when it has set none). The caller has checked answersInstallments and the card's BIN;
 * the BIN goes to a provider that quotes itself (MERCADOPAGO quotes by it), and plays no part in the account's plan.
 */
export async function quoteInstallments(
  adapter: ProviderAdapter,
  ctx: AdapterContext,
  account: ProviderAccountWithSecrets,
  amount: number,
  card: InstallmentCard = {},
): Promise<QuotedInstallment[]> {
  if (quotesInstallmentsItself(adapter)) return (await adapter.calculateInstallments(ctx, amount, card)).map(withLastInstallment);
  return calculateInstallments(amount, account.installmentPlan ?? SINGLE_INSTALLMENT_RULES);
}

/** The card's BIN as CalculateInstallments takes it (`card_bin`): absent, or its first 6 to 8 digits, nothing else. */
export function checkedCardBin(cardBin: string | undefined): string | undefined {
  if (cardBin === undefined || cardBin === '') return undefined;
  if (!/^\d{6,8}$/.test(cardBin))
    throw invalidArgument('card_bin', `card_bin must be the card's first 6 to 8 digits, digits only (got ${cardBin.length} characters)`, 'INVALID_VALUE');
  return cardBin;
}
