/** The transactions API family: a member module imports everything it needs from here. */
export { TransactionsApiAdapter } from './adapter.js';
export { TRANSACTIONS_API_PATHS, type TransactionsApiMember, type TransactionsApiPaths } from './member.js';
export { TRANSACTIONS_API_STATUSES, TRANSACTIONS_API_WITHDRAWAL_STATUSES } from './statuses.js';
export * from './mappers.js';
export { parseNotification, type ParsedNotification } from './notifications.js';
export type * from './wire.js';
export { USER_API_PLATFORM, UserApiAdapter, toUserCashout } from './userApi.js';
export { PurchaseAdapter, toPurchase, toCashOut, type PurchaseTerms } from './purchase.js';
