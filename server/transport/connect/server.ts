import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { Code, ConnectError, type ConnectRouter, type Interceptor } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import type { DescService } from '@bufbuild/protobuf';
import { PaymentGatewayService } from '../../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ProviderAccountService } from '../../../gen/es/gateway/v1/provider_account_service_pb.js';
import { SandboxService } from '../../../gen/es/gateway/v1/sandbox_service_pb.js';
import { WebhookService } from '../../../gen/es/gateway/v1/webhook_service_pb.js';
import type { ErrorCode } from '../../lib/errors.js';
import type { Logger } from '../../lib/logger.js';
import { decodePathSegment, guardedListener, listen, requestPath, type ListeningServer } from '../../lib/httpServer.js';
import { isAuthorized, UNAUTHENTICATED_MESSAGE } from '../auth.js';
import { errorDetails, exposedError } from '../errors.js';
import { BadRequestSchema, ErrorInfoSchema } from '../../../gen/es/google/rpc/error_details_pb.js';
import { paymentGatewayHandlers, providerAccountHandlers, sandboxHandlers, webhookHandlers, type UseCases } from '../rpcHandlers.js';
import { esToPlain, plainToEs } from './esBridge.js';

const CONNECT_CODES: Record<ErrorCode, Code> = {
  INVALID_ARGUMENT: Code.InvalidArgument,
  NOT_FOUND: Code.NotFound,
  ALREADY_EXISTS: Code.AlreadyExists,
  FAILED_PRECONDITION: Code.FailedPrecondition,
  UNIMPLEMENTED: Code.Unimplemented,
  UNAUTHENTICATED: Code.Unauthenticated,
  PERMISSION_DENIED: Code.PermissionDenied,
  UNAVAILABLE: Code.Unavailable,
  INTERNAL: Code.Internal,
};

type Handlers = Record<string, (request: any, signal: AbortSignal) => any>;

export interface ConnectServerOptions {
  useCases: UseCases;
  apiTokens: readonly string[];
  logger: Logger;
  host: string;
  port: number;
  /** The built back-office (web/dist); a placeholder is served when it is missing. */
  webDir?: string;
  /** The largest request body read (MAX_REQUEST_BYTES); larger is RESOURCE_EXHAUSTED. */
  maxRequestBytes: number;
}

/** Serves one service by bridging protobuf-es messages to the shared RPC handlers. */
function serve(router: ConnectRouter, service: DescService, handlers: Handlers, logger: Logger, shutdown: AbortSignal): void {
  const implementation: Record<string, unknown> = {};
  for (const method of service.methods) {
    const handler = handlers[method.localName];
    if (!handler) throw new Error(`no handler for ${service.typeName}.${method.name}`);
    const fail = (error: unknown): never => {
      if (error instanceof ConnectError) throw error;
      const { code, message, details } = exposedError(error, logger, `${service.typeName}/${method.name}`);
      const { errorInfo, badRequest } = errorDetails(code, message, details);
      throw new ConnectError(message, CONNECT_CODES[code], undefined, [
        { desc: ErrorInfoSchema, value: errorInfo },
        ...(badRequest ? [{ desc: BadRequestSchema, value: badRequest }] : []),
      ]);
    };
    implementation[method.localName] =
      method.methodKind === 'server_streaming'
        ? async function* (request: unknown, context: { signal: AbortSignal }) {
            try {
              for await (const item of handler(esToPlain(method.input, request), AbortSignal.any([context.signal, shutdown]))) yield plainToEs(method.output, item);
            } catch (error) {
              fail(error);
            }
          }
        : async (request: unknown, context: { signal: AbortSignal }) => {
            try {
              return plainToEs(method.output, await handler(esToPlain(method.input, request), context.signal));
            } catch (error) {
              return fail(error);
            }
          };
  }
  router.service(service, implementation as never);
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

const PLACEHOLDER = '<!doctype html><title>Payment gateway</title><h1>Payment gateway back-office</h1><p>The web app is not built yet: run <code>npm run build:web</code>.</p>';

function serveStatic(webDir: string | undefined, req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  const path = decodePathSegment(requestPath(req));
  const file = webDir ? join(webDir, normalize(path).replace(/^(\.\.[/\\])+/, '')) : undefined;
  const target = file && existsSync(file) && statSync(file).isFile() ? file : webDir && existsSync(join(webDir, 'index.html')) ? join(webDir, 'index.html') : undefined;
  if (!target) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PLACEHOLDER);
    return;
  }
  res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(target)] ?? 'application/octet-stream' });
  createReadStream(target).pipe(res);
}

const SERVICES = [PaymentGatewayService, ProviderAccountService, SandboxService, WebhookService];
const RPC_PATHS = new Set(SERVICES.flatMap((service) => service.methods.map((method) => `/${service.typeName}/${method.name}`)));

/**
 * Refuses a call without a valid token from its headers alone, before a byte
 * of its body is read (Connect's interceptors run after the body is parsed),
 * and closes the connection so that the rest is never read either. The answer
 * is in the caller's protocol: gRPC-web carries the status in headers
 * (trailers-only), Connect in the HTTP status and a JSON error.
 */
function refuseUnauthenticated(req: IncomingMessage, res: ServerResponse): void {
  const contentType = req.headers['content-type'] ?? '';
  if (contentType.startsWith('application/grpc')) {
    res.writeHead(200, { 'content-type': contentType.split(';')[0]!, 'grpc-status': String(Code.Unauthenticated), 'grpc-message': encodeURIComponent(UNAUTHENTICATED_MESSAGE), connection: 'close' }).end();
    return;
  }
  res.writeHead(401, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ code: 'unauthenticated', message: UNAUTHENTICATED_MESSAGE }));
}

export async function startConnectServer(options: ConnectServerOptions): Promise<ListeningServer> {
  const auth: Interceptor = (next) => async (request) => {
    if (!isAuthorized(request.header.get('authorization') ?? undefined, options.apiTokens)) throw new ConnectError(UNAUTHENTICATED_MESSAGE, Code.Unauthenticated);
    return next(request);
  };
  // Ends open streams (WatchEvents) on close, so that shutdown does not wait for them forever.
  const shutdown = new AbortController();
  const handler = connectNodeAdapter({
    interceptors: [auth],
    readMaxBytes: options.maxRequestBytes,
    routes: (router) => {
      serve(router, PaymentGatewayService, paymentGatewayHandlers(options.useCases), options.logger, shutdown.signal);
      serve(router, ProviderAccountService, providerAccountHandlers(options.useCases), options.logger, shutdown.signal);
      serve(router, SandboxService, sandboxHandlers(options.useCases), options.logger, shutdown.signal);
      serve(router, WebhookService, webhookHandlers(options.useCases), options.logger, shutdown.signal);
    },
    fallback: (req, res) => serveStatic(options.webDir, req as IncomingMessage, res as ServerResponse),
  });
  const server = createServer(
    guardedListener(options.logger, (req, res) => {
      if (req.url === '/healthz') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 'SERVING' }));
        return;
      }
      // The same match as Connect's router, so that no call reaches it unchecked.
      if (RPC_PATHS.has((req.url ?? '').split('?', 2)[0]!) && !isAuthorized(req.headers.authorization, options.apiTokens)) return refuseUnauthenticated(req, res);
      return handler(req, res);
    }),
  );
  return listen(server, options.host, options.port, () => shutdown.abort());
}
