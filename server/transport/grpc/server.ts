import * as grpc from '@grpc/grpc-js';
import { fromBinary, toBinary, type DescFile, type DescMessage } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema } from '@bufbuild/protobuf/wkt';
import { HealthImplementation } from 'grpc-health-check';
import { ReflectionService } from '@grpc/reflection';
import { PaymentGatewayServiceService } from '../../../gen/ts-proto/gateway/v1/payment_gateway_service.js';
import { RoutingServiceService } from '../../../gen/ts-proto/gateway/v1/routing_service.js';
import { file_gateway_v1_routing_service, RoutingService } from '../../../gen/es/gateway/v1/routing_service_pb.js';
import { routingHandlers } from '../routeHandlers.js';
import { DisputeServiceService } from '../../../gen/ts-proto/gateway/v1/dispute_service.js';
import { file_gateway_v1_dispute_service, DisputeService } from '../../../gen/es/gateway/v1/dispute_service_pb.js';
import { disputeHandlers } from '../disputeHandlers.js';
import { ProviderAccountServiceService } from '../../../gen/ts-proto/gateway/v1/provider_account_service.js';
import { SandboxServiceService } from '../../../gen/ts-proto/gateway/v1/sandbox_service.js';
import { WebhookServiceService } from '../../../gen/ts-proto/gateway/v1/webhook_service.js';
import { AccessServiceService } from '../../../gen/ts-proto/gateway/v1/access_service.js';
import { AccessService, file_gateway_v1_access_service } from '../../../gen/es/gateway/v1/access_service_pb.js';
import { UploadServiceService } from '../../../gen/ts-proto/gateway/v1/upload_service.js';
import { UploadService, file_gateway_v1_upload_service } from '../../../gen/es/gateway/v1/upload_service_pb.js';
import { file_gateway_v1_payment_gateway_service, PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { file_gateway_v1_provider_account_service, ProviderAccountService } from '../../../gen/es/gateway/v1/provider_account_service_pb.js';
import { file_gateway_v1_sandbox_service, SandboxService as EsSandboxService } from '../../../gen/es/gateway/v1/sandbox_service_pb.js';
import { file_gateway_v1_webhook_service, WebhookService } from '../../../gen/es/gateway/v1/webhook_service_pb.js';
import type { Logger } from '../../lib/logger.js';
import { withCallSignal } from '../../lib/callScope.js';
import { CallGuard, UNAUTHENTICATED_MESSAGE, type CallContext, type RpcObserver } from '../callGuard.js';
import type { CallerRateLimit } from '../callerRateLimit.js';
import type { InFlightLimit } from '../inFlightLimit.js';
import type { LoopPressure } from '../loopPressure.js';
import type { Principal } from '../../gateway/access.js';
import { errorDetails, exposedError } from '../errors.js';
import { GatewayError, invalidArgument, isGatewayError } from '../../lib/errors.js';
import { esToPlain } from '../connect/esBridge.js';
import { guardRequest } from '../requestGuard.js';
import type { Tracer } from '../../lib/tracing.js';
import { Status } from '../../../gen/ts-proto/google/rpc/status.js';
import { BadRequest, ErrorInfo, RetryInfo } from '../../../gen/ts-proto/google/rpc/error_details.js';
import type { Any } from '../../../gen/ts-proto/google/protobuf/any.js';
import {
  accessHandlers,
  uploadHandlers,
  paymentGatewayHandlers,
  providerAccountHandlers,
  sandboxHandlers,
  webhookHandlers,
  type UseCases,
} from '../rpcHandlers.js';

/**
 * Server reflection from the exact descriptors compiled into the generated code
 * (original file names and imports kept), so generic clients such as buf curl
 * and grpcurl resolve every type without the .proto files.
 */
function reflectionDefinition(roots: DescFile[]): Record<string, { fileDescriptorProtos: Buffer[] }> {
  const files = new Map<string, DescFile>();
  const collect = (file: DescFile): void => {
    if (files.has(file.name)) return;
    files.set(file.name, file);
    file.dependencies.forEach(collect);
  };
  roots.forEach(collect);
  const fileDescriptorProtos = [...files.values()].map((file) => Buffer.from(toBinary(FileDescriptorProtoSchema, file.proto)));
  return { 'gateway.v1': { fileDescriptorProtos } };
}
const HEALTH_PREFIX = '/grpc.health.v1.Health/';

type Handlers = Record<string, (request: any, signal: AbortSignal, context: CallContext) => any>;

export interface GrpcServerOptions {
  useCases: UseCases;
  logger: Logger;
  host: string;
  port: number;
  /** The largest request message read (MAX_REQUEST_BYTES); larger is RESOURCE_EXHAUSTED. */
  maxRequestBytes: number;
  /** Calls per caller, shared with the other transport of the process (RATE_LIMIT_PER_SECOND, RATE_LIMIT_BURST); undefined: no limit. */
  rateLimit?: CallerRateLimit;
  /** Shared with the other transport (MAX_IN_FLIGHT). */
  inFlight?: InFlightLimit;
  /** Load shedding by the event loop's delay, shared by both transports. */
  pressure?: LoopPressure;
  /** Told of every call (the metrics). */
  rpcObserver?: RpcObserver;
  /** A span per call (tracing on). */
  tracer?: Tracer;
}

/** The first value of a metadata entry sent as text. */
const textEntry = (metadata: grpc.Metadata, name: string): string | undefined => {
  const value = metadata.get(name)[0];
  return typeof value === 'string' ? value : undefined;
};

const traceHeadersOf = (metadata: grpc.Metadata) => ({ traceparent: textEntry(metadata, 'traceparent'), tracestate: textEntry(metadata, 'tracestate') });

/** The caller of each call, found by the interceptor from the call's metadata (the object the handler sees). */
const callers = new WeakMap<grpc.Metadata, Principal>();

/**
 * Every call but health checks carries `authorization: Bearer
 * <token>`; the caller it stands for is found here, before the handler runs.
 * Under overload a unary call is refused first, before its credential is
 * checked or its request decoded (CallGuard.shedding).
 */
function authInterceptor(guard: CallGuard, logger: Logger): grpc.ServerInterceptor {
  return (method, call) =>
    new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, proceed) => {
            if (method.path.startsWith(HEALTH_PREFIX)) return proceed(metadata);
            const refusal = method.requestStream || method.responseStream ? undefined : guard.shedding(method.path);
            if (refusal) {
              guard.refused(method.path, refusal.code, traceHeadersOf(metadata));
              return call.sendStatus(refusalStatus(refusal, logger, method.path));
            }
            guard.authenticate(textEntry(metadata, 'authorization')).then(
              (principal) => {
                if (!principal) {
                  guard.refused(method.path, 'UNAUTHENTICATED', traceHeadersOf(metadata));
                  return call.sendStatus({ code: grpc.status.UNAUTHENTICATED, details: UNAUTHENTICATED_MESSAGE, metadata: new grpc.Metadata() });
                }
                callers.set(metadata, principal);
                proceed(metadata);
              },
              (error: unknown) => {
                logger.error({ err: error, method: method.path }, 'could not authenticate a call');
                guard.refused(method.path, 'UNAVAILABLE', traceHeadersOf(metadata));
                call.sendStatus({ code: grpc.status.UNAVAILABLE, details: 'could not check the credentials; try again', metadata: new grpc.Metadata() });
              },
            );
          },
        }),
    });
}

