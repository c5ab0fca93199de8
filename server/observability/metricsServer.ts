import { createServer, type ServerResponse } from 'node:http';
import type { Logger } from '../lib/logger.js';
import { guardedListener, listen, requestPath, type ListeningServer } from '../lib/httpServer.js';
import type { GatewayMetrics } from './metrics.js';

export interface MetricsServerOptions {
  metrics: GatewayMetrics;
  logger: Logger;
  host: string;
  /** METRICS_PORT; 0 picks a free port. */
  port: number;
}

const text = (res: ServerResponse, status: number, body: string, contentType = 'text/plain; charset=utf-8') =>
  res.writeHead(status, { 'content-type': contentType, 'cache-control': 'no-store' }).end(body);

/**
 * Prometheus's scrape target: GET /metrics (the text exposition format) and
 * GET /healthz. No authentication: it names providers and account ids and
 * shows volumes, never secrets, and belongs on an internal network.
 */
export async function startMetricsServer(options: MetricsServerOptions): Promise<ListeningServer> {
  const server = createServer(
    guardedListener(options.logger, async (req, res) => {
      const path = requestPath(req);
      if (req.method !== 'GET') return text(res, 405, 'method not allowed: use GET\n');
      if (path === '/healthz') return text(res, 200, JSON.stringify({ status: 'SERVING' }), 'application/json');
      if (path !== '/metrics') return text(res, 404, 'not found: metrics are at GET /metrics\n');
      const body = await options.metrics.exposition();
      text(res, 200, body, options.metrics.contentType);
    }),
  );
  return listen(server, options.host, options.port);
}
