/** The Iugu family: a member module imports everything it needs from here. */
export { IuguAdapter } from './adapter.js';
export {
  IUGU_ACCOUNT_INFORMATION,
  IUGU_API_DOCUMENTATION,
  IUGU_API_TOKEN_BASIC,
  IUGU_INVOICE_EVENTS,
  IUGU_MARKETPLACE_DOCUMENTATION,
  IUGU_PATHS,
  IUGU_WITHDRAW_EVENTS,
  type IuguMember,
  type IuguPaths,
} from './member.js';
export { IUGU_STATUSES, IUGU_WITHDRAW_STATUSES } from './statuses.js';
export * from './mappers.js';
export { readIuguTrigger, readIuguWithdrawTrigger, type IuguTrigger, type IuguWithdrawTrigger } from './notifications.js';
export type * from './wire.js';