function callContext(call: grpc.ServerUnaryCall<any, any> | grpc.ServerWritableStream<any, any>, traced: boolean): CallContext {
  const principal = callers.get(call.metadata);
  if (!principal) throw new GatewayError('UNAUTHENTICATED', UNAUTHENTICATED_MESSAGE);
  return { principal, source: call.getPeer(), traceHeaders: traced ? traceHeadersOf(call.metadata) : undefined };
}

const pack = (typeName: string, value: Uint8Array): Any => ({ typeUrl: `type.googleapis.com/${typeName}`, value: Buffer.from(value) });

/**
 * The gRPC status, with google.rpc.Status (ErrorInfo, BadRequest, RetryInfo)
 * in `grpc-status-details-bin` for rich clients, and `retry-after` (seconds)
 * for the others.
 */
function toServiceError(error: unknown, logger: Logger, path: string): Partial<grpc.ServiceError> {
  const { code, message, details } = exposedError(error, logger, path);
  const { errorInfo, badRequest, retry } = errorDetails(code, message, details);
  const status = Status.encode({
    code: grpc.status[code],
    message,
    details: [
      pack('google.rpc.ErrorInfo', ErrorInfo.encode(ErrorInfo.fromPartial(errorInfo)).finish()),
      ...(badRequest ? [pack('google.rpc.BadRequest', BadRequest.encode(BadRequest.fromPartial(badRequest)).finish())] : []),
      ...(retry ? [pack('google.rpc.RetryInfo', RetryInfo.encode(RetryInfo.fromPartial({ retryDelay: retry.delay })).finish())] : []),
    ],
  }).finish();
  const metadata = new grpc.Metadata();
  metadata.set('grpc-status-details-bin', Buffer.from(status));
  if (retry) metadata.set('retry-after', retry.retryAfterHeader);
  return { code: grpc.status[code], details: message, metadata };
}

