/** The orders API family: a member module imports everything it needs from here. */
export { OrdersApiAdapter } from './adapter.js';
export { SECRET_KEY_BASIC, type OrdersApiMember } from './member.js';
export * from './statuses.js';
export * from './mappers.js';
export { ordersApiEventId, readOrdersApiEvent } from './notifications.js';
export type * from './wire.js';
