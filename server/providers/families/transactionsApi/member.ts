import type { ProviderDeclaration, PathTemplate } from '../../kit/declaration.js';

/**
 * What a member of the transactions API family declares: the kit's one
 * declaration shape (identity, capabilities, auth, credentials, money, expiry,
 * statuses, failures) and the paths of this dialect. Everything else is the
 * family's. Extension points, for the variations the spec lists:
 *
 * | variation (spec doc 2 §4–§9)                        | declared as                                                   |
 * |-----------------------------------------------------|---------------------------------------------------------------|
 * | VENIT's POST /transaction                           | `paths: { create: '/transaction' }`                           |
 * | ROYALTY's /user/transactions paths                  | `paths: { create, get, refund }`                               |
 * | FAIRPAY's refund by DELETE /transactions/{id}       | `paths: { refund: { method: 'DELETE', path: '/transactions/{id}' } }` |
 * | NEWLEVEL's POST /cashout, GATYWAY's POST /transfers | `paths: { withdraw: '/cashout' }` + `capabilities.withdrawMethods` |
 * | NEWLEVEL's REFUSED payout is an error               | `withdrawalRefusalIsError: true` + `failures.withdraw: 'ERROR_ON_WITHDRAW'` |
 * | GATYWAY's POST /card-token                          | `paths: { cardToken: '/card-token' }` + `capabilities.cardTokens` |
 * | GATYWAY's 'Unsupported payment method'              | `failures.unsupportedPaymentMethod: 'UNSUPPORTED_PAYMENT_METHOD'` |
 * | VENIT, VENITIP 'Erro ao criar transação'            | `failures.createTransaction: 'CREATE_TRANSACTION_FAILED'`      |
 * | PAGUESAFE, PIXIUM, HORIZONBANK 'Internal server error' | `failures.refoundTransaction: 'INTERNAL_SERVER_ERROR'`      |
 * | VENITIP's own table                                 | `statuses.transaction: { table, unknown: 'PENDING' }`          |
 * | NEWLEVEL's 2-day PIX                                | `expiry: { pixSeconds: 2 * SECONDS_PER_DAY }`                  |
 * | ROYALTY's required secret key                       | `credentials: { required: ['secretKey'] }`                    |
 * | amounts in reais                                    | `money: 'reais'`                                               |
 *
 * A member that needs code (ROYALTY's 'Royalty <operation> erro <status>:
 * <body>' and its ddd.ddd.ddd-dd CPF) extends TransactionsApiAdapter and
 * overrides one documented hook (`failure`, `transactionBody`,
 * `withdrawalBody`, `cardTokenBody`), never an operation.
 */
export interface TransactionsApiMember extends ProviderDeclaration {
  /** Only what differs from TRANSACTIONS_API_PATHS. */
  paths?: Partial<TransactionsApiPaths>;
  /** A payout the provider answers as refused is an error (the declared `failures.withdraw` text), not a REJECTED payout. */
  withdrawalRefusalIsError?: boolean;
}

/** `{id}` is the provider's transaction or payout id. */
export interface TransactionsApiPaths {
  create: PathTemplate;
  get: PathTemplate;
  refund: { method: 'POST' | 'DELETE'; path: PathTemplate };
  withdraw: PathTemplate;
  getWithdraw: PathTemplate;
  cardToken: PathTemplate;
}

/** The family's paths (spec doc 2 §7: POST /transactions, GET /transactions/{id}, POST /transactions/{id}/refund). */
export const TRANSACTIONS_API_PATHS: TransactionsApiPaths = {
  create: '/transactions',
  get: '/transactions/{id}',
  refund: { method: 'POST', path: '/transactions/{id}/refund' },
  withdraw: '/transfers',
  getWithdraw: '/transfers/{id}',
  cardToken: '/card-token',
};
