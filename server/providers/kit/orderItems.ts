import type { TransactionInput } from '../../domain/types.js';

/** One line of an order as most providers' charge bodies take it (amounts in the provider's unit). */
export interface OrderItem {
  externalRef?: string;
  title: string;
  unitPrice: number;
  quantity: number;
  tangible: boolean;
}

/**
 * The order's items, each unit price in the provider's unit (`amount` converts cents); when the caller sends none,
 * one intangible item for the whole amount, named by the description or 'Pedido'. Shared by the transactions API
 * family and the bespoke adapters whose bodies carry items (WITETEC, PAGOUAI), each renaming the fields it needs.
 */
export function orderItems(input: Pick<TransactionInput, 'items' | 'description' | 'amount'>, amount: (cents: number) => number): OrderItem[] {
  return input.items.length
    ? input.items.map((item) => ({
        externalRef: item.id,
        title: item.title,
        unitPrice: amount(item.unitPrice),
        quantity: item.quantity,
        tangible: item.tangible,
      }))
    : [{ title: input.description || 'Pedido', unitPrice: amount(input.amount), quantity: 1, tangible: false }];
}
