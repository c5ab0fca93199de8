import type { WebhookResult } from '../../../domain/types.js';
import { parseJson } from '../../../lib/json.js';
import { orderStatus, ordersApiStatus, type OrdersApiStatusReader } from './mappers.js';
import { ORDERS_API_EVENTS } from './statuses.js';
import { ORDERS_API_EVENT, ORDERS_API_NOTIFIED_CHARGE, ORDERS_API_NOTIFIED_ORDER } from './wire.js';

/** Notifications are unsigned (the provider does not sign its webhooks): the gateway confirms money states with getTransaction. */

/** A notification → the order it concerns and its status; undefined for ignored events and bodies that cannot be read. */
export function readOrdersApiEvent(body: Buffer | string, reader: OrdersApiStatusReader): WebhookResult | undefined {
  const event = ORDERS_API_EVENT.safeParse(parseJson(body));
  if (!event.success) return undefined;
  const { type, data } = event.data;
  const rule = Object.hasOwn(ORDERS_API_EVENTS, type) ? ORDERS_API_EVENTS[type] : undefined;
  if (!rule) return undefined;
  if (rule.resource === 'order') {
    const order = ORDERS_API_NOTIFIED_ORDER.safeParse(data);
    if (!order.success) return undefined;
    return { type: 'TRANSACTION', transactionId: order.data.id, status: rule.status === 'FROM_RESOURCE' ? orderStatus(order.data, reader) : rule.status };
  }
  const charge = ORDERS_API_NOTIFIED_CHARGE.safeParse(data);
  if (!charge.success) return undefined;
  return {
    type: 'TRANSACTION',
    transactionId: charge.data.order.id,
    status: rule.status === 'FROM_RESOURCE' ? ordersApiStatus(charge.data, reader) : rule.status,
  };
}

/** The event id ('hook_…'), the same on every re-delivery. */
export function ordersApiEventId(body: Buffer | string): string | undefined {
  const event = ORDERS_API_EVENT.safeParse(parseJson(body));
  return event.success ? event.data.id : undefined;
}
