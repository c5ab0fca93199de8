import type { PaymentMethod, TransactionStatus } from '../../../domain/types.js';
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
 * | HunterPay's /transactions/v2/purchase, AXISBANK's /transactions/refund/{id} | `paths`              |
 * | the F10 purchase and cash-out bodies (AXISBANK, HunterPay; HunterPay adds the items) | `PurchaseAdapter` (`platforms/purchase.ts`: `toPurchase`, `toCashOut`) |
 * | FastSoft and ByNet's /user/transactions, /user/cashout  | `paths`                                                        |
 * | FastSoft and ByNet's shared platform (F7: paths, §9 validity, statuses, prefixes, POST /user/cashout {pixKey, pixType, beneficiary…}) | `...USER_API_PLATFORM` + `UserApiAdapter` (`platforms/userApi.ts`) |
 * | FastSoft's 'Payment method X not implemented for FastSoft' | `failures.unsupportedPaymentMethod: { notImplementedFor: 'FastSoft' }` |
 * | Kuber Finance's 'Failed to refund transaction.'          | `failures.refoundTransaction: 'KUBER_REFUND_FAILED'`          |
 * | the fourth group's 'Erro no saque: …', 'Erro no estorno: …' | `failurePrefixes: { withdraw: 'WITHDRAW_FOURTH_GROUP', refoundTransaction: 'REFUND_FOURTH_GROUP' }` |
 * | ByNet's API-key header                                  | `auth: { type: 'apiKey', header }`                             |
 * | LordsPay's transaction.paid / .failed / .expired / .refunded events | `eventStatuses: { table, unknown: 'PENDING' }`        |
 * | F2's POST /withdrawals/cashout {pixkeytype, pixkey, requestedamount, isPix} (MEDIUS) | `paths: { withdraw: '/withdrawals/cashout' }` + `payoutBody: 'cashout'` |
 * | LYNXPAY's 'Card token is required for credit card payments.' | `failures.missingCard: 'CARD_TOKEN_REQUIRED'`               |
 * | the F1 platform's payout `x-withdraw-key` (PODPAY2, PAYSHARKGATEWAY) | `withdrawKeyHeader` + `credentials.secretKey: ['secret', 'withdrawKey?']` |
 * | doc 3's common pattern (`authorized` APPROVED)           | `statuses.transaction.overrides: DOC3_COMMON_OVERRIDES`       |
 * | Kuber Finance's and Royalpay's PIX, Orbita's billets start PENDING (doc 3 §4) | `pendingAtCreation: ['PIX', 'BILLET']`  |
 * | Kuber Finance's refund by DELETE /transactions/{id}      | `paths: { refund: { method: 'DELETE', path: '/transactions/{id}' } }` |
 * | Royalpay's POST /cashout {amount, pix_key, pix_type}     | `paths: { withdraw: '/cashout' }` + `withdrawalBody` hook     |
 * | PayRoyal, Payber, Pluggo's card: POST /cards/tokenize then POST /cards (doc 3 §7) | `paths: { cardToken: '/cards/tokenize', cardSave: '/cards' }` + `capabilities.cardTokens`, `capabilities.savedCards` (createCardId: the token, given or made by the first call, saved as `{token}`; the answer's `id` is the card id charges send) |
 *
 * A member that needs code extends TransactionsApiAdapter and overrides one
 * documented hook, never an operation:
 * - `failure(operation, prefix, error)`: ROYALTY's 'Royalty <operation> erro <status>: <body>';
 * - `transactionBody(input, ctx)`: ROYALTY's ddd.ddd.ddd-dd CPF;
 * - `refundBody(amount, transactionId, ctx)`: BRPIX Digital's reason beside the amount, LordsPay's {transaction_id, amount, postback_url};
 * - `withdrawalBody(input, ctx)`: Royalpay's {amount, pix_key, pix_type};
 * - `withdrawalHeaders(ctx, input)`: headers a payout needs beyond auth (the declared `withdrawKeyHeader` is the family's);
 * - `cardTokenBody(card)`, `cardTokenQuery(ctx)`: LYNXPAY's validation, AES-256-GCM card and publicKey query.
 * - `parsedNotification(body)`: SaqPay's IPN `{transaction_id, transaction_status, ipn_secret}`.
 */
export interface TransactionsApiMember extends ProviderDeclaration {
  /** Only what differs from TRANSACTIONS_API_PATHS. */
  paths?: Partial<TransactionsApiPaths>;
  /** The payout body: the family's (`transfers`, default) or the "functions/v1" platforms' cashout (F2: MEDIUS, FAIRPAY, BRPIX Digital). */
  payoutBody?: 'transfers' | 'cashout';
  /**
   * Members whose postbacks carry the status in the event name (LordsPay's
   * transaction.paid APPROVED, … others PENDING): the event → status table,
   * matched case-insensitively, `unknown` for any other event.
   */
  eventStatuses?: { table: Readonly<Record<string, TransactionStatus>>; unknown: TransactionStatus };
  /**
   * Methods whose new charge is PENDING whatever the create answer's status
   * (doc 3 §4: "New PIX payments start PENDING at … Kuber Finance, Royalpay;
   * billets start PENDING", "Billet creation returns PENDING (also Orbita)"):
   * the answer still needs its id, not a status.
   */
  pendingAtCreation?: readonly PaymentMethod[];
  /** A payout the provider answers as refused is an error (the declared `failures.withdraw` text), not a REJECTED payout. */
  withdrawalRefusalIsError?: boolean;
  /**
   * The header a payout carries the account's withdraw key in (the F1
   * platform's `x-withdraw-key`: PODPAY2, PAYSHARKGATEWAY). The key is the
   * `withdrawKey?` part of the credential layout, packed after the secret
   * ('<secret>|<withdraw key>'); a payout without it is refused before
   * anything is sent, charges need none.
   */
  withdrawKeyHeader?: string;
}

/** `{id}` is the provider's transaction or payout id. */
export interface TransactionsApiPaths {
  create: PathTemplate;
  get: PathTemplate;
  refund: { method: 'POST' | 'DELETE'; path: PathTemplate };
  withdraw: PathTemplate;
  getWithdraw: PathTemplate;
  cardToken: PathTemplate;
  /** Saves a card from a token (createCardId, where `capabilities.savedCards`): doc 3 §7's POST /cards. */
  cardSave: PathTemplate;
}

/** The family's paths (spec doc 2 §7: POST /transactions, GET /transactions/{id}, POST /transactions/{id}/refund). */
export const TRANSACTIONS_API_PATHS: TransactionsApiPaths = {
  create: '/transactions',
  get: '/transactions/{id}',
  refund: { method: 'POST', path: '/transactions/{id}/refund' },
  withdraw: '/transfers',
  getWithdraw: '/transfers/{id}',
  cardToken: '/card-token',
  cardSave: '/cards',
};
