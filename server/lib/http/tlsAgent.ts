import { createHash } from 'node:crypto';
import { Agent as PlainAgent, type ClientRequest } from 'node:http';
import { Agent } from 'node:https';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { rootCertificates } from 'node:tls';
import type { ClientCertificate } from './clientCertificate.js';

/**
 * CAs trusted beyond the system's, for every provider client of this process:
 * how a test makes adapters trust its fake provider's throwaway CA without
 * NODE_EXTRA_CA_CERTS (read only at start-up), and how a provider with a
 * private CA could be trusted. Returns a function that removes it again.
 */
const extraAuthorities = new Set<string>();

export function trustCertificateAuthority(pem: string): () => void {
  extraAuthorities.add(pem);
  return () => {
    extraAuthorities.delete(pem);
  };
}

/**
 * The TCP keep-alive delay of every provider connection. axios sets TCP keep-alive with a 60 s delay on the socket
 * of each request it sends, and a keep-alive agent sets it again, with its own delay (Node's default: 1 s), when
 * the request ends and the socket goes back to the pool. With two delays every exchange changed the socket's option
 * twice, two system calls that took 2 % of the gateway's CPU under the charge bench; Node skips the call when the
 * delay is the one already set.
 */
export const KEEP_ALIVE_DELAY_MS = 60_000;

/**
 * How long a pooled connection may sit idle before the agent closes it. Node's agent heeds a server's
 * `Keep-Alive: timeout=N` (closing the socket a second before the server would) only when the agent has a timeout of
 * its own: without one it kept idle sockets until the provider closed them, and a busy process could send a charge on
 * a connection the provider had just closed (ECONNRESET; writes are never retried). Without a hint, this bounds the
 * idle time below the usual server-side limits (60-75 s).
 */
export const IDLE_SOCKET_MS = 30_000;

/**
 * Makes an agent's sockets time out only while they wait idle in the pool (IDLE_SOCKET_MS, or a second before the
 * server's own `Keep-Alive: timeout` hint). Given as the agent's `timeout` option, the same timer also ran on every
 * socket in use and was re-armed on each read and write: about 0.08 ms of CPU per charge on the charge bench (x32:
 * 0.78 against 0.69 ms). Node reads `options.timeout` when it returns a socket to the pool (`keepSocketAlive`, which
 * also applies the server's hint), so it is set just for that moment, and the timer is cleared when the pool hands
 * the socket to the next request.
 */
function closingIdleSockets<T extends PlainAgent>(agent: T): T {
  const options = (agent as unknown as { options: { timeout?: number } }).options;
  // Node's keepSocketAlive answers whether the socket may be kept (false when the server's hint is too short to reuse it).
  const keepSocketAlive = agent.keepSocketAlive.bind(agent) as unknown as (socket: Duplex) => boolean;
  const reuseSocket = agent.reuseSocket.bind(agent);
  Object.assign(agent, {
    keepSocketAlive(socket: Duplex): boolean {
      options.timeout = IDLE_SOCKET_MS;
      try {
        return keepSocketAlive(socket);
      } finally {
        delete options.timeout;
      }
    },
    reuseSocket(socket: Duplex, request: ClientRequest): void {
      (socket as Socket).setTimeout(0);
      reuseSocket(socket, request);
    },
  });
  return agent;
}

const agents = new Map<string, Agent>();
let plainAgent: PlainAgent | undefined;

/** The keep-alive agent of providers reached over plain HTTP (fakes on loopback, a sandbox). */
export function httpAgent(): PlainAgent {
  return (plainAgent ??= closingIdleSockets(new PlainAgent({ keepAlive: true, keepAliveMsecs: KEEP_ALIVE_DELAY_MS })));
}

/** What tells one agent's identity and trust from another's. */
function fingerprint(certificate: ClientCertificate | undefined, authorities: readonly string[]): string {
  const hash = createHash('sha256');
  if (certificate?.kind === 'pem') hash.update(certificate.cert).update(certificate.key);
  if (certificate?.kind === 'pkcs12') hash.update(certificate.pfx);
  hash.update(`\0${certificate?.passphrase ?? ''}\0`);
  authorities.forEach((authority) => hash.update(authority));
  return hash.digest('hex');
}

/**
 * One keep-alive https.Agent per client certificate and trust set (one for neither). Node replaces its root store
 * with `ca`, so extra CAs are added to the system roots rather than given alone.
 */
export function httpsAgentFor(certificate: ClientCertificate | undefined, ca: readonly string[] = []): Agent {
  const authorities = [...new Set([...ca, ...extraAuthorities])];
  // Most providers need neither: their agent is found without hashing anything on each call.
  const key = certificate || authorities.length > 0 ? fingerprint(certificate, authorities) : '';
  let agent = agents.get(key);
  if (!agent) {
    const identity =
      certificate?.kind === 'pem'
        ? { cert: certificate.cert, key: certificate.key, passphrase: certificate.passphrase }
        : certificate?.kind === 'pkcs12'
          ? { pfx: certificate.pfx, passphrase: certificate.passphrase }
          : {};
    agent = closingIdleSockets(
      new Agent({
        keepAlive: true,
        keepAliveMsecs: KEEP_ALIVE_DELAY_MS,
        ...identity,
        ...(authorities.length ? { ca: [...rootCertificates, ...authorities] } : {}),
      }),
    );
    agents.set(key, agent);
  }
  return agent;
}

/** Closes and forgets every agent (tests). */
export function clearHttpsAgents(): void {
  agents.forEach((agent) => agent.destroy());
  agents.clear();
  plainAgent?.destroy();
  plainAgent = undefined;
}
