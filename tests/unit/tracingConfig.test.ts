import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from '@jest/globals';
import { loadConfig } from '../../server/config.js';

/** Settings that make loadConfig write nothing into the data folder. */
const tracingOf = (more: Record<string, string> = {}) =>
  loadConfig({ DATA_DIR: join(tmpdir(), 'tracing-config'), API_TOKENS: 't', SECRETS_KEY: 'k', OUTBOUND_WEBHOOK_SECRET: 's', ADMIN_PASSWORD: 'p', ...more })
    .tracing;

it('is off unless an OTLP endpoint is configured', () => {
  expect(tracingOf()).toBeUndefined();
  expect(tracingOf({ OTEL_SERVICE_NAME: 'checkout-gateway' })).toBeUndefined();
});

it('sends to /v1/traces under OTEL_EXPORTER_OTLP_ENDPOINT, or to OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is', () => {
  expect(tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toEqual({
    url: 'http://collector:4318/v1/traces',
    serviceName: 'payment-gateway',
    scheduledDelayMs: 5000,
  });
  expect(tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example.com/base/' })?.url).toBe('https://otel.example.com/base/v1/traces');
  expect(
    tracingOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://traces:9999/custom',
      OTEL_SERVICE_NAME: 'checkout-gateway',
      OTEL_BSP_SCHEDULE_DELAY: '200',
    }),
  ).toEqual({ url: 'http://traces:9999/custom', serviceName: 'checkout-gateway', scheduledDelayMs: 200 });
});

it('stays off when OpenTelemetry is disabled or the traces exporter is none', () => {
  expect(tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
  expect(tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
  expect(tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'otlp' })).toBeDefined();
});

it('refuses an endpoint that is not an HTTP URL, and OTLP over gRPC', () => {
  expect(() => tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow('OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL');
  expect(() => tracingOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'grpc://collector:4317' })).toThrow('OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be');
  expect(() => tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4317', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow('is not supported');
});
