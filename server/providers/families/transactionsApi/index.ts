/** The transactions API family: a member module imports everything it needs from here. */
export { TransactionsApiAdapter } from './adapter.js';
export { TRANSACTIONS_API_PATHS, type TransactionsApiMember, type TransactionsApiPaths } from './member.js';
export { DOC3_COMMON_OVERRIDES, TRANSACTIONS_API_STATUSES, TRANSACTIONS_API_WITHDRAWAL_STATUSES } from './statuses.js';
export * from './mappers.js';
export { parseNotification, type ParsedNotification } from './notifications.js';
export * from './wire.js';