/** What an overload refusal is answered with, kept by what it says (see refusalStatus). */
interface RefusalAnswer {
  code: grpc.status;
  details: string;
  statusDetails: Buffer;
  retryAfter: string | undefined;
}
const refusalAnswers = new Map<string, RefusalAnswer>();
/** Distinct refusals kept (the database's refusal names its wait, so they differ); past it the cache starts again. */
const REFUSAL_ANSWERS_KEPT = 256;

/**
 * toServiceError's answer to an overload refusal, its google.rpc.Status encoded once per distinct refusal instead of
 * once per refused call: under overload most calls are refused, and encoding each one's Status was half of what our
 * own code spent on a refusal (docs/decisions.md, *Refusals made cheap*). Each call still gets metadata of its own.
 */
function refusalStatus(refusal: GatewayError, logger: Logger, path: string): grpc.StatusObject {
  const key = `${refusal.code}\n${refusal.message}\n${JSON.stringify(refusal.details)}`;
  let answer = refusalAnswers.get(key);
  if (!answer) {
    const { code, details, metadata } = toServiceError(refusal, logger, path);
    answer = {
      code: code!,
      details: details!,
      statusDetails: metadata!.get('grpc-status-details-bin')[0] as Buffer,
      retryAfter: metadata!.get('retry-after')[0] as string | undefined,
    };
    if (refusalAnswers.size >= REFUSAL_ANSWERS_KEPT) refusalAnswers.clear();
    refusalAnswers.set(key, answer);
  }
  const metadata = new grpc.Metadata();
  metadata.set('grpc-status-details-bin', answer.statusDetails);
  if (answer.retryAfter !== undefined) metadata.set('retry-after', answer.retryAfter);
  return { code: answer.code, details: answer.details, metadata };
}

const ES_METHODS = new Map<string, DescMessage>(
  [PaymentGatewayService, ProviderAccountService, EsSandboxService, WebhookService, AccessService, UploadService, RoutingService, DisputeService].flatMap(
    (service) => service.methods.map((method) => [`/${service.typeName}/${method.name}`, method.input] as const),
  ),
);

/** A request that could not be decoded, carried to the handler so that it answers INVALID_ARGUMENT (grpc-js itself would answer INTERNAL). */
class UndecodableRequest {
  constructor(readonly error: unknown) {}
}

/**
 * ts-proto's decoder throws on an int64 beyond 2^53 without naming the field;
 * decoding again with protobuf-es finds the field for the error.
 */
function decodeOrExplain(desc: DescMessage, decode: (bytes: Buffer) => unknown): (bytes: Buffer) => unknown {
  return (bytes) => {
    try {
      return decode(bytes);
    } catch {
      try {
        esToPlain(desc, fromBinary(desc, bytes));
        return new UndecodableRequest(invalidArgument('request', 'the request message cannot be decoded', 'INVALID_VALUE'));
      } catch (error) {
        return new UndecodableRequest(isGatewayError(error) ? error : invalidArgument('request', 'the request message is not valid protobuf', 'INVALID_VALUE'));
      }
    }
  };
}

/** The request, refused (INVALID_ARGUMENT) when it could not be decoded or breaks the contract's limits. */
function checkedRequest(desc: DescMessage, request: unknown): unknown {
  if (request instanceof UndecodableRequest) throw request.error;
  guardRequest(desc, request);
  return request;
}

/** The service definition with decoders that never throw: a bad request is the caller's error, not ours. */
function withSafeDecoding(definition: grpc.ServiceDefinition): grpc.ServiceDefinition {
  return Object.fromEntries(
    Object.entries(definition).map(([name, method]) => [
      name,
      { ...method, requestDeserialize: decodeOrExplain(ES_METHODS.get(method.path)!, method.requestDeserialize) },
    ]),
  );
}

