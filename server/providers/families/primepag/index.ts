/** The PrimePag platform (PRIMEPAG, ZENDRY): a member module imports everything it needs from here. */
export { PrimePagAdapter } from './adapter.js';
export { PRIMEPAG_AUTH, PRIMEPAG_CREDENTIALS, PRIMEPAG_PATHS, PRIMEPAG_PIX_KEY_STYLE, type PrimePagMember, type PrimePagPaths } from './member.js';
export { PRIMEPAG_PAYMENT_STATUSES, PRIMEPAG_QR_CODE_STATUSES } from './statuses.js';
export * from './mappers.js';
export { parsePrimePagNotification, primePagNotificationKey, readPrimePagNotification, type ParsedNotification } from './notifications.js';
export type * from './wire.js';
