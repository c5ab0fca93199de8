/**
 * Starts the local fleet on loopback from Debian's packages and this repository's build: etcd, three Patroni nodes
 * (a primary and two streaming replicas), HAProxy in front of PostgreSQL (following Patroni's leader) and of the
 * gateway's processes, PgBouncer in transaction mode in front of the primary and of the replicas, the sandbox PSP
 * as the provider, and the gateway's API, intake and worker processes.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { listening, postgresOwner, statusOf, supervise, waitFor, type Supervised } from './processes.js';
import { DATABASE, haproxyCfg, patroniYaml, pgbouncerIni, topology, type FleetSize, type GatewayRole, type PgNode, type Topology } from './topology.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const BINARIES = { etcd: '/usr/bin/etcd', patroni: '/usr/bin/patroni', pgbouncer: '/usr/sbin/pgbouncer', haproxy: '/usr/sbin/haproxy' };

export interface Fleet {
  topology: Topology;
  token: string;
  /** Where callers and operators connect. */
  addresses: {
    grpc: string;
    connect: string;
    webhooks: string;
    postgresPrimary: string;
    postgresReplicas: string;
    bouncerPrimary: string;
    haproxyStats: string;
    sandbox: string;
  };
  etcd: Supervised;
  patroni: Map<string, Supervised>;
  bouncers: { primary: Supervised; replicas: Supervised };
  haproxy: Supervised;
  sandbox: Supervised;
  gateways: Map<string, Supervised>;
  /** The Patroni node that answers 200 on /primary now, if one does. */
  leader(): Promise<PgNode | undefined>;
  /** The postmaster's pid of `node`, from its postmaster.pid. */
  postmasterPid(node: PgNode): number | undefined;
  /** Every process of the fleet that died when not asked to, by name. */
  unexpectedExits: { name: string; at: number; code: number | null; signal: string | null }[];
  stop(): Promise<void>;
}

export interface FleetOptions extends FleetSize {
  basePort: number;
  log: (line: string) => void;
  /** Extra settings for every gateway process. */
  gatewayEnv?: Record<string, string>;
}

const gatewayComponents: Record<GatewayRole['role'], string[]> = { api: ['grpc', 'connect'], intake: ['webhooks'], worker: ['webhooks'] };

