import type pg from 'pg';
import { MikroORM, type EntityManager } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import { ENTITIES } from './entities.js';
import { MIGRATIONS } from './migrations/index.js';
import { embeddedDataDir, startEmbeddedPostgres, type EmbeddedPostgres } from './embedded.js';
import { RoundRobinPostgreSqlDriver } from './replicaRouting.js';
import { cancelReadsWithTheirCaller } from './statementCancellation.js';
import { PoolWaits } from './poolWaits.js';
import { usePreparedStatements } from './preparedSql.js';

export interface DatabaseOptions {
  /** A real PostgreSQL; when absent, the embedded PGlite in `dataDir`. */
  databaseUrl?: string;
  /** Read replicas of `databaseUrl`: plain reads go round-robin over them. */
  replicaUrls?: readonly string[];
  /**
   * Where the primary's LISTEN connection goes when it must not go through `databaseUrl` (a pooler in transaction mode
   * hands each statement a different server session, so a LISTEN hears nothing); default `databaseUrl`.
   */
  listenUrl?: string;
  dataDir: string;
  /**
   * The embedded database's process when it was started beforehand (server/main.ts forks it first thing, so that PGlite
   * starts while the gateway's modules load); without DATABASE_URL and without it, the database in `dataDir` is started here.
   */
  embedded?: Promise<EmbeddedPostgres>;
  /** Apply pending migrations on open (the default). */
  migrate?: boolean;
  /** Where the ORM's own messages (migrations applied) go; silent when absent. */
  log?: (message: string) => void;
  /** How long a query waits for a free connection before failing (DB_ACQUIRE_TIMEOUT_MS); 0: forever. */
  acquireTimeoutMs?: number;
  /** How long opening a new connection may take before it fails (DB_CONNECT_TIMEOUT_MS); 0: no limit. */
  connectTimeoutMs?: number;
  /** Connections to PostgreSQL (the primary, and each replica) at most; the embedded database serves one. Default 10. */
  poolMax?: number;
  /** Hot statements prepared under their name once per connection (preparedSql.ts); false: sent unnamed. Default true. */
  preparedStatements?: boolean;
}

export const DEFAULT_ACQUIRE_TIMEOUT_MS = 10_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_POOL_MAX = 10;

/**
 * The pg pool the ORM creates, as far as the timeouts below touch it: `connectionTimeoutMillis` bounds both a
 * caller's wait in the queue for a busy pool and the opening of each new connection (the pool's own timer, and the
 * client's, which reads it from the options the pool hands on when it creates the client).
 */
interface PgPool {
  options: { connectionTimeoutMillis?: number };
  newClient(pendingItem: unknown): void;
}

/**
 * Gives a pool two timeouts instead of pg's one: waiting for a connection another query holds
 * (`acquireTimeoutMs`) and opening a new one (`connectTimeoutMs`). With the one, a short acquire timeout also
 * cut short every connection that took longer to open (a busy database host, TLS, a far region), and the gateway
 * could not even start; with a long one, an overloaded gateway queued calls that long. The pool reads the option
 * synchronously while it creates a client and arms its timer, so the connect timeout is in place exactly then.
 */
function separateConnectTimeout(pool: PgPool, acquireTimeoutMs: number, connectTimeoutMs: number): void {
  pool.options.connectionTimeoutMillis = acquireTimeoutMs;
  const newClient = pool.newClient.bind(pool);
  pool.newClient = (pendingItem) => {
    pool.options.connectionTimeoutMillis = connectTimeoutMs;
    try {
      newClient(pendingItem);
    } finally {
      pool.options.connectionTimeoutMillis = acquireTimeoutMs;
    }
  };
}

/** One connection pool (the primary's or a replica's) as it is now. */
export interface PoolUsage {
  /** 'primary', 'replica-1', … */
  pool: string;
  /** Connections lent out to a query or transaction. */
  used: number;
  /** Connections open and waiting in the pool. */
  idle: number;
  /** Queries waiting for a connection. */
  pending: number;
  max: number;
}

export interface Database {
  orm: MikroORM;
  /** A fresh unit of work; use one per request. */
  em(): EntityManager;
  /**
   * The ORM's root EntityManager, which has no unit of work: for repository methods that only send statements (a
   * prepared statement, a connection's `execute`) and fork one where they need entities (`unitOf`). MikroORM refuses
   * entity work on it (`allowGlobalContext: false`), so a method that forgot to fork fails at once rather than sharing
   * entities between calls. A charge made three forks it never used, about 3 % of its CPU (docs/benchmarks.md).
   */
  rootEm(): EntityManager;
  embedded: boolean;
  /** The pools' usage; none once closed (asking a closed ORM would open its pools again). */
  poolUsage(): Promise<PoolUsage[]>;
  /**
   * How long the primary pool's queries wait for a connection (the load shedder's SHED_POOL_WAIT_MS), timed from the
   * first call on: a gateway with that rule off never asks, and keeps no waits nobody reads.
   */
  primaryWaits(): PoolWaits;
  /** How far each replica replays behind the primary, in seconds; a replica that cannot be asked is left out. */
  replicaLag(): Promise<{ pool: string; seconds: number }[]>;
  /**
   * A new, unconnected client of the primary outside the pools, with the primary pool's settings and connect timeout
   * (a LISTEN holds its connection for good); undefined on the embedded database, whose socket server serves one
   * connection at a time.
   */
  primaryClient?: (applicationName: string) => pg.Client;
  close(): Promise<void>;
}

