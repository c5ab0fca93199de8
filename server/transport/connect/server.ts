import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join, normalize } from 'node:path';
import { Code, ConnectError, createConnectRouter, createContextKey, createContextValues, type ConnectRouter, type HandlerContext } from '@connectrpc/connect';
import { compressionBrotli, compressionGzip, universalRequestFromNodeRequest, universalResponseToNodeResponse } from '@connectrpc/connect-node';
import type { DescMessage, DescService } from '@bufbuild/protobuf';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ProviderAccountService } from '../../../gen/es/gateway/v1/provider_account_service_pb.js';
import { SandboxService } from '../../../gen/es/gateway/v1/sandbox_service_pb.js';
import { WebhookService } from '../../../gen/es/gateway/v1/webhook_service_pb.js';
import { AccessService } from '../../../gen/es/gateway/v1/access_service_pb.js';
import { UploadService } from '../../../gen/es/gateway/v1/upload_service_pb.js';
import { RoutingService } from '../../../gen/es/gateway/v1/routing_service_pb.js';
import { routingHandlers } from '../routeHandlers.js';
import { DisputeService } from '../../../gen/es/gateway/v1/dispute_service_pb.js';
import { disputeHandlers } from '../disputeHandlers.js';
import type { ErrorCode } from '../../lib/errors.js';
import type { Logger } from '../../lib/logger.js';
import { decodePathSegment, guardedListener, listen, requestPath, type ListeningServer } from '../../lib/httpServer.js';
import { withCallSignal } from '../../lib/callScope.js';
import { CallGuard, UNAUTHENTICATED_MESSAGE, type CallContext, type RpcObserver } from '../callGuard.js';
import type { CallerRateLimit } from '../callerRateLimit.js';
import type { InFlightLimit } from '../inFlightLimit.js';
import type { LoopPressure } from '../loopPressure.js';
import { errorDetails, exposedError } from '../errors.js';
import { BadRequestSchema, ErrorInfoSchema, RetryInfoSchema } from '../../../gen/es/google/rpc/error_details_pb.js';
import {
  accessHandlers,
  uploadHandlers,
  paymentGatewayHandlers,
  providerAccountHandlers,
  sandboxHandlers,
  webhookHandlers,
  type UseCases,
} from '../rpcHandlers.js';
import { esToPlain, plainToEs } from './esBridge.js';
import { guardRequest } from '../requestGuard.js';
import { withDecodeErrorDetails } from './decodeErrors.js';
import { handleSessionRoute, operatorOfCall, type SessionOptions } from './operatorSessions.js';
import { handleCors, handleTokenizationCors, setSecurityHeaders } from './webSecurity.js';
import { sendFile, StaticFiles } from './staticFiles.js';
import { CheckoutFiles, type CheckoutFilesOptions } from './checkoutFiles.js';
import { TokenBuckets } from '../../lib/tokenBuckets.js';
import type { GatewayError } from '../../lib/errors.js';
import type { Principal } from '../../gateway/access.js';
import type { TraceHeaders, Tracer } from '../../lib/tracing.js';

const CONNECT_CODES: Record<ErrorCode, Code> = {
  INVALID_ARGUMENT: Code.InvalidArgument,
  NOT_FOUND: Code.NotFound,
  ALREADY_EXISTS: Code.AlreadyExists,
  FAILED_PRECONDITION: Code.FailedPrecondition,
  UNIMPLEMENTED: Code.Unimplemented,
  UNAUTHENTICATED: Code.Unauthenticated,
  PERMISSION_DENIED: Code.PermissionDenied,
  RESOURCE_EXHAUSTED: Code.ResourceExhausted,
  UNAVAILABLE: Code.Unavailable,
  CANCELLED: Code.Canceled,
  INTERNAL: Code.Internal,
};

type Handlers = Record<string, (request: any, signal: AbortSignal, context: CallContext) => any>;

/** The caller, found from the headers before the body is read and handed to the handler. */
const CALL_CONTEXT = createContextKey<CallContext | undefined>(undefined);

function callContext(context: HandlerContext): CallContext {
  const call = context.values.get(CALL_CONTEXT);
  if (!call) throw new ConnectError(UNAUTHENTICATED_MESSAGE, Code.Unauthenticated);
  return call;
}

