/**
 * The provider HTTP toolkit: one factory for the adapters, and the pieces it is made of.
 *
 *   const HTTP: ProviderHttpDeclaration = {
 *     provider: 'VOLUTI',
 *     timeoutMs: 20_000,
 *     auth: { type: 'oauth2', tokenPath: '/oauth/token' },
 *     mtls: 'cashIn',
 *   };
 *   const { data } = await createProviderHttp({ ...HTTP, ctx }).post<Cob>('/cob', body, { errorPrefix: 'Erro ao criar transação' });
 */
export { resolveKey, type HttpAccount, type KeyRef } from './account.js';
export type { AuthStyle, OAuth2Auth } from './auth.js';
export { formBody, type FormFields, type FormValue } from './formBody.js';
export { providerError, providerMessage } from './providerError.js';
export { ProviderCallError } from './providerCallError.js';
export { redactForLog, redactText, withoutCredentialHeaders, withoutCredentialParams, REDACTED } from './redact.js';
export { trustCertificateAuthority, clearHttpsAgents } from './tlsAgent.js';
export { certificateExpiries, type CertificateExpiry } from './certificateExpiry.js';
export { clearClientCertificates, loadCertificatePem, missingCertificatePart, parseClientCertificate, type ClientCertificate } from './clientCertificate.js';
export { clearOAuth2Tokens } from './oauth2.js';
export { circuitStates, resetCircuitBreakers, type BreakerOptions, type CircuitReport, type CircuitStateName, type RetryOptions } from './resilience.js';
export {
  createProviderHttp,
  DEFAULT_PROVIDER_TIMEOUT_MS,
  type CertificateUse,
  type MtlsOptions,
  type ProviderHttp,
  type ProviderHttpDeclaration,
  type ProviderHttpOptions,
  type ProviderRequestOptions,
  type ProviderResponse,
} from './providerHttp.js';
