import type { WebhookResult } from '../../../domain/types.js';
import { isRecord, parseJsonObject } from '../../../lib/json.js';
import { textOf } from '../../../lib/values.js';
import { orderStatus, ordersApiStatus, type OrdersApiStatusReader } from './mappers.js';
import { ORDERS_API_EVENTS } from './statuses.js';
import type { OrdersApiCharge, OrdersApiOrder } from './wire.js';

/** Notifications are unsigned (the provider does not sign its webhooks): the gateway confirms money states with getTransaction. */

/** A notification → the order it concerns and its status; undefined for ignored events and unparseable bodies. */
export function readOrdersApiEvent(body: Buffer | string, reader: OrdersApiStatusReader): WebhookResult | undefined {
  const event = parseJsonObject(body);
  if (!event || typeof event.type !== 'string' || !isRecord(event.data)) return undefined;
  const rule = Object.hasOwn(ORDERS_API_EVENTS, event.type) ? ORDERS_API_EVENTS[event.type] : undefined;
  if (!rule) return undefined;
  const data = event.data;
  const orderId = rule.resource === 'order' ? data.id : isRecord(data.order) ? data.order.id : undefined;
  if (typeof orderId !== 'string' || !orderId) return undefined;
  const fromResource = () =>
    rule.resource === 'order' ? orderStatus(data as unknown as OrdersApiOrder, reader) : ordersApiStatus(data as unknown as OrdersApiCharge, reader);
  return { type: 'TRANSACTION', transactionId: orderId, status: rule.status === 'FROM_RESOURCE' ? fromResource() : rule.status };
}

/** The event id ('hook_…'), the same on every re-delivery. */
export const ordersApiEventId = (body: Buffer | string): string | undefined => textOf(parseJsonObject(body)?.id);
