import * as pb from '../../gen/ts-proto/gateway/v1/types.js';
import * as rt from '../../gen/ts-proto/gateway/v1/routing_service.js';
import type { Route, RouteInput, RouteRule, RoutingStrategy } from '../domain/routing.js';
import type { PaymentMethod } from '../domain/types.js';
import { invalidArgument } from '../lib/errors.js';
import { enumFilter, enumListFilter, fromEnum, toEnum } from './enums.js';
import { paymentMethodToProto } from './protoMapper.js';
import type { UseCases } from './rpcHandlers.js';

/** RoutingService: routes in the contract's shape ↔ the domain's (routing.ts). */

const strategyOf = (value: rt.RoutingStrategy): RoutingStrategy =>
  (fromEnum<string>(rt.RoutingStrategy, 'ROUTING_STRATEGY', value)?.toLowerCase() ?? '') as RoutingStrategy;

function feeMethod(value: pb.PaymentMethod, field: string): PaymentMethod {
  const method = enumFilter<PaymentMethod>(pb.PaymentMethod, 'PAYMENT_METHOD', value, field);
  if (!method) throw invalidArgument(field, `${field} is required`, 'REQUIRED');
  return method;
}

function fromProtoRule(rule: rt.RouteRule, index: number): RouteRule {
  const at = `rules[${index}]`;
  return {
    paymentMethods: enumListFilter<PaymentMethod>(pb.PaymentMethod, 'PAYMENT_METHOD', rule.paymentMethods, `${at}.payment_methods`),
    minAmount: rule.minAmount,
    maxAmount: rule.maxAmount,
    currencies: rule.currencies,
    cardBrands: rule.cardBrands,
    binRanges: rule.binRanges.map((range) => ({ from: range.from, to: range.to })),
    minInstallments: rule.minInstallments,
    maxInstallments: rule.maxInstallments,
    strategy: strategyOf(rule.strategy),
    targets: rule.targets.map((target, position) => ({
      providerAccountId: target.providerAccountId,
      weight: target.weight,
      fees: target.fees.map((fee, feeIndex) => ({
        paymentMethod: feeMethod(fee.paymentMethod, `${at}.targets[${position}].fees[${feeIndex}].payment_method`),
        fixed: fee.fixed,
        percentBps: fee.percentBps,
      })),
    })),
  };
}

const fromProtoRoute = (r: { name: string; rules: rt.RouteRule[]; maxAttempts: number; softDeclineCodes: string[] }): RouteInput => ({
  name: r.name,
  rules: r.rules.map(fromProtoRule),
  maxAttempts: r.maxAttempts,
  softDeclineCodes: r.softDeclineCodes,
});

export function toProtoRoute(route: Route): rt.Route {
  return {
    id: route.id,
    name: route.name,
    maxAttempts: route.maxAttempts,
    softDeclineCodes: route.softDeclineCodes ?? [],
    createdAt: route.createdAt,
    updatedAt: route.updatedAt,
    rules: route.rules.map((rule) => ({
      ...rule,
      paymentMethods: rule.paymentMethods.map(paymentMethodToProto),
      strategy: toEnum(rt.RoutingStrategy, 'ROUTING_STRATEGY', rule.strategy) as rt.RoutingStrategy,
      targets: rule.targets.map((target) => ({
        ...target,
        fees: target.fees.map((fee) => ({ ...fee, paymentMethod: paymentMethodToProto(fee.paymentMethod) })),
      })),
    })),
  };
}

export function routingHandlers(u: UseCases) {
  return {
    createRoute: async (r: rt.CreateRouteRequest): Promise<rt.CreateRouteResponse> => ({ route: toProtoRoute(await u.routes.create(fromProtoRoute(r))) }),
    getRoute: async (r: rt.GetRouteRequest): Promise<rt.GetRouteResponse> => ({ route: toProtoRoute(await u.routes.get(r.id)) }),
    listRoutes: async (): Promise<rt.ListRoutesResponse> => ({ routes: (await u.routes.list()).map(toProtoRoute) }),
    updateRoute: async ({ id, ...r }: rt.UpdateRouteRequest): Promise<rt.UpdateRouteResponse> => ({
      route: toProtoRoute(await u.routes.update(id, fromProtoRoute(r))),
    }),
    getRoutingHealth: async (): Promise<rt.GetRoutingHealthResponse> => ({ accounts: await u.routes.routingHealth(), countingSince: u.routes.health.since }),
    previewRoute: async (r: rt.PreviewRouteRequest): Promise<rt.PreviewRouteResponse> => {
      const sample = {
        paymentMethod: enumFilter<PaymentMethod>(pb.PaymentMethod, 'PAYMENT_METHOD', r.paymentMethod, 'payment_method'),
        amount: r.amount,
        currency: r.currency,
        installments: r.installments,
        cardBrand: r.cardBrand,
        cardBin: r.cardBin,
      };
      const source = r.id ? { id: r.id } : fromProtoRoute({ name: 'preview', rules: r.rules, maxAttempts: r.maxAttempts, softDeclineCodes: [] });
      const preview = await u.routes.preview(source, sample, r.idempotencyKey || undefined);
      return {
        ...preview,
        strategy: preview.strategy
          ? (toEnum(rt.RoutingStrategy, 'ROUTING_STRATEGY', preview.strategy) as rt.RoutingStrategy)
          : rt.RoutingStrategy.ROUTING_STRATEGY_UNSPECIFIED,
      };
    },
    getRouteOutcomes: async (): Promise<rt.GetRouteOutcomesResponse> => u.routes.outcomes(),
    deleteRoute: async (r: rt.DeleteRouteRequest): Promise<rt.DeleteRouteResponse> => {
      await u.routes.delete(r.id);
      return {};
    },
  };
}