function missingBinaries(): string[] {
  return Object.values(BINARIES).filter((path) => !existsSync(path));
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const missing = missingBinaries();
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}: apt-get install -y patroni etcd-server pgbouncer haproxy`);
  const { log } = options;
  const owner = postgresOwner();
  const dir = mkdtempSync(join(tmpdir(), 'gw-fleet-'));
  chmodSync(dir, 0o755);
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const t = topology(dir, options.basePort, options);
  const token = `fleet-${randomBytes(12).toString('hex')}`;
  const unexpectedExits: Fleet['unexpectedExits'] = [];
  const all: Supervised[] = [];
  let stopping = false;
  const onExit = (name: string, code: number | null, signal: NodeJS.Signals | null) => {
    if (!stopping) unexpectedExits.push({ name, at: Date.now(), code, signal });
  };
  const run = (name: string, command: string, args: string[], extra: Partial<Parameters<typeof supervise>[0]> = {}) => {
    const child = supervise({ name, command, args, dir, onExit, ...extra });
    all.push(child);
    return child;
  };
  const stop = async () => {
    stopping = true;
    for (const child of all.slice().reverse()) await child.stop();
  };
  const leader = async () => {
    for (const node of t.nodes) if ((await statusOf(`http://127.0.0.1:${node.restPort}/primary`)) === 200) return node;
    return undefined;
  };
  try {
    const started = Date.now();
    const etcd = run('etcd', BINARIES.etcd, [
      '--name',
      'etcd1',
      '--data-dir',
      join(dir, 'etcd'),
      '--listen-client-urls',
      `http://127.0.0.1:${t.etcd.clientPort}`,
      '--advertise-client-urls',
      `http://127.0.0.1:${t.etcd.clientPort}`,
      '--listen-peer-urls',
      `http://127.0.0.1:${t.etcd.peerPort}`,
      '--initial-advertise-peer-urls',
      `http://127.0.0.1:${t.etcd.peerPort}`,
      '--initial-cluster',
      `etcd1=http://127.0.0.1:${t.etcd.peerPort}`,
    ]);
    await waitFor('etcd', async () => (await statusOf(`http://127.0.0.1:${t.etcd.clientPort}/health`)) === 200);
    log(`etcd up (${elapsed(started)})`);

    const patroni = new Map<string, Supervised>();
    const startNode = (node: PgNode) => {
      const file = join(dir, `${node.name}.yml`);
      writeFileSync(file, patroniYaml(t, node));
      patroni.set(node.name, run(node.name, BINARIES.patroni, [file], { owner, env: { HOME: dir } }));
    };
    // The first node bootstraps the cluster alone; the others then copy it (pg_basebackup) as replicas.
    startNode(t.nodes[0]!);
    await waitFor('the first Patroni node to lead', async () => (await leader()) !== undefined, 90_000);
    log(`PostgreSQL primary up under Patroni (${elapsed(started)})`);
    for (const node of t.nodes.slice(1)) startNode(node);

    writeFileSync(join(dir, 'haproxy.cfg'), haproxyCfg(t));
    const haproxy = run('haproxy', BINARIES.haproxy, ['-db', '-f', join(dir, 'haproxy.cfg')]);
    await waitFor('HAProxy', () => listening(t.haproxy.pgPrimary));
    const bouncer = (which: 'primary' | 'replicas') => {
      const file = join(dir, `pgbouncer-${which}.ini`);
      writeFileSync(file, pgbouncerIni(t, which));
      return run(`pgbouncer-${which}`, BINARIES.pgbouncer, [file], { owner });
    };
    const bouncers = { primary: bouncer('primary'), replicas: bouncer('replicas') };
    await waitFor('PgBouncer', async () => (await listening(t.bouncer.primary)) && (await listening(t.bouncer.replicas)));
    await createDatabase(`postgresql://postgres@127.0.0.1:${t.haproxy.pgPrimary}/postgres`);

    // The PSP keeps every charge whole: the chaos load pays charges by notifications of its own, which the PSP never
    // sees, so a charge it stopped keeping whole would be canceled there while the gateway holds it paid.
    const sandbox = run('sandbox', process.execPath, ['--import', './dist/server/sourceMaps.js', 'dist/server/main.js', 'sandbox'], {
      cwd: ROOT,
      env: { HOST: '127.0.0.1', SANDBOX_PORT: String(t.sandboxPort), DATA_DIR: join(dir, 'sandbox'), LOG_LEVEL: 'warn', SANDBOX_WHOLE_RECORDS: String(1e9) },
      restartAfterMs: 500,
    });
    const url = (port: number) => `postgresql://postgres@127.0.0.1:${port}/${DATABASE}`;
    const shared: Record<string, string> = {
      HOST: '127.0.0.1',
      DATABASE_URL: url(t.bouncer.primary),
      DATABASE_REPLICA_URLS: url(t.bouncer.replicas),
      DATABASE_LISTEN_URL: url(t.haproxy.pgPrimary),
      DB_PREPARED_STATEMENTS: 'false',
      API_TOKENS: token,
      SECRETS_KEY: randomBytes(32).toString('base64'),
      OUTBOUND_WEBHOOK_SECRET: randomBytes(24).toString('hex'),
      ADMIN_PASSWORD: randomBytes(12).toString('base64url'),
      SANDBOX_URL: `http://127.0.0.1:${t.sandboxPort}`,
      WEBHOOK_PUBLIC_URL: `http://127.0.0.1:${t.haproxy.webhooks}`,
      LOG_LEVEL: 'warn',
      ...options.gatewayEnv,
    };
    const gateways = new Map<string, Supervised>();
    const startGateway = (g: GatewayRole) => {
      const env = {
        ...shared,
        DATA_DIR: join(dir, g.name),
        GRPC_PORT: String(g.grpcPort),
        HTTP_PORT: String(g.httpPort),
        WEBHOOK_PORT: String(g.webhookPort),
        METRICS_PORT: String(g.metricsPort),
        S3_PORT: String(g.s3Port),
        SANDBOX_PORT: String(t.sandboxPort),
        ...(g.role === 'intake' ? { WEBHOOK_WORKERS: '0' } : {}),
      };
      mkdirSync(env.DATA_DIR, { recursive: true });
      const child = run(g.name, process.execPath, ['--import', './dist/server/sourceMaps.js', 'dist/server/main.js', ...gatewayComponents[g.role]], {
        cwd: ROOT,
        env,
        restartAfterMs: 500,
      });
      gateways.set(g.name, child);
      return waitFor(g.name, () => listening(g.role === 'api' ? g.grpcPort : g.webhookPort), 120_000);
    };
    // The first applies the migrations alone; the others find them applied.
    const [first, ...rest] = t.gateways;
    await startGateway(first!);
    await Promise.all(rest.map(startGateway));
    await waitFor('the sandbox PSP', () => listening(t.sandboxPort));
    await waitFor('two streaming replicas', async () => (await replicasStreaming(t)) >= 2, 90_000);
    log(`gateway processes up, replicas streaming (${elapsed(started)})`);
    return {
      topology: t,
      token,
      addresses: {
        grpc: `127.0.0.1:${t.haproxy.grpc}`,
        connect: `http://127.0.0.1:${t.haproxy.connect}`,
        webhooks: `http://127.0.0.1:${t.haproxy.webhooks}`,
        postgresPrimary: url(t.haproxy.pgPrimary),
        postgresReplicas: url(t.haproxy.pgReplicas),
        bouncerPrimary: url(t.bouncer.primary),
        haproxyStats: `http://127.0.0.1:${t.haproxy.stats}/`,
        sandbox: `http://127.0.0.1:${t.sandboxPort}`,
      },
      etcd,
      patroni,
      bouncers,
      haproxy,
      sandbox,
      gateways,
      leader,
      postmasterPid(node) {
        const file = join(node.dataDir, 'postmaster.pid');
        if (!existsSync(file)) return undefined;
        const pid = Number(readFileSync(file, 'utf8').split('\n')[0]);
        return Number.isInteger(pid) && pid > 0 ? pid : undefined;
      },
      unexpectedExits,
      stop,
    };
  } catch (error) {
    log(`the fleet did not start; logs in ${dir}`);
    await stop();
    throw error;
  }
}

const elapsed = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

async function createDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
}

/** Replicas the current leader streams to, per Patroni's /cluster. */
async function replicasStreaming(t: Topology): Promise<number> {
  for (const node of t.nodes) {
    try {
      const response = await fetch(`http://127.0.0.1:${node.restPort}/cluster`, { signal: AbortSignal.timeout(2_000) });
      const cluster = (await response.json()) as { members: { role: string; state: string }[] };
      return cluster.members.filter((member) => member.role !== 'leader' && (member.state === 'streaming' || member.state === 'running')).length;
    } catch {
      continue;
    }
  }
  return 0;
}
