import { createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-web';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ProviderAccountService } from '../../gen/es/gateway/v1/provider_account_service_pb.js';
import { AccessService } from '../../gen/es/gateway/v1/access_service_pb.js';

export interface GatewayClients {
  gateway: Client<typeof PaymentGatewayService>;
  providerAccounts: Client<typeof ProviderAccountService>;
  access: Client<typeof AccessService>;
}

/** The signed-in operator, as GET /auth/session and POST /auth/sign-in answer. */
export interface Session {
  operator: { id: string; email: string; role: string };
  csrfToken: string;
}

/**
 * Connect clients for the gateway that serves this page. The session cookie
 * (HttpOnly: this code never sees it) goes with every call by itself; the
 * CSRF token, held in memory only, goes in x-csrf-token.
 */
export function createGatewayClients(csrfToken: string): GatewayClients {
  const csrf: Interceptor = (next) => (req) => {
    req.header.set('x-csrf-token', csrfToken);
    return next(req);
  };
  const transport = createConnectTransport({ baseUrl: window.location.origin, interceptors: [csrf] });
  return {
    gateway: createClient(PaymentGatewayService, transport),
    providerAccounts: createClient(ProviderAccountService, transport),
    access: createClient(AccessService, transport),
  };
}

async function answer<T>(response: Response): Promise<T> {
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  if (!response.ok) throw new Error(body.message ?? `HTTP ${response.status}`);
  return body as T;
}

/** The current session, or null when not signed in. */
export async function currentSession(): Promise<Session | null> {
  const response = await fetch('/auth/session', { cache: 'no-store' });
  return response.status === 401 ? null : answer<Session>(response);
}

export async function signIn(email: string, password: string): Promise<Session> {
  return answer<Session>(
    await fetch('/auth/sign-in', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) }),
  );
}

export async function signOut(csrfToken: string): Promise<void> {
  await fetch('/auth/sign-out', { method: 'POST', headers: { 'x-csrf-token': csrfToken } });
}
