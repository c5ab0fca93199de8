/** The Iugu family: a member module imports everything it needs from here. */
export { IuguAdapter } from './adapter.js';
export { IUGU_API_TOKEN_BASIC, IUGU_INVOICE_EVENTS, IUGU_PATHS, type IuguMember, type IuguPaths } from './member.js';
export { IUGU_STATUSES } from './statuses.js';
export * from './mappers.js';
export { readIuguTrigger, type IuguTrigger } from './notifications.js';
export type * from './wire.js';
