/**
 * npm run fleet [-- --api N --intake M --workers K --base-port P]: the gateway as a fleet on loopback (see
 * docs/operations.md (Fleet and failover)). Prints the addresses once everything is up; Ctrl-C stops it all.
 */
import { parseArgs } from 'node:util';
import { buildServer, serverStaleBecause } from './serverBuild.js';
import { startFleet } from './fleet/start.js';

const { values } = parseArgs({
  options: {
    api: { type: 'string', default: '2' },
    intake: { type: 'string', default: '2' },
    workers: { type: 'string', default: '2' },
    'base-port': { type: 'string', default: '26000' },
  },
});
const started = Date.now();
const log = (line: string) => console.log(line);
const root = new URL('..', import.meta.url).pathname;
const stale = serverStaleBecause(root);
if (stale) {
  log(`building the server (${stale})`);
  await buildServer(root);
}
const fleet = await startFleet({
  api: Number(values.api),
  intake: Number(values.intake),
  workers: Number(values.workers),
  basePort: Number(values['base-port']),
  log,
});
const leader = await fleet.leader();
const { addresses: a, topology: t } = fleet;
log(
  [
    '',
    `Fleet up in ${((Date.now() - started) / 1000).toFixed(1)} s (files and logs in ${t.dir})`,
    `  gRPC (HAProxy, h2c)          ${a.grpc}`,
    `  Connect + back-office        ${a.connect}`,
    `  Webhook intake               ${a.webhooks}/webhooks/{PROVIDER}/{providerAccountId}`,
    `  API token                    ${fleet.token}`,
    `  PostgreSQL primary (HAProxy) ${a.postgresPrimary}   (now ${leader?.name ?? 'none'})`,
    `  PostgreSQL replicas          ${a.postgresReplicas}`,
    `  PgBouncer (primary)          ${a.bouncerPrimary}`,
    `  HAProxy stats                ${a.haproxyStats}`,
    `  Sandbox PSP                  ${a.sandbox}`,
    `  Patroni REST                 ${t.nodes.map((node) => `${node.name} http://127.0.0.1:${node.restPort}`).join(', ')}`,
    `  Gateway processes            ${t.gateways.map((g) => `${g.name}${g.role === 'api' ? ` grpc ${g.grpcPort}/http ${g.httpPort}` : ` webhooks ${g.webhookPort}`}`).join(', ')}`,
    '',
    'Ctrl-C stops everything.',
  ].join('\n'),
);
let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log('stopping the fleet');
    void fleet.stop().then(() => process.exit(0));
  });
