// Types only: the SDK and the exporter are loaded when tracing is on, so a gateway without it does not spend its start loading them.
import type { ExportResult } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { Logger } from '../lib/logger.js';
import type { Tracer } from '../lib/tracing.js';

/** What the configuration read (Config['tracing']): the OTLP endpoint, the service's name, the batch delay. */
export interface TracingSettings {
  url: string;
  serviceName: string;
  scheduledDelayMs: number;
}

export interface Tracing {
  tracer: Tracer;
  /** Sends the spans still waiting, then stops. */
  close(): Promise<void>;
}

/** The endpoint as logs show it: without credentials a URL may carry, or a query. */
const shownUrl = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
};

/** The exporter, with failed exports logged (OpenTelemetry's own diagnostics are silent unless a logger is registered process-wide). */
function loggedExporter(exporter: SpanExporter, logger: Logger, endpoint: string, success: number): SpanExporter {
  return {
    export(spans: ReadableSpan[], done: (result: ExportResult) => void) {
      exporter.export(spans, (result) => {
        if (result.code !== success) logger.warn({ err: result.error, spans: spans.length, endpoint }, 'could not export spans');
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}

/**
 * This gateway's tracer: spans batched and POSTed to the OTLP endpoint.
 * Its own provider, never registered as OpenTelemetry's global one: one
 * process may run several gateways (the tests do), traced or not, and the
 * spans of one never reach another's endpoint.
 */
export async function startTracing(config: TracingSettings | undefined, logger: Logger): Promise<Tracing | undefined> {
  if (!config) return undefined;
  const [{ ExportResultCode }, { OTLPTraceExporter }, { defaultResource, resourceFromAttributes }, { BatchSpanProcessor, TracerProvider }] = await Promise.all([
    import('@opentelemetry/core'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace'),
  ]);
  const endpoint = shownUrl(config.url);
  const exporter = loggedExporter(new OTLPTraceExporter({ url: config.url }), logger, endpoint, ExportResultCode.SUCCESS);
  const provider = new TracerProvider({
    resource: defaultResource().merge(resourceFromAttributes({ 'service.name': config.serviceName })),
    spanProcessors: [new BatchSpanProcessor({ exporter, scheduledDelayMillis: config.scheduledDelayMs })],
  });
  logger.info({ endpoint, serviceName: config.serviceName }, 'tracing: spans are exported over OTLP');
  return {
    tracer: provider.getTracer('payment-gateway'),
    // A last export that fails was logged by the exporter; stopping goes on.
    close: () => provider.shutdown().catch(() => undefined),
  };
}
