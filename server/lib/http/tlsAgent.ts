import { createHash } from 'node:crypto';
import { Agent } from 'node:https';
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

const agents = new Map<string, Agent>();

/**
 * One keep-alive https.Agent per client certificate and trust set, or undefined
 * when neither differs from Node's defaults. Node replaces its root store with
 * `ca`, so extra CAs are added to the system roots rather than given alone.
 */
export function httpsAgentFor(certificate: ClientCertificate | undefined, ca: readonly string[] = []): Agent | undefined {
  const authorities = [...new Set([...ca, ...extraAuthorities])];
  if (!certificate && authorities.length === 0) return undefined;
  const hash = createHash('sha256');
  if (certificate?.kind === 'pem') hash.update(certificate.cert).update(certificate.key);
  if (certificate?.kind === 'pkcs12') hash.update(certificate.pfx);
  hash.update(`\0${certificate?.passphrase ?? ''}\0`);
  authorities.forEach((authority) => hash.update(authority));
  const key = hash.digest('hex');
  let agent = agents.get(key);
  if (!agent) {
    const identity =
      certificate?.kind === 'pem'
        ? { cert: certificate.cert, key: certificate.key, passphrase: certificate.passphrase }
        : certificate?.kind === 'pkcs12'
          ? { pfx: certificate.pfx, passphrase: certificate.passphrase }
          : {};
    agent = new Agent({ keepAlive: true, ...identity, ...(authorities.length ? { ca: [...rootCertificates, ...authorities] } : {}) });
    agents.set(key, agent);
  }
  return agent;
}

/** Closes and forgets every agent (tests). */
export function clearHttpsAgents(): void {
  agents.forEach((agent) => agent.destroy());
  agents.clear();
}
