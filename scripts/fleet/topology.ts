/**
 * The local fleet's shape: which port each part listens on, and the configuration files of the parts that are not
 * the gateway (etcd takes flags; Patroni, PgBouncer and HAProxy take files). Pure: scripts/fleet/start.ts writes and
 * runs what this describes.
 */
import { join } from 'node:path';

export interface FleetSize {
  /** Gateway processes serving gRPC and Connect behind HAProxy. */
  api: number;
  /** Webhook intake processes (WEBHOOK_WORKERS=0) behind HAProxy. */
  intake: number;
  /** Worker processes: the webhooks component with its loops, no traffic routed to it. */
  workers: number;
}

export interface PgNode {
  name: string;
  port: number;
  restPort: number;
  dataDir: string;
}

export interface GatewayRole {
  name: string;
  role: 'api' | 'intake' | 'worker';
  grpcPort: number;
  httpPort: number;
  webhookPort: number;
  metricsPort: number;
  s3Port: number;
}

export interface Topology {
  dir: string;
  etcd: { clientPort: number; peerPort: number };
  nodes: PgNode[];
  haproxy: { pgPrimary: number; pgReplicas: number; grpc: number; connect: number; webhooks: number; stats: number };
  bouncer: { primary: number; replicas: number };
  sandboxPort: number;
  gateways: GatewayRole[];
}

export const CLUSTER = 'gwfleet';
export const DATABASE = 'gateway';

/** Every port from `base` on, in blocks of ten per kind, so that a listing of sockets reads at a glance. */
export function topology(dir: string, base: number, size: FleetSize): Topology {
  const nodes = [1, 2, 3].map((i) => ({ name: `pg${i}`, port: base + 10 + i, restPort: base + 20 + i, dataDir: join(dir, `pg${i}`) }));
  const roles: GatewayRole['role'][] = [
    ...Array<GatewayRole['role']>(size.api).fill('api'),
    ...Array<GatewayRole['role']>(size.intake).fill('intake'),
    ...Array<GatewayRole['role']>(size.workers).fill('worker'),
  ];
  const counts = { api: 0, intake: 0, worker: 0 };
  const gateways = roles.map((role, i) => {
    counts[role] += 1;
    const port = base + 100 + i * 10;
    return { name: `${role}${counts[role]}`, role, grpcPort: port, httpPort: port + 1, webhookPort: port + 2, metricsPort: port + 3, s3Port: port + 4 };
  });
  return {
    dir,
    etcd: { clientPort: base + 1, peerPort: base + 2 },
    nodes,
    haproxy: { pgPrimary: base + 30, pgReplicas: base + 31, grpc: base + 50, connect: base + 80, webhooks: base + 90, stats: base + 99 },
    bouncer: { primary: base + 40, replicas: base + 41 },
    sandboxPort: base + 60,
    gateways,
  };
}

/**
 * One Patroni node. Short timings (loop_wait 1 s, ttl 20 s, Patroni's least) so that a failover on loopback takes
 * seconds; use_pg_rewind lets a demoted or killed primary rejoin as a replica without a new base backup.
 */
export function patroniYaml(t: Topology, node: PgNode): string {
  const bin = '/usr/lib/postgresql/15/bin';
  return `scope: ${CLUSTER}
namespace: /service/
name: ${node.name}
restapi:
  listen: 127.0.0.1:${node.restPort}
  connect_address: 127.0.0.1:${node.restPort}
etcd3:
  hosts: 127.0.0.1:${t.etcd.clientPort}
bootstrap:
  dcs:
    ttl: 20
    loop_wait: 1
    retry_timeout: 5
    maximum_lag_on_failover: 1048576
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        wal_level: replica
        hot_standby: 'on'
        wal_log_hints: 'on'
        max_wal_senders: 10
        max_replication_slots: 10
        max_connections: 300
  initdb:
    - encoding: UTF8
    - auth: trust
  pg_hba:
    - local all all trust
    - host replication postgres 127.0.0.1/32 trust
    - host all all 127.0.0.1/32 trust
postgresql:
  listen: 127.0.0.1:${node.port}
  connect_address: 127.0.0.1:${node.port}
  data_dir: ${node.dataDir}
  bin_dir: ${bin}
  pgpass: ${join(t.dir, `${node.name}.pgpass`)}
  # A fast checkpoint: the default spread one made each replica's base backup wait a minute and a half.
  basebackup:
    - checkpoint: fast
  authentication:
    superuser:
      username: postgres
    replication:
      username: postgres
    rewind:
      username: postgres
  # Durable commits (fsync, synchronous_commit on, the defaults): a run with both off lost two acknowledged charges
  # when the primary's postmaster was killed.
  parameters:
    unix_socket_directories: '${t.dir}'
tags:
  nofailover: false
  noloadbalance: false
`;
}

