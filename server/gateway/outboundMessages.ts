import type { TransactionStatusChanged } from '../db/transactionsRepository.js';

/** The body POSTed to a transaction's webhook_url for one status change (its shape is documented in the README). */
export function transactionStatusChangedBody({ transaction, event, from }: TransactionStatusChanged): string {
  return JSON.stringify({
    id: event.eventId,
    type: 'transaction.status_changed',
    createdAt: event.occurredAt.toISOString(),
    data: {
      id: transaction.id,
      transactionId: transaction.transactionId,
      provider: transaction.provider,
      providerAccountId: transaction.providerAccountId,
      orderId: transaction.orderId,
      paymentMethod: transaction.paymentMethod,
      amount: transaction.amount,
      status: event.status,
      previousStatus: from,
      source: event.source,
    },
  });
}
