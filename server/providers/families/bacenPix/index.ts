/** The BACEN API Pix family: a member module imports everything it needs from here. */
export { BacenPixAdapter } from './adapter.js';
export {
  API_PIX_DOCUMENTATION,
  BACEN_PIX_CREDENTIALS,
  DICT_PAYMENT_LOOKUP_PATH,
  DICT_PAYMENT_PATH,
  IDEMPOTENCY_HEADER,
  PAYOUT_REFUSAL_SOURCE,
  PIX_PAYMENT_SOURCE,
  SELLS_REFUND_PATH,
  bacenPixAuth,
  type BacenPixMember,
  type BacenPixPayout,
  type BacenPixRefund,
} from './member.js';
export { CASH_IN_EVENTS, COB_STATUSES, PAYOUT_EVENT, PAYOUT_STATUSES, REFUND_OUTCOMES, type CashInEventRule, type RefundOutcome } from './statuses.js';
export * from './mappers.js';
export { bacenPixNotificationKey, readBacenPixNotification } from './notifications.js';
export * from './wire.js';