/** Adapts the shared RPC handlers to grpc-js calls, one service definition at a time. */
function implement(
  definition: grpc.ServiceDefinition,
  handlers: Handlers,
  guard: CallGuard,
  logger: Logger,
  streams: Set<AbortController>,
): grpc.UntypedServiceImplementation {
  const implementation: grpc.UntypedServiceImplementation = {};
  for (const [name, method] of Object.entries(definition)) {
    const handler = handlers[name];
    if (!handler) throw new Error(`no handler for ${method.path}`);
    const input = ES_METHODS.get(method.path);
    if (!input) throw new Error(`no descriptor for ${method.path}`);
    if (method.responseStream) {
      implementation[name] = (async (call: grpc.ServerWritableStream<any, any>) => {
        const abort = new AbortController();
        streams.add(abort);
        call.on('cancelled', () => abort.abort());
        try {
          const context = callContext(call, guard.traced);
          const items = guard.stream(
            method.path,
            context,
            () => checkedRequest(input, call.request),
            (request) => handler(request, abort.signal, context),
            abort.signal,
          );
          for await (const item of items) {
            if (!call.write(item)) await new Promise((resolve) => call.once('drain', resolve));
          }
          call.end();
        } catch (error) {
          call.emit('error', toServiceError(error, logger, method.path));
        } finally {
          streams.delete(abort);
        }
      }) as grpc.handleServerStreamingCall<any, any>;
    } else {
      implementation[name] = ((call: grpc.ServerUnaryCall<any, any>, callback: grpc.sendUnaryData<any>) => {
        // Aborted when the caller cancels or its deadline passes: the call's reads at providers stop (callScope.ts).
        // grpc-js also reports the close of every stream as a cancellation, after the answer too: the listener goes
        // with the answer, so that a call that ended costs no abort (an AbortError built, its stack taken).
        const abort = new AbortController();
        const cancelled = () => abort.abort();
        call.once('cancelled', cancelled);
        const answer = (error: Partial<grpc.ServiceError> | null, response?: unknown) => {
          call.off('cancelled', cancelled);
          callback(error, response);
        };
        Promise.resolve()
          .then(() => {
            const context = callContext(call, guard.traced);
            return withCallSignal(abort.signal, () =>
              guard.unary(
                method.path,
                context,
                () => checkedRequest(input, call.request),
                (request) => handler(request, abort.signal, context),
              ),
            );
          })
          .then(
            (response: unknown) => answer(null, response),
            (error: unknown) => answer(toServiceError(error, logger, method.path)),
          );
      }) as grpc.handleUnaryCall<any, any>;
    }
  }
  return implementation;
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<{ server: grpc.Server; port: number; close(): Promise<void> }> {
  const guard = new CallGuard(options.useCases.access, {
    rateLimit: options.rateLimit,
    inFlight: options.inFlight,
    pressure: options.pressure,
    observer: options.rpcObserver,
    tracing: { tracer: options.tracer, system: 'grpc' },
  });
  const server = new grpc.Server({
    interceptors: [authInterceptor(guard, options.logger)],
    'grpc.max_receive_message_length': options.maxRequestBytes,
    // Channelz's statistics are read by nobody (no channelz service is served), and kept they cost every call a
    // tracker of four closures (docs/decisions.md, *Refusals made cheap*).
    'grpc.enable_channelz': 0,
  });
  const streams = new Set<AbortController>();
  const services: [grpc.ServiceDefinition, Handlers][] = [
    [PaymentGatewayServiceService, paymentGatewayHandlers(options.useCases)],
    [ProviderAccountServiceService, providerAccountHandlers(options.useCases)],
    [SandboxServiceService, sandboxHandlers(options.useCases)],
    [WebhookServiceService, webhookHandlers(options.useCases)],
    [AccessServiceService, accessHandlers(options.useCases)],
    [UploadServiceService, uploadHandlers(options.useCases)],
    [RoutingServiceService, routingHandlers(options.useCases)],
    [DisputeServiceService, disputeHandlers(options.useCases)],
  ];
  for (const [definition, handlers] of services)
    server.addService(withSafeDecoding(definition), implement(definition, handlers, guard, options.logger, streams));

  const health = new HealthImplementation({
    '': 'SERVING',
    'gateway.v1.PaymentGatewayService': 'SERVING',
    'gateway.v1.ProviderAccountService': 'SERVING',
    'gateway.v1.SandboxService': 'SERVING',
    'gateway.v1.WebhookService': 'SERVING',
    'gateway.v1.AccessService': 'SERVING',
    'gateway.v1.UploadService': 'SERVING',
    'gateway.v1.RoutingService': 'SERVING',
    'gateway.v1.DisputeService': 'SERVING',
  });
  health.addToServer(server);
  const reflection = reflectionDefinition([
    file_gateway_v1_payment_gateway_service,
    file_gateway_v1_provider_account_service,
    file_gateway_v1_sandbox_service,
    file_gateway_v1_webhook_service,
    file_gateway_v1_access_service,
    file_gateway_v1_upload_service,
    file_gateway_v1_routing_service,
    file_gateway_v1_dispute_service,
  ]);
  new ReflectionService(reflection as never).addToServer(server);

  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${options.host}:${options.port}`, grpc.ServerCredentials.createInsecure(), (error, boundPort) =>
      error ? reject(error) : resolve(boundPort),
    ),
  );
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        health.setStatus('', 'NOT_SERVING');
        // Open streams would keep tryShutdown waiting; end them, then let unary calls finish.
        for (const stream of streams) stream.abort();
        const force = setTimeout(() => server.forceShutdown(), 10_000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
