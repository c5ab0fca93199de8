import * as grpc from '@grpc/grpc-js';
import { createClient, ConnectError, Code, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-web';
import { fromBinary, toBinary, type DescService } from '@bufbuild/protobuf';
import { BadRequestSchema, ErrorInfoSchema, RetryInfoSchema } from '../../gen/es/google/rpc/error_details_pb.js';
import { Status } from '../../gen/ts-proto/google/rpc/status.js';
import { BadRequest, ErrorInfo, RetryInfo } from '../../gen/ts-proto/google/rpc/error_details.js';
import { PaymentGatewayServiceClient, PaymentGatewayServiceService } from '../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { ProviderAccountServiceClient, ProviderAccountServiceService } from '../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { SandboxServiceClient, SandboxServiceService } from '../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { WebhookServiceClient, WebhookServiceService } from '../../gen/ts-proto/gateway/v1/webhook_service.js';
import { AccessServiceClient, AccessServiceService } from '../../gen/ts-proto/gateway/v1/access_service.js';
import { AccessService } from '../../gen/es/gateway/v1/access_service_pb.js';
import { UploadServiceClient, UploadServiceService } from '../../gen/ts-proto/gateway/v1/upload_service.js';
import { UploadService } from '../../gen/es/gateway/v1/upload_service_pb.js';
import { RoutingServiceClient, RoutingServiceService } from '../../gen/ts-proto/gateway/v1/routing_service.js';
import { RoutingService } from '../../gen/es/gateway/v1/routing_service_pb.js';
import { DisputeServiceClient, DisputeServiceService } from '../../gen/ts-proto/gateway/v1/dispute_service.js';
import { DisputeService } from '../../gen/es/gateway/v1/dispute_service_pb.js';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ProviderAccountService } from '../../gen/es/gateway/v1/provider_account_service_pb.js';
import { SandboxService } from '../../gen/es/gateway/v1/sandbox_service_pb.js';
import { WebhookService } from '../../gen/es/gateway/v1/webhook_service_pb.js';

/**
 * One calling convention over both transports, so every scenario runs through a
 * real grpc-js client (from gen/ts-proto) and a real Connect-Web client (from
 * gen/es). Requests and responses are in the ts-proto shape; the Connect side
 * converts through the binary wire format, independently of the server's code.
 */

export type ServiceName = 'gateway' | 'accounts' | 'sandbox' | 'webhooks' | 'access' | 'upload' | 'routes' | 'disputes';

export interface Driver {
  name: string;
  call<Res = any>(service: ServiceName, method: string, request: unknown, token?: string | null): Promise<Res>;
  /** Server stream of WatchEvents; `close()` cancels it. */
  watch(request: unknown, token?: string | null): { next(timeoutMs?: number): Promise<any>; close(): void };
  close(): void;
}

export interface RpcFailure {
  code: string;
  message: string;
}

const DEFINITIONS = {
  gateway: PaymentGatewayServiceService,
  accounts: ProviderAccountServiceService,
  sandbox: SandboxServiceService,
  webhooks: WebhookServiceService,
  access: AccessServiceService,
  upload: UploadServiceService,
  routes: RoutingServiceService,
  disputes: DisputeServiceService,
} as const;
const ES_SERVICES: Record<ServiceName, DescService> = {
  gateway: PaymentGatewayService,
  accounts: ProviderAccountService,
  sandbox: SandboxService,
  webhooks: WebhookService,
  access: AccessService,
  upload: UploadService,
  routes: RoutingService,
  disputes: DisputeService,
};

/** Pulls items from a push-based stream one at a time. */
function queue<T>() {
  const items: T[] = [];
  const waiters: { resolve(value: T): void; reject(error: unknown): void }[] = [];
  let failure: unknown;
  return {
    push(item: T) {
      const waiter = waiters.shift();
      if (waiter) waiter.resolve(item);
      else items.push(item);
    },
    fail(error: unknown) {
      failure = error;
      for (const waiter of waiters.splice(0)) waiter.reject(error);
    },
    next(timeoutMs = 10_000): Promise<T> {
      if (items.length) return Promise.resolve(items.shift()!);
      if (failure) return Promise.reject(failure);
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no stream item within the time limit')), timeoutMs);
        waiters.push({ resolve: (v) => (clearTimeout(timer), resolve(v)), reject: (e) => (clearTimeout(timer), reject(e)) });
      });
    },
  };
}

