import { F1_PLATFORM_DOCUMENTATION, startF1StandIn, type F1StandIn } from './f1Platform.js';

/**
 * PAGNET's stand-in: Pagnet's API (api.pagnetbrasil.com/v1) on the F1
 * platform, written from the platform's documentation (its other instances'
 * pages: f1Platform.ts) where it speaks, and for the rest from the platform's
 * public clients. Pagnet publishes no documentation of its own (provider
 * research: a typed public integration, which gives the host, the Basic pair
 * and the card script serving `card.hash`). Pagnet's own:
 * - Basic base64(publicKey:secretKey) on every call;
 * - charges and reads only (the specification gives Pagnet no refund and no
 *   payout, doc 3 §7): the transfer routes are left out;
 * - statuses waiting_payment → paid, a declined card refused;
 * - postbacks in the platform's documented envelope `{id, type, objectId,
 *   url, data}`, unsigned.
 */
export const PAGNET_SOURCES = [
  ...F1_PLATFORM_DOCUMENTATION,
  'code index, file id 51919340613 (a typed Pagnet integration: https://api.pagnetbrasil.com/v1, Basic base64(publicKey:secretKey), POST /transactions with card{hash}, GET /transactions/{id}, statuses, postbacks)',
] as const;

export function startPagnetStandIn(keys: { publicKey: string; secretKey: string }): Promise<F1StandIn> {
  return startF1StandIn({
    name: 'PAGNET',
    sources: PAGNET_SOURCES,
    prefix: '/v1',
    basic: { user: keys.publicKey, password: keys.secretKey },
    statuses: {
      waiting: 'waiting_payment',
      paid: 'paid',
      refused: 'refused',
      refunded: 'refunded',
      transferCreated: 'PENDING_QUEUE',
      transferDone: 'COMPLETED',
    },
  });
}
