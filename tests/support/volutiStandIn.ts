import { clearHttpsAgents, trustCertificateAuthority } from '../../server/lib/http/index.js';
import { startBacenPixStandIn, type BacenPixStandIn } from '../standins/bacenpix.js';
import { testCertificates, type TestCertificates } from './fakeProvider.js';

export interface VolutiMtlsStandIn {
  standIn: BacenPixStandIn;
  /** The throwaway PKI: the stand-in trusts its client certificate (CN 'platform-client'), this process its CA. */
  certificates: TestCertificates;
  close(): Promise<void>;
}

/**
 * The API Pix stand-in as VOLUTI (OAuth2 over mTLS with the platform's client certificate), for suites that give an
 * account its certificate: this process's provider clients (the gateway runs in it) trust its CA until `close`.
 */
export async function startVolutiMtlsStandIn(client: { clientId: string; clientSecret: string; chave: string }): Promise<VolutiMtlsStandIn> {
  const certificates = await testCertificates();
  const standIn = await startBacenPixStandIn({
    name: 'VOLUTI',
    ...client,
    token: { body: 'json', answer: 'oauth' },
    payouts: { idempotencyKey: /^[a-zA-Z0-9]{1,50}$/ },
    certificates,
  });
  const untrust = trustCertificateAuthority(certificates.ca);
  return {
    standIn,
    certificates,
    async close() {
      untrust();
      clearHttpsAgents();
      await standIn.close();
    },
  };
}
