/**
 * The container's health check: exits 0 when the gateway in this container answers healthy, 1 otherwise.
 * `grpc` asks grpc.health.v1.Health/Check (the whole server); `connect`, `webhooks` and `metrics` GET /healthz on
 * their port. Ports come from the same variables the gateway reads, so the check follows a moved port.
 *
 *   node scripts/healthcheck.ts [grpc | connect | webhooks | metrics]
 */
import * as grpc from '@grpc/grpc-js';
import { service as healthService } from 'grpc-health-check';

const TIMEOUT_MS = 2_000;
const HTTP_PORTS = { connect: ['HTTP_PORT', 8080], webhooks: ['WEBHOOK_PORT', 8081], metrics: ['METRICS_PORT', 9464] } as const;
type Target = 'grpc' | keyof typeof HTTP_PORTS;

const port = (name: string, fallback: number): number => Number(process.env[name]?.trim() || fallback);

function grpcServing(address: string): Promise<boolean> {
  const Health = grpc.makeGenericClientConstructor(healthService, 'Health');
  const client = new Health(address, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.check({ service: '' }, { deadline: Date.now() + TIMEOUT_MS }, (error: grpc.ServiceError | null, answer?: { status?: string }) => {
      client.close();
      resolve(!error && answer?.status === 'SERVING');
    });
  });
}

async function httpServing(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    return response.ok;
  } catch {
    return false;
  }
}

const target = (process.argv[2] ?? 'grpc') as Target;
let healthy: boolean;
if (target === 'grpc') healthy = await grpcServing(`127.0.0.1:${port('GRPC_PORT', 50051)}`);
else if (target in HTTP_PORTS) {
  const [name, fallback] = HTTP_PORTS[target];
  healthy = await httpServing(`http://127.0.0.1:${port(name, fallback)}/healthz`);
} else {
  console.error(`usage: node scripts/healthcheck.ts [grpc | ${Object.keys(HTTP_PORTS).join(' | ')}]`);
  process.exit(2);
}
if (!healthy) console.error(`${target}: not serving`);
process.exit(healthy ? 0 : 1);