/**
 * A standby's lag: 0 while it has replayed all the WAL it received (an idle primary sends none, and the time since the
 * last replayed commit would grow without any lag), else the time since the last commit it replayed. Null on a
 * server that is not a standby.
 */
const REPLICA_LAG = `select case when pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
  else extract(epoch from now() - pg_last_xact_replay_timestamp()) end::float8 as seconds`;

export function ormConfig(
  clientUrl: string,
  embedded: boolean,
  log: (message: string) => void = () => {},
  replicaUrls: readonly string[] = [],
  acquireTimeoutMs = DEFAULT_ACQUIRE_TIMEOUT_MS,
  connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS,
  poolMax = DEFAULT_POOL_MAX,
) {
  return {
    // pg's pool: a query that finds every connection busy waits acquireTimeoutMs, then fails (UNAVAILABLE to the
    // caller) instead of queueing without end under overload; opening a connection has connectTimeoutMs of its own.
    driverOptions: { onPoolCreated: (pool: PgPool) => separateConnectTimeout(pool, acquireTimeoutMs, connectTimeoutMs) },
    clientUrl,
    driver: RoundRobinPostgreSqlDriver,
    replicas: replicaUrls.map((url, index) => ({ name: `replica-${index + 1}`, clientUrl: url })),
    preferReadReplicas: true,
    entities: ENTITIES,
    extensions: [Migrator],
    // pglite-socket serves one connection at a time.
    pool: embedded ? { min: 0, max: 1 } : { min: 0, max: poolMax },
    migrations: {
      migrationsList: MIGRATIONS,
      path: 'server/db/migrations',
      pathTs: 'server/db/migrations',
      transactional: true,
      allOrNothing: true,
      snapshot: false,
      snapshotOnMigrate: false,
    },
    allowGlobalContext: false,
    debug: false,
    logger: log,
  };
}

export async function openDatabase({
  databaseUrl,
  replicaUrls = [],
  listenUrl,
  dataDir,
  embedded,
  migrate = true,
  log,
  acquireTimeoutMs,
  connectTimeoutMs,
  preparedStatements = true,
  poolMax,
}: DatabaseOptions): Promise<Database> {
  let embeddedServer: EmbeddedPostgres | undefined;
  const clientUrl = databaseUrl ?? (embeddedServer = await (embedded ?? startEmbeddedPostgres(embeddedDataDir(dataDir)))).url;
  let orm: MikroORM;
  let primaryPool: pg.Pool & { Client?: new (config: pg.ClientConfig) => pg.Client };
  let primaryWaits: PoolWaits | undefined;
  try {
    orm = (await MikroORM.init(
      ormConfig(clientUrl, embeddedServer !== undefined, log, embeddedServer ? [] : replicaUrls, acquireTimeoutMs, connectTimeoutMs, poolMax),
    )) as unknown as MikroORM;
    if (migrate) await orm.migrator.up();
    for (const { name, connection } of (orm.driver as RoundRobinPostgreSqlDriver).namedConnections()) {
      const pool = await connection.getNativeClient();
      if (name === 'primary') primaryPool = pool;
      cancelReadsWithTheirCaller(pool, { cancelRunning: embeddedServer === undefined });
      usePreparedStatements(pool, preparedStatements);
    }
  } catch (error) {
    await embeddedServer?.stop();
    throw error;
  }
  let closed = false;
  return {
    orm,
    em: () => orm.em.fork(),
    rootEm: () => orm.em,
    embedded: embeddedServer !== undefined,
    primaryWaits: () => (primaryWaits ??= PoolWaits.of(primaryPool)),
    // pg's Client as the ORM's driver loads it: the same module, and the same host, user and database as its pool.
    primaryClient: embeddedServer
      ? undefined
      : (applicationName) =>
          new primaryPool.Client!({
            ...primaryPool.options,
            // pg lets a connection string's parts win over the pool's host, port, user and database.
            ...(listenUrl ? { connectionString: listenUrl } : {}),
            application_name: applicationName,
            connectionTimeoutMillis: connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
            keepAlive: true,
            keepAliveInitialDelayMillis: 10_000,
          }),
    async poolUsage() {
      if (closed) return [];
      const connections = (orm.driver as RoundRobinPostgreSqlDriver).namedConnections();
      return Promise.all(
        connections.map(async ({ name, connection }) => {
          const pool = await connection.getNativeClient();
          return { pool: name, used: pool.totalCount - pool.idleCount, idle: pool.idleCount, pending: pool.waitingCount, max: pool.options.max ?? 0 };
        }),
      );
    },
    async replicaLag() {
      if (closed) return [];
      const replicas = (orm.driver as RoundRobinPostgreSqlDriver).namedConnections().filter(({ name }) => name !== 'primary');
      const lags = await Promise.allSettled(
        replicas.map(async ({ name, connection }) => {
          const pool = await connection.getNativeClient();
          const { rows } = await pool.query<{ seconds: number | null }>(REPLICA_LAG);
          return { pool: name, seconds: rows[0]?.seconds };
        }),
      );
      return lags.flatMap((lag) =>
        lag.status === 'fulfilled' && typeof lag.value.seconds === 'number' ? [{ pool: lag.value.pool, seconds: lag.value.seconds }] : [],
      );
    },
    async close() {
      closed = true;
      await orm.close(true);
      await embeddedServer?.stop();
    },
  };
}