export interface ConnectServerOptions {
  useCases: UseCases;
  /** Operators' session cookies: Secure even without TLS here (behind a TLS terminator); sign-in attempts per address and minute. */
  sessions: { secureCookie: boolean; signInsPerMinute: number };
  /** Other browser origins allowed to call (CORS_ORIGINS). */
  corsOrigins: readonly string[];
  logger: Logger;
  host: string;
  port: number;
  /** The built back-office (web/dist); a placeholder is served when it is missing. */
  webDir?: string;
  /** The browser tokenizer and its demo page (checkout/); not served when undefined. */
  checkout?: CheckoutFilesOptions;
  /** The largest request body read (MAX_REQUEST_BYTES); larger is RESOURCE_EXHAUSTED. */
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

/** The publishable keys' one call, answered to pages of any origin (handleTokenizationCors). */
const TOKENIZATION_PATH = `/${PaymentGatewayService.typeName}/${PaymentGatewayService.method.createCardToken.name}`;

const single = (value: string | string[] | undefined): string | undefined => (Array.isArray(value) ? value[0] : value);

const traceHeadersOf = (req: IncomingMessage): TraceHeaders => ({ traceparent: single(req.headers.traceparent), tracestate: single(req.headers.tracestate) });

/** The request in the handlers' plain shape, refused (INVALID_ARGUMENT) when it breaks the contract's limits. */
function checkedRequest(desc: DescMessage, request: unknown): unknown {
  const plain = esToPlain(desc, request);
  guardRequest(desc, plain);
  return plain;
}

/** Serves one service by bridging protobuf-es messages to the shared RPC handlers. */
function serve(router: ConnectRouter, service: DescService, handlers: Handlers, guard: CallGuard, logger: Logger, shutdown: AbortSignal): void {
  const implementation: Record<string, unknown> = {};
  for (const method of service.methods) {
    const handler = handlers[method.localName];
    if (!handler) throw new Error(`no handler for ${service.typeName}.${method.name}`);
    const path = `/${service.typeName}/${method.name}`;
    const fail = (error: unknown): never => {
      if (error instanceof ConnectError) throw error;
      const { code, message, details } = exposedError(error, logger, `${service.typeName}/${method.name}`);
      const { errorInfo, badRequest, retry } = errorDetails(code, message, details);
      throw new ConnectError(message, CONNECT_CODES[code], retry ? { 'retry-after': retry.retryAfterHeader } : undefined, [
        { desc: ErrorInfoSchema, value: errorInfo },
        ...(badRequest ? [{ desc: BadRequestSchema, value: badRequest }] : []),
        ...(retry ? [{ desc: RetryInfoSchema, value: { retryDelay: { seconds: BigInt(retry.delay.seconds), nanos: retry.delay.nanos } } }] : []),
      ]);
    };
    implementation[method.localName] =
      method.methodKind === 'server_streaming'
        ? async function* (request: unknown, context: HandlerContext) {
            try {
              const call = callContext(context);
              const signal = AbortSignal.any([context.signal, shutdown]);
              const items = guard.stream(
                path,
                call,
                () => checkedRequest(method.input, request),
                (admitted) => handler(admitted, signal, call),
                signal,
              );
              for await (const item of items) yield plainToEs(method.output, item);
            } catch (error) {
              fail(error);
            }
          }
        : async (request: unknown, context: HandlerContext) => {
            try {
              const call = callContext(context);
              const response = await withCallSignal(context.signal, () =>
                guard.unary(
                  path,
                  call,
                  () => checkedRequest(method.input, request),
                  (admitted) => handler(admitted, context.signal, call),
                ),
              );
              return plainToEs(method.output, response);
            } catch (error) {
              return fail(error);
            }
          };
  }
  router.service(service, implementation as never);
}

const PLACEHOLDER =
  '<!doctype html><title>Payment gateway</title><h1>Payment gateway back-office</h1><p>The web app is not built yet: run <code>npm run build:web</code>.</p>';

/**
 * The back-office: the file asked for, else index.html (the app's own routes),
 * else a placeholder when it is not built. Compression and caching: staticFiles.ts.
 */
function serveStatic(files: StaticFiles | undefined, req: IncomingMessage, res: ServerResponse, logger: Logger): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  const path = decodePathSegment(requestPath(req));
  const found = async () =>
    files && ((await files.get(join(files.webDir, normalize(path).replace(/^(\.\.[/\\])+/, '')))) ?? (await files.get(join(files.webDir, 'index.html'))));
  found().then(
    (target) => {
      if (!target) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PLACEHOLDER);
      else sendFile(target, req, res);
    },
    (error: unknown) => {
      logger.error({ err: error, path }, 'could not read a file of the back-office');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('could not read the file');
    },
  );
}

/**
 * Refuses a call from its headers alone, before a byte of its body is read
 * (Connect's interceptors run after the body is parsed), and closes the
 * connection so that the rest is never read either. The answer is in the
 * caller's protocol: gRPC-web carries the status in headers (trailers-only),
 * Connect in the HTTP status and a JSON error.
 */
function refuse(req: IncomingMessage, res: ServerResponse, code: Code.Unauthenticated | Code.PermissionDenied, message: string): void {
  const contentType = req.headers['content-type'] ?? '';
  if (contentType.startsWith('application/grpc')) {
    res
      .writeHead(200, {
        'content-type': contentType.split(';')[0]!,
        'grpc-status': String(code),
        'grpc-message': encodeURIComponent(message),
        connection: 'close',
      })
      .end();
    return;
  }
  res
    .writeHead(code === Code.Unauthenticated ? 401 : 403, { 'content-type': 'application/json', connection: 'close' })
    .end(JSON.stringify({ code: code === Code.Unauthenticated ? 'unauthenticated' : 'permission_denied', message }));
}

