import { z } from 'zod';
import type { InstallmentOption } from '../../domain/types.js';
import { lastInstallmentOf } from '../../lib/installments.js';
import { reaisToCents } from '../../lib/money.js';
import { absentable, wireText } from '../kit/answers.js';

/**
 * MERCADOPAGO's installments quote, GET /v1/payment_methods/installments
 * (the API reference's installments page; sdk-js's getInstallments): asked with `amount` in reais and the card's `bin`,
 * answered with one entry per payment method that takes the BIN, each with its
 * `payer_costs[{installments, installment_rate, installment_amount,
 * total_amount, ...}]`, amounts in reais. The gateway quotes the credit-card
 * entry (the contract charges credit cards only).
 */

/** Reais as Mercado Pago writes them (at most two decimals, more than zero), in cents; anything else is not an amount. */
const positiveReais = z.union([z.number().finite(), z.string().trim()]).transform((value, ctx) => {
  const text = String(value);
  if (/^\d+(\.\d{1,2})?$/.test(text)) {
    const cents = reaisToCents(text);
    if (cents > 0) return cents;
  }
  ctx.addIssue({ code: 'custom', message: 'valor em reais inválido' });
  return z.NEVER;
});

/**
 * One count's cost to the payer, as the gateway's option: Mercado Pago's installment and total in cents, the last
 * installment absorbing the cents so that they add up to the total exactly. A cost whose installments already pass its
 * total (nothing left for the last one) is not a cost Mercado Pago could charge: a bad answer, never a guess.
 */
const payerCost = z
  .object({
    installments: z.number().int().min(1),
    installment_rate: absentable(z.number().finite()),
    installment_amount: positiveReais,
    total_amount: positiveReais,
  })
  .transform((cost, ctx): InstallmentOption => {
    const { installments: installmentNumber, installment_amount: installmentValue, total_amount: finalValue } = cost;
    const lastInstallmentValue = lastInstallmentOf(finalValue, installmentNumber, installmentValue);
    if (lastInstallmentValue < 1) {
      ctx.addIssue({ code: 'custom', path: ['installment_amount'], message: 'parcelas acima do total' });
      return z.NEVER;
    }
    return { installmentNumber, installmentValue, finalValue, lastInstallmentValue };
  });

/** GET /v1/payment_methods/installments: the payment methods that take the BIN, each with its costs (none: the BIN is unknown). */
export const mercadoPagoInstallments = z.array(
  z.object({
    payment_method_id: wireText,
    payment_type_id: wireText,
    payer_costs: z.array(payerCost),
  }),
);
export type MercadoPagoInstallments = z.output<typeof mercadoPagoInstallments>;

/** The credit-card entry's options, fewest installments first; undefined when the BIN has no credit-card costs. */
export function creditCardInstallmentsOf(quote: MercadoPagoInstallments): InstallmentOption[] | undefined {
  const entry = quote.find((method) => method.payment_type_id === 'credit_card' && method.payer_costs.length > 0);
  return entry && [...entry.payer_costs].sort((a, b) => a.installmentNumber - b.installmentNumber);
}
