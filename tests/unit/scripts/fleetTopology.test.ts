import { describe, expect, it } from '@jest/globals';
import { haproxyCfg, patroniYaml, pgbouncerIni, topology } from '../../../scripts/fleet/topology.js';

const t = topology('/tmp/fleet', 26000, { api: 2, intake: 1, workers: 1 });

describe("the fleet's topology", () => {
  it('gives every listener its own port', () => {
    const ports = [
      t.etcd.clientPort,
      t.etcd.peerPort,
      ...t.nodes.flatMap((node) => [node.port, node.restPort]),
      ...Object.values(t.haproxy),
      ...Object.values(t.bouncer),
      t.sandboxPort,
      ...t.gateways.flatMap((g) => [g.grpcPort, g.httpPort, g.webhookPort, g.metricsPort, g.s3Port]),
    ];
    expect(new Set(ports).size).toBe(ports.length);
    expect(t.gateways.map((g) => g.name)).toEqual(['api1', 'api2', 'intake1', 'worker1']);
  });

  it("sends PostgreSQL's clients to the node Patroni calls primary, and cuts their sessions when it stops being it", () => {
    const cfg = haproxyCfg(t);
    expect(cfg).toMatch(/listen pg-primary[\s\S]*option httpchk GET \/primary[\s\S]*on-marked-down shutdown-sessions/);
    for (const node of t.nodes) expect(cfg).toContain(`server ${node.name} 127.0.0.1:${node.port} check port ${node.restPort}`);
    expect(cfg).toMatch(/listen pg-replicas[\s\S]*option httpchk GET \/replica/);
  });

  it('balances gRPC over HTTP/2 to the API processes only, and webhooks to the intake processes only', () => {
    const cfg = haproxyCfg(t);
    expect(cfg).toContain(`bind 127.0.0.1:${t.haproxy.grpc} proto h2`);
    expect(cfg).toContain('server api1 127.0.0.1:26100 check proto h2');
    expect(cfg).toMatch(/backend intake from gateway\n {2}# [^\n]+\n {2}option httpchk GET \/healthz\n {2}server intake1 [^\n]+\n$/);
  });

  it('puts PgBouncer in transaction mode in front of HAProxy, and gives Patroni fast base backups', () => {
    expect(pgbouncerIni(t, 'primary')).toMatch(new RegExp(`port=${t.haproxy.pgPrimary} [\\s\\S]*pool_mode = transaction`));
    expect(pgbouncerIni(t, 'replicas')).toContain(`port=${t.haproxy.pgReplicas}`);
    const yaml = patroniYaml(t, t.nodes[1]!);
    expect(yaml).toContain('name: pg2');
    expect(yaml).toContain('checkpoint: fast');
    expect(yaml).toContain(`hosts: 127.0.0.1:${t.etcd.clientPort}`);
  });
});