export async function startConnectServer(options: ConnectServerOptions): Promise<ListeningServer> {
  const guard = new CallGuard(options.useCases.access, {
    rateLimit: options.rateLimit,
    inFlight: options.inFlight,
    pressure: options.pressure,
    observer: options.rpcObserver,
    tracing: { tracer: options.tracer, system: 'connect_rpc' },
  });
  // Ends open streams (WatchEvents) on close, so that shutdown does not wait for them forever.
  const shutdown = new AbortController();
  const router = createConnectRouter({ readMaxBytes: options.maxRequestBytes, acceptCompression: [compressionGzip, compressionBrotli] });
  const services: [DescService, Handlers][] = [
    [PaymentGatewayService, paymentGatewayHandlers(options.useCases)],
    [ProviderAccountService, providerAccountHandlers(options.useCases)],
    [SandboxService, sandboxHandlers(options.useCases)],
    [WebhookService, webhookHandlers(options.useCases)],
    [AccessService, accessHandlers(options.useCases)],
    [UploadService, uploadHandlers(options.useCases)],
    [RoutingService, routingHandlers(options.useCases)],
    [DisputeService, disputeHandlers(options.useCases)],
  ];
  for (const [service, handlers] of services) serve(router, service, handlers, guard, options.logger, shutdown.signal);
  const staticFiles = options.webDir === undefined ? undefined : new StaticFiles(options.webDir);
  const checkoutFiles = options.checkout && new CheckoutFiles(options.checkout);
  const rpcs = new Map(router.handlers.map((handler) => [handler.requestPath, handler]));
  const answer = (rpc: (typeof router.handlers)[number], req: IncomingMessage, res: ServerResponse, call: CallContext): Promise<void> =>
    rpc(universalRequestFromNodeRequest(req, res, undefined, createContextValues().set(CALL_CONTEXT, call)))
      .then((response) => withDecodeErrorDetails(rpc.method.input, response))
      .then((response) => universalResponseToNodeResponse(response, res))
      .catch((error: unknown) => {
        if (ConnectError.from(error).code !== Code.Aborted)
          options.logger.error({ err: error, method: rpc.method.name }, 'connect call failed while answering');
      });
  /**
   * Connect's node adapter, with two additions: the caller is found from the
   * headers before the body is read, and decode errors get their BadRequest.
   */
  const sessions: SessionOptions = {
    operators: options.useCases.operators,
    access: options.useCases.access,
    logger: options.logger,
    secureCookie: options.sessions.secureCookie,
    signInsByAddress: new TokenBuckets({ perSecond: options.sessions.signInsPerMinute / 60, burst: options.sessions.signInsPerMinute }),
  };
  /** A bearer token (services, API_TOKENS) or an operator's session cookie with its CSRF token. */
  const caller = async (req: IncomingMessage): Promise<Principal | GatewayError | undefined> => {
    if (req.headers.authorization !== undefined) return guard.authenticate(req.headers.authorization);
    const check = await operatorOfCall(req, sessions);
    return check && ('refused' in check ? check.refused : check.principal);
  };
  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const path = (req.url ?? '').split('?', 2)[0]!;
    if (handleSessionRoute(req, res, path, sessions)) return;
    const rpc = rpcs.get(path);
    if (!rpc) {
      if (checkoutFiles?.handle(path, req, res)) return;
      return serveStatic(staticFiles, req, res, options.logger);
    }
    if (path === TOKENIZATION_PATH ? handleTokenizationCors(req, res) : handleCors(req, res, options.corsOrigins)) return;
    caller(req).then(
      (found) => {
        if (!found) {
          guard.refused(path, 'UNAUTHENTICATED', traceHeadersOf(req));
          return refuse(req, res, Code.Unauthenticated, UNAUTHENTICATED_MESSAGE);
        }
        if (!('permissions' in found)) {
          guard.refused(path, 'PERMISSION_DENIED', traceHeadersOf(req));
          return refuse(req, res, Code.PermissionDenied, found.message);
        }
        return answer(rpc, req, res, {
          principal: found,
          source: req.socket.remoteAddress ?? '',
          origin: single(req.headers.origin),
          traceHeaders: guard.traced ? traceHeadersOf(req) : undefined,
        });
      },
      (error: unknown) => {
        options.logger.error({ err: error, method: rpc.method.name }, 'could not authenticate a call');
        guard.refused(path, 'UNAVAILABLE', traceHeadersOf(req));
        res
          .writeHead(503, { 'content-type': 'application/json', connection: 'close' })
          .end(JSON.stringify({ code: 'unavailable', message: 'could not check the credentials; try again' }));
      },
    );
  };
  const server = createServer(
    guardedListener(options.logger, (req, res) => {
      setSecurityHeaders(res, options.useCases.uploads.uploadOrigin);
      if (req.url === '/healthz') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'SERVING' }));
        return;
      }
      return handler(req, res);
    }),
  );
  return listen(server, options.host, options.port, () => shutdown.abort());
}
