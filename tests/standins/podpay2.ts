import { F1_PLATFORM_DOCUMENTATION, startF1StandIn, type F1StandIn } from './f1Platform.js';

/**
 * PODPAY2's stand-in: PodPay's API (api.podpay.co/v1) on the F1 platform.
 * PodPay's own documentation (docs.podpay.co, which its clients cite) could
 * not be read; the platform's (its other instances' pages, f1Platform.ts)
 * shows the charge, the transaction object and the postbacks, not refunds or
 * transfers, which come from PodPay's public clients. PodPay's own:
 * - Basic base64(publicKey:secretKey); the withdraw key in `x-withdraw-key`;
 * - statuses: charges waiting_payment → paid → refunded; transfers
 *   PENDING_QUEUE → COMPLETED; a declined card `refused`;
 * - postbacks `{type: 'transaction' | 'withdraw', data: {…}}` as PodPay's
 *   integration reads them (the platform's envelope less its id, objectId
 *   and url), unsigned (PodPay allow-lists the addresses it posts from).
 */
export const PODPAY2_SOURCES = [
  ...F1_PLATFORM_DOCUMENTATION,
  'code index, file id 139107352 (a PodPay client: /v1/transactions, /v1/transfers, /v1/transfers/{id}, /v1/transfers/{id}/cancel, /v1/balance/available; error {error, message, statusCode})',
  'code index, file id 5743059820 (a PodPay integration: POST /v1/transactions, POST /v1/transfers {method fiat, amount, pixKey, pixKeyType, netPayout}, postbacks {type: transaction|withdraw, data})',
  'code index, file id 24241860790 (a PodPay client: refund POST /v1/transactions/{id}/refund {amount?}, transfer cancel with x-withdraw-key)',
  'code index, file id 51919340613 (Pagnet, the same F1 platform: transaction answer, statuses, card{hash}, boleto{expirationDate}, postback {id, type, objectId, url, data})',
  'https://docs.podpay.co (cited by the clients; not reachable from here)',
] as const;

export interface PodPayKeys {
  publicKey: string;
  secret: string;
  withdrawKey: string;
}

export function startPodPay2StandIn(keys: PodPayKeys): Promise<F1StandIn> {
  return startF1StandIn({
    name: 'PODPAY2',
    sources: PODPAY2_SOURCES,
    prefix: '/v1',
    basic: { user: keys.publicKey, password: keys.secret },
    withdrawKey: keys.withdrawKey,
    statuses: {
      waiting: 'waiting_payment',
      paid: 'paid',
      refused: 'refused',
      refunded: 'refunded',
      transferCreated: 'PENDING_QUEUE',
      transferDone: 'COMPLETED',
    },
    postback: (type, data) => ({ type, data }),
  });
}
