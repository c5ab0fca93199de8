/** The Cashtime platform family (CASHTIME, REFLOWPAY): a member module imports everything it needs from here. */
export { CashtimeAdapter } from './adapter.js';
export { CASHTIME_PATHS, CASHTIME_PIX_KEYS, type CashtimeMember, type CashtimePaths } from './member.js';
export { CASHTIME_STATUSES, CASHTIME_WITHDRAWAL_STATUSES } from './statuses.js';
export * from './mappers.js';
export { parseCashtimeNotification, type CashtimeNotification } from './notifications.js';
export type * from './wire.js';
