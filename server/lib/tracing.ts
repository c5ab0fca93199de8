import { AsyncLocalStorage } from 'node:async_hooks';
import {
  defaultTextMapGetter,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

export { SpanKind, SpanStatusCode, type Attributes, type Span, type Tracer };

/**
 * Spans, for the layers that report them (the call guard, the provider
 * registry, the provider HTTP client). Nothing here is global: the tracer is
 * handed to whoever starts a root span (one process may run several gateways,
 * traced or not), and the span under way travels with the work through an
 * AsyncLocalStorage of its own, so no OpenTelemetry context manager or
 * propagator is registered for the process. Without a tracer nothing is
 * started and the work runs as it would.
 */
interface Scope {
  tracer: Tracer;
  span: Span;
}
const scope = new AsyncLocalStorage<Scope>();

/** What `work` gets when it is not traced: a span whose methods do nothing. */
const NOT_TRACED: Span = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/** The W3C trace-context headers of an incoming call (gRPC metadata or HTTP headers), as sent. */
export interface TraceHeaders {
  traceparent?: string;
  tracestate?: string;
}

const propagator = new W3CTraceContextPropagator();

export interface SpanStart {
  kind: SpanKind;
  attributes?: Attributes;
  /** The caller's trace (an incoming call); without it the span is a child of the span under way, or a root. */
  remoteParent?: TraceHeaders;
}

/**
 * Runs `work` in a new span (ended when the work settles) that spans started
 * inside it are children of. `tracer` undefined: the span under way's tracer,
 * and without one, no span at all. `start` is only called for a span.
 */
export async function inSpan<T>(tracer: Tracer | undefined, name: string, start: () => SpanStart, work: (span: Span) => Promise<T>): Promise<T> {
  const current = scope.getStore();
  const chosen = tracer ?? current?.tracer;
  // Untraced: one lookup, then the work as it is.
  if (!chosen) return work(NOT_TRACED);
  const span = startSpan(chosen, name, start, current);
  try {
    return await scope.run({ tracer: chosen, span }, () => work(span));
  } finally {
    span.end();
  }
}

/** A span the caller ends itself (a stream's, a refused call's); no span under way is set for what runs meanwhile. */
export function openSpan(tracer: Tracer | undefined, name: string, start: () => SpanStart): Span {
  return tracer ? startSpan(tracer, name, start, scope.getStore()) : NOT_TRACED;
}

/** True inside a span that records: attributes worth computing. */
export const traced = (): boolean => scope.getStore()?.span.isRecording() ?? false;

function startSpan(tracer: Tracer, name: string, starting: () => SpanStart, current: Scope | undefined): Span {
  const start = starting();
  const parent = start.remoteParent?.traceparent
    ? propagator.extract(ROOT_CONTEXT, start.remoteParent, defaultTextMapGetter)
    : current
      ? trace.setSpan(ROOT_CONTEXT, current.span)
      : ROOT_CONTEXT;
  return tracer.startSpan(name, { kind: start.kind, attributes: start.attributes }, parent);
}

/** Marks a span failed with a short, fixed description (never an error's text: it may quote a provider's answer or a request). */
export function failed(span: Span, description: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: description });
}