/** PgBouncer in transaction mode in front of one HAProxy port (the primary's, or the replicas'). */
export function pgbouncerIni(t: Topology, which: 'primary' | 'replicas'): string {
  const target = which === 'primary' ? t.haproxy.pgPrimary : t.haproxy.pgReplicas;
  return [
    '[databases]',
    `* = host=127.0.0.1 port=${target} user=postgres`,
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${t.bouncer[which]}`,
    'unix_socket_dir =',
    'auth_type = any',
    'pool_mode = transaction',
    'max_client_conn = 1000',
    'default_pool_size = 40',
    // A server session that HAProxy cut (a failover) is noticed on its next use; a short check finds it sooner.
    'server_check_delay = 1',
    // After a failed login (no primary yet) PgBouncer refuses its clients until it tries again: a quarter of a second
    // keeps that refusal from outlasting the failover (1 s added up to a second to the callers' error window).
    'server_login_retry = 0.25',
    `pidfile = ${join(t.dir, `pgbouncer-${which}.pid`)}`,
    '',
  ].join('\n');
}

/**
 * HAProxy: PostgreSQL's primary and replicas found through Patroni's REST API (/primary and /replica answer 200 on
 * the nodes that are), sessions to a node cut as soon as it stops being one; the gateway's gRPC (HTTP/2 without
 * TLS), Connect and webhook intake balanced over its processes, a request whose connection failed sent to another.
 */
export function haproxyCfg(t: Topology): string {
  const pgServers = t.nodes.map((node) => `  server ${node.name} 127.0.0.1:${node.port} check port ${node.restPort}`).join('\n');
  const servers = (role: GatewayRole['role'], port: (g: GatewayRole) => number, extra = '') =>
    t.gateways
      .filter((g) => g.role === role)
      .map((g) => `  server ${g.name} 127.0.0.1:${port(g)} check${extra}`)
      .join('\n');
  return `global
  maxconn 4000
defaults
  timeout connect 1s
  # PostgreSQL sessions stay open while idle (pooled ones, the LISTEN): only a failover ends them.
  timeout client 1h
  timeout server 1h
  timeout check 1s
listen stats
  mode http
  bind 127.0.0.1:${t.haproxy.stats}
  stats enable
  stats uri /
listen pg-primary
  mode tcp
  bind 127.0.0.1:${t.haproxy.pgPrimary}
  option httpchk GET /primary
  http-check expect status 200
  # Checked every 250 ms: a demoted primary's sessions are cut within half a second of Patroni saying so (at 500 ms,
  # sessions the pooler opened to it in that second failed with "read-only transaction" for a second longer).
  default-server inter 250ms fall 2 rise 1 on-marked-down shutdown-sessions
${pgServers}
listen pg-replicas
  mode tcp
  bind 127.0.0.1:${t.haproxy.pgReplicas}
  balance roundrobin
  option httpchk GET /replica
  http-check expect status 200
  default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
${pgServers}
defaults gateway
  mode http
  timeout connect 1s
  timeout client 60s
  timeout server 60s
  timeout check 1s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response
  default-server inter 500ms fall 1 rise 1
frontend grpc from gateway
  bind 127.0.0.1:${t.haproxy.grpc} proto h2
  default_backend api-grpc
backend api-grpc from gateway
${servers('api', (g) => g.grpcPort, ' proto h2')}
frontend connect from gateway
  bind 127.0.0.1:${t.haproxy.connect}
  default_backend api-connect
backend api-connect from gateway
  option httpchk GET /healthz
${servers('api', (g) => g.httpPort)}
frontend webhooks from gateway
  bind 127.0.0.1:${t.haproxy.webhooks}
  default_backend intake
backend intake from gateway
  # Not ready (503) until the process can store notifications: a restarted one gets none before.
  option httpchk GET /healthz
${servers('intake', (g) => g.webhookPort)}
`;
}