/** `metadata` goes on every call besides the token (a caller's `traceparent`). */
export function grpcDriver(address: string, defaultToken: string, metadata: Record<string, string> = {}): Driver {
  const credentials = grpc.credentials.createInsecure();
  const clients = {
    gateway: new PaymentGatewayServiceClient(address, credentials),
    accounts: new ProviderAccountServiceClient(address, credentials),
    sandbox: new SandboxServiceClient(address, credentials),
    webhooks: new WebhookServiceClient(address, credentials),
    access: new AccessServiceClient(address, credentials),
    upload: new UploadServiceClient(address, credentials),
    routes: new RoutingServiceClient(address, credentials),
    disputes: new DisputeServiceClient(address, credentials),
  };
  const metadataFor = (token: string | null | undefined) => {
    const md = new grpc.Metadata();
    if (token !== null) md.set('authorization', `Bearer ${token ?? defaultToken}`);
    for (const [name, value] of Object.entries(metadata)) md.set(name, value);
    return md;
  };
  return {
    name: 'grpc-js',
    call(service, method, request, token) {
      return new Promise((resolve, reject) =>
        (clients[service] as any)[method](request, metadataFor(token), (error: grpc.ServiceError | null, response: unknown) =>
          error ? reject(error) : resolve(response as never),
        ),
      );
    },
    watch(request, token) {
      const items = queue<any>();
      const stream = clients.gateway.watchEvents(request as any, metadataFor(token));
      stream.on('data', (item) => items.push(item));
      stream.on('error', (error) => items.fail(error));
      return { next: (timeoutMs?: number) => items.next(timeoutMs), close: () => stream.cancel() };
    },
    close() {
      Object.values(clients).forEach((client) => client.close());
    },
  };
}

/** `headers` go on every call: an operator's session cookie and CSRF token, with `defaultToken` null. */
export function connectDriver(baseUrl: string, defaultToken: string | null, headers: Record<string, string> = {}): Driver {
  const clientFor = (token: string | null | undefined) => {
    const bearer: Interceptor = (next) => (req) => {
      const bearerToken = token === undefined ? defaultToken : token;
      if (bearerToken !== null) req.header.set('authorization', `Bearer ${bearerToken}`);
      for (const [name, value] of Object.entries(headers)) req.header.set(name, value);
      return next(req);
    };
    const transport = createConnectTransport({ baseUrl, interceptors: [bearer] });
    return (service: ServiceName): Client<DescService> => createClient(ES_SERVICES[service], transport);
  };
  const method = (service: ServiceName, name: string) => {
    const esMethod = ES_SERVICES[service].methods.find((m) => m.localName === name);
    const definition = (DEFINITIONS[service] as Record<string, grpc.MethodDefinition<any, any>>)[name];
    if (!esMethod || !definition) throw new Error(`no method ${service}.${name}`);
    return { esMethod, definition };
  };
  const aborts = new Set<AbortController>();
  return {
    name: 'connect-web',
    async call(service, name, request, token) {
      const { esMethod, definition } = method(service, name);
      const esRequest = fromBinary(esMethod.input, definition.requestSerialize(request));
      const response = await (clientFor(token)(service) as any)[name](esRequest);
      return definition.responseDeserialize(Buffer.from(toBinary(esMethod.output, response)));
    },
    watch(request, token) {
      const { esMethod, definition } = method('gateway', 'watchEvents');
      const items = queue<any>();
      const abort = new AbortController();
      aborts.add(abort);
      void (async () => {
        try {
          const stream = (clientFor(token)('gateway') as any).watchEvents(fromBinary(esMethod.input, definition.requestSerialize(request)), {
            signal: abort.signal,
          });
          for await (const item of stream) items.push(definition.responseDeserialize(Buffer.from(toBinary(esMethod.output, item))));
        } catch (error) {
          if (!abort.signal.aborted) items.fail(error);
        }
      })();
      return { next: (timeoutMs?: number) => items.next(timeoutMs), close: () => abort.abort() };
    },
    close() {
      aborts.forEach((abort) => abort.abort());
    },
  };
}

