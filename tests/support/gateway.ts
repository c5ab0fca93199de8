import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../server/config.js';
import { COMPONENTS, startGateway, type RunningGateway } from '../../server/app.js';
import { createLogger, type Logger } from '../../server/lib/logger.js';
import type { ProviderAdapter } from '../../server/providers/adapter.js';
import { SecretBox } from '../../server/lib/secretBox.js';
import { grpcDriver, type Driver } from './clients.js';
import { closedPort } from './closedPort.js';
import { createTestDatabase } from './postgres.js';
import { seedAccounts, seededTestDatabase } from './seedCharges.js';

export const TEST_TOKEN = 'test-token-0123456789';
export const TEST_OUTBOUND_SECRET = 'outbound-secret-for-tests';

export interface TestGatewayOptions {
  databaseUrl?: string;
  replicaUrls?: string[];
  /** More settings, as environment variables. */
  env?: Record<string, string>;
  /** Reuse a data folder (to restart on the same embedded database). */
  dataDir?: string;
  /** Adapters that exist only in the test, registered beside the catalogue's. */
  extraProviders?: ProviderAdapter[];
  /** Where the gateway logs (to assert on log lines); default silent, or TEST_LOG_LEVEL. */
  logger?: Logger;
}

/** The whole gateway on free loopback ports, as `npm start` runs it. */
export async function startTestGateway(options: TestGatewayOptions = {}): Promise<RunningGateway & { dataDir: string }> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gateway-test-'));
  const config = loadConfig({
    HOST: '127.0.0.1',
    GRPC_PORT: '0',
    HTTP_PORT: '0',
    WEBHOOK_PORT: '0',
    SANDBOX_PORT: '0',
    METRICS_PORT: '0',
    S3_PORT: '0',
    DATA_DIR: dataDir,
    API_TOKENS: TEST_TOKEN,
    SANDBOX_SETTLE_MS: '200',
    WORKER_IDLE_MS: '100',
    OUTBOUND_WEBHOOK_SECRET: TEST_OUTBOUND_SECRET,
    // The fake providers and webhook receivers of the tests listen on loopback.
    ALLOW_PRIVATE_PROVIDER_URLS: 'true',
    ALLOW_PRIVATE_WEBHOOK_URLS: 'true',
    // The suites call quickly with one token or one operator; tests/integration/rateLimits.test.ts turns the limits on.
    RATE_LIMIT_PER_SECOND: '0',
    OPERATOR_RATE_LIMIT_PER_SECOND: '0',
    // The gateway shares the test's process and a busy machine: load shedding would refuse the suites' calls whenever
    // the test itself keeps the loop busy, or a suite sends many calls at once. tests/integration/overload.test.ts and
    // tests/unit/loopPressure.test.ts turn it on.
    SHED_EVENT_LOOP_DELAY_MS: '0',
    SHED_POOL_WAIT_MS: '0',
    // The fake PSP on the test's own event loop, where the suites drive it (injectFault, received, behaviour); the
    // thread `npm start` runs it in is tested by tests/integration/sandboxThread.test.ts and the suites that spawn
    // the gateway as a process.
    SANDBOX_THREAD: 'false',
    ...options.env,
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
    ...(options.replicaUrls ? { DATABASE_REPLICA_URLS: options.replicaUrls.join(',') } : {}),
  });
  const gateway = await startGateway(config, COMPONENTS, options.logger ?? createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), {
    extraProviders: options.extraProviders,
  });
  return { ...gateway, dataDir };
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

export interface TestStack {
  gateway: RunningGateway & { dataDir: string };
  database: { url: string; drop(): Promise<void> };
  /** A grpc-js client with the test token. */
  client: Driver;
  close(): Promise<void>;
}

export interface TestStackOptions extends Omit<TestGatewayOptions, 'databaseUrl'> {
  /** Starts on this many charges of the past at accounts of their own (seedCharges.ts), before the suite's own. */
  seededCharges?: number;
}

/** A fresh PostgreSQL database, the whole gateway on it, and a gRPC client: what most integration suites start from. */
export async function startTestStack({ seededCharges, ...options }: TestStackOptions = {}): Promise<TestStack> {
  const database = seededCharges ? await seededTestDatabase(seededCharges) : await createTestDatabase();
  let gateway: (RunningGateway & { dataDir: string }) | undefined;
  try {
    gateway = await startTestGateway({ ...options, databaseUrl: database.url });
    if (seededCharges) {
      const box = SecretBox.fromEncodedKey(gateway.config.secretsKey);
      await seedAccounts(database.url, (secret) => box.seal(secret), `http://127.0.0.1:${await closedPort()}`);
    }
    const client = grpcDriver(gateway.grpcAddress!, TEST_TOKEN);
    const started = gateway;
    return {
      gateway: started,
      database,
      client,
      async close() {
        client.close();
        await started.close();
        await database.drop();
        removeDir(started.dataDir);
      },
    };
  } catch (error) {
    await gateway?.close();
    await database.drop();
    throw error;
  }
}
