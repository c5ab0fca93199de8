import { createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-web';
import { PaymentGatewayService } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { ProviderAccountService } from '../../gen/es/gateway/v1/provider_account_service_pb.js';

export interface GatewayClients {
  gateway: Client<typeof PaymentGatewayService>;
  providerAccounts: Client<typeof ProviderAccountService>;
}

/** Connect clients for the gateway that serves this page, authenticated with `token`. */
export function createGatewayClients(token: string): GatewayClients {
  const bearer: Interceptor = (next) => (req) => {
    req.header.set('authorization', `Bearer ${token}`);
    return next(req);
  };
  const transport = createConnectTransport({
    baseUrl: window.location.origin,
    interceptors: [bearer],
  });
  return {
    gateway: createClient(PaymentGatewayService, transport),
    providerAccounts: createClient(ProviderAccountService, transport),
  };
}
