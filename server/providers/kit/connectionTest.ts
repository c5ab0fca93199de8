import { randomUUID } from 'node:crypto';
import { GatewayError } from '../../lib/errors.js';
import type { AdapterContext, ProviderAdapter } from '../adapter.js';

/** What one harmless read at the provider proved about an account's credentials and address. */
export type ConnectionVerdict = 'OK' | 'CREDENTIALS_REFUSED' | 'UNREACHABLE' | 'INCONCLUSIVE';

export interface ConnectionTest {
  verdict: ConnectionVerdict;
  /** The verdict in Portuguese, for a reader. */
  message: string;
  /** What the provider (or the gateway, before sending) said, when the verdict is not OK. */
  detail?: string;
}

export const CONNECTION_MESSAGES: Record<ConnectionVerdict, string> = {
  OK: 'Conexão bem-sucedida: o provedor aceitou as credenciais da conta.',
  CREDENTIALS_REFUSED: 'O provedor recusou as credenciais da conta. Confira as chaves.',
  UNREACHABLE: 'Não foi possível falar com o provedor: o endereço não responde ou o provedor está fora do ar. Confira a URL base.',
  INCONCLUSIVE: 'O teste não foi conclusivo: o provedor respondeu de um jeito que não prova se aceitou as credenciais.',
};

/**
 * The read the test makes: the first the provider offers of a charge, a payout or a receiver, each asked for an id
 * that cannot exist. Reads never move money, and an id of the gateway's own making is never a real resource.
 */
function probeOf(adapter: ProviderAdapter): ((ctx: AdapterContext, id: string) => Promise<unknown>) | undefined {
  if (adapter.supports('getTransaction')) return (ctx, id) => adapter.getTransaction(ctx, id);
  if (adapter.supports('getWithdraw')) return (ctx, id) => adapter.getWithdraw(ctx, id);
  if (adapter.supports('getReceiver')) return (ctx, id) => adapter.getReceiver(ctx, id);
  return undefined;
}

/** No answer, a 5xx, a timeout or 429, or a circuit opened by earlier outages; an answer of the wrong shape is an answer. */
const UNREACHABLE_REASONS = new Set(['PROVIDER_UNAVAILABLE', 'PROVIDER_CIRCUIT_OPEN']);

const verdict = (verdict: ConnectionVerdict, detail?: string): ConnectionTest => ({
  verdict,
  message: CONNECTION_MESSAGES[verdict],
  ...(detail ? { detail } : {}),
});

/**
 * The one rule for "Testar conexão": providers authenticate a request before they look the resource up, so a read of
 * an id that cannot exist answers 404 (NOT_FOUND) only when the credentials were accepted, and 401/403 when they were
 * not. A token exchange (OAuth2 providers) happens inside the read and is judged the same way. No answer, a 5xx, a
 * timeout or 429 is the address or the provider at fault. Anything else (a 400, an answer of an unexpected shape, a
 * configuration the gateway refuses before sending, a provider with no read) proves nothing either way.
 */
export async function testConnection(adapter: ProviderAdapter, ctx: AdapterContext): Promise<ConnectionTest> {
  const probe = probeOf(adapter);
  if (!probe) return verdict('INCONCLUSIVE', `${adapter.identity.id} offers no read the gateway can test with`);
  try {
    await probe(ctx, `gateway-connection-test-${randomUUID()}`);
    return verdict('OK');
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    if (error.code === 'NOT_FOUND') return verdict('OK');
    if (error.details.reason === 'PROVIDER_REJECTED_CREDENTIALS') return verdict('CREDENTIALS_REFUSED', error.message);
    if (error.details.reason && UNREACHABLE_REASONS.has(error.details.reason)) return verdict('UNREACHABLE', error.message);
    return verdict('INCONCLUSIVE', error.message);
  }
}
