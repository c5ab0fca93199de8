import { RoutingStrategy, type RouteRule } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { PaymentMethod } from '../../gen/ts-proto/gateway/v1/types.js';

/** A PIX rule trying `targets` in the listed order (priority), with whatever else `extra` sets. */
export const pixRule = (targets: string[], extra: Partial<RouteRule> = {}): Partial<RouteRule> => ({
  paymentMethods: [PaymentMethod.PAYMENT_METHOD_PIX],
  strategy: RoutingStrategy.ROUTING_STRATEGY_PRIORITY,
  targets: targets.map((providerAccountId) => ({ providerAccountId, weight: 0, fees: [] })),
  ...extra,
});
