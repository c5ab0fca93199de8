import { F1_PLATFORM_DOCUMENTATION, startF1StandIn, type F1StandIn } from './f1Platform.js';

/**
 * PAYSHARKGATEWAY's stand-in: PaySharkGateway's API
 * (api.paysharkgateway.com.br/v1) on the F1 platform. Its documentation
 * (app.paysharkgateway.com.br/docs, which its clients cite) could not be read;
 * the platform's (its other instances' pages, f1Platform.ts) shows the charge,
 * the transaction object and the postbacks, not refunds or transfers, which
 * come from the platform's public clients. PaySharkGateway's own:
 * - Basic base64(secretKey:), the password empty; `x-withdraw-key` on payouts;
 * - charge statuses pending → paid → refunded (refused for a declined card);
 *   transfers as the platform's (PENDING_QUEUE → COMPLETED);
 * - postbacks in the platform's documented envelope `{id, type, objectId, url, data}`, unsigned.
 */
export const PAYSHARKGATEWAY_SOURCES = [
  ...F1_PLATFORM_DOCUMENTATION,
  'code index, file id 55659127318 (a PaySharkGateway client: POST https://api.paysharkgateway.com.br/v1/transactions, Basic base64(secretKey:))',
  'code index, file id 54712553927 (a PaySharkGateway client citing https://app.paysharkgateway.com.br/docs/sales/create-sale)',
  'code index, file id 37004022758 (a PaySharkGateway client: Basic secretKey:, the transaction answer)',
  'code index, file id 139107352 (the F1 platform as PodPay runs it: POST /v1/transfers with x-withdraw-key, GET /v1/transfers/{id})',
  'code index, file id 51919340613 (Pagnet, the F1 platform: transaction answer, card{hash}, boleto{expirationDate}, postback {id, type, objectId, url, data})',
  'https://app.paysharkgateway.com.br/docs/sales/create-sale (cited by a client; not reachable from here)',
] as const;

export interface PaySharkKeys {
  secret: string;
  withdrawKey: string;
}

export function startPaySharkGatewayStandIn(keys: PaySharkKeys): Promise<F1StandIn> {
  return startF1StandIn({
    name: 'PAYSHARKGATEWAY',
    sources: PAYSHARKGATEWAY_SOURCES,
    prefix: '/v1',
    basic: { user: keys.secret, password: '' },
    withdrawKey: keys.withdrawKey,
    statuses: { waiting: 'pending', paid: 'paid', refused: 'refused', refunded: 'refunded', transferCreated: 'PENDING_QUEUE', transferDone: 'COMPLETED' },
  });
}