const CONNECT_TO_GRPC: Record<number, string> = Object.fromEntries(
  Object.entries(Code)
    .filter(([, value]) => typeof value === 'number')
    .map(([name, value]) => [value, name.replace(/[A-Z]/g, (c, i) => (i ? '_' : '') + c).toUpperCase()]),
);

/** The failure of a call, as a gRPC status name and message, whichever transport made it. */
export async function failureOf(promise: Promise<unknown>): Promise<RpcFailure> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConnectError) return { code: CONNECT_TO_GRPC[error.code]!, message: error.rawMessage };
    const serviceError = error as grpc.ServiceError;
    if (typeof serviceError.code === 'number') return { code: grpc.status[serviceError.code], message: serviceError.details };
    throw error;
  }
  throw new Error('the call succeeded, but a failure was expected');
}

export interface RpcErrorDetails {
  /** google.rpc.ErrorInfo */
  reason?: string;
  domain?: string;
  /** google.rpc.ErrorInfo's metadata */
  metadata?: Record<string, string>;
  /** google.rpc.BadRequest field violations */
  fields: string[];
  /** The violations' reasons (the rule broken), only when one has a reason */
  fieldReasons?: string[];
  /** google.rpc.RetryInfo's retry_delay, in milliseconds */
  retryDelayMs?: number;
  /** The `retry-after` header or trailer (seconds) */
  retryAfter?: string;
}

const millis = (delay: { seconds: number | bigint; nanos: number } | undefined) =>
  delay ? Number(delay.seconds) * 1000 + Math.round(delay.nanos / 1_000_000) : undefined;

/** The fields of BadRequest violations, and their reasons where any violation names one. */
function violationsOf(violations: { field: string; reason: string }[]): Pick<RpcErrorDetails, 'fields' | 'fieldReasons'> {
  const fields = violations.map((v) => v.field);
  return violations.some((v) => v.reason) ? { fields, fieldReasons: violations.map((v) => v.reason) } : { fields };
}

/** The structured details (google.rpc.ErrorInfo, BadRequest, RetryInfo) of a failed call, read as each transport's clients read them. */
export async function errorDetailsOf(promise: Promise<unknown>): Promise<RpcErrorDetails> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConnectError) {
      const [info] = error.findDetails(ErrorInfoSchema);
      return {
        reason: info?.reason,
        domain: info?.domain,
        metadata: info?.metadata,
        ...violationsOf(error.findDetails(BadRequestSchema).flatMap((b) => b.fieldViolations)),
        retryDelayMs: millis(error.findDetails(RetryInfoSchema)[0]?.retryDelay),
        retryAfter: error.metadata.get('retry-after') ?? undefined,
      };
    }
    const metadata = (error as grpc.ServiceError).metadata;
    const raw = metadata?.get('grpc-status-details-bin')[0];
    if (!raw) return { fields: [] };
    const status = Status.decode(raw as Buffer);
    const find = (type: string) => status.details.filter((any) => any.typeUrl === `type.googleapis.com/google.rpc.${type}`);
    const info = find('ErrorInfo').map((any) => ErrorInfo.decode(any.value))[0];
    return {
      reason: info?.reason,
      domain: info?.domain,
      metadata: info?.metadata,
      ...violationsOf(find('BadRequest').flatMap((any) => BadRequest.decode(any.value).fieldViolations)),
      retryDelayMs: millis(find('RetryInfo').map((any) => RetryInfo.decode(any.value))[0]?.retryDelay),
      retryAfter: metadata.get('retry-after')[0]?.toString(),
    };
  }
  throw new Error('the call succeeded, but a failure was expected');
}
