import { status } from '@grpc/grpc-js';
import { failed, SpanKind, type Span, type SpanStart, type TraceHeaders, type Tracer } from '../lib/tracing.js';

/** OpenTelemetry's rpc.system of each transport. */
export type RpcSystem = 'grpc' | 'connect_rpc';

/** How a transport's calls are traced: no tracer, no spans. */
export interface RpcTracing {
  tracer?: Tracer;
  system: RpcSystem;
}

/**
 * The codes OpenTelemetry's RPC conventions count as the server's failure
 * (of those the gateway answers with). The others are the caller's
 * (NOT_FOUND, INVALID_ARGUMENT, PERMISSION_DENIED, …) and leave the span's
 * status unset, so that a trace backend's error rate is the gateway's own.
 */
const SERVER_FAULTS = new Set<string>(['UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE']);

/** The span's name is the method's path (`gateway.v1.PaymentGatewayService/CreateTransaction`); the caller's trace continues in it. */
export function rpcSpanStart(system: RpcSystem, path: string, headers: TraceHeaders | undefined): SpanStart {
  const [service = '', method = ''] = path.slice(1).split('/');
  return { kind: SpanKind.SERVER, remoteParent: headers, attributes: { 'rpc.system': system, 'rpc.service': service, 'rpc.method': method } };
}

/** Records the code the call ended with (the same numbers on both transports). */
export function rpcEnded(span: Span, code: keyof typeof status): void {
  span.setAttribute('rpc.grpc.status_code', status[code]);
  if (SERVER_FAULTS.has(code)) failed(span, code);
}
