import { F1_PLATFORM_DOCUMENTATION, startF1StandIn, type F1StandIn } from './f1Platform.js';

/**
 * HAWKPAY's stand-in: Hawkpay's API (api.hawkpaybrasil.com/v1) on the F1
 * platform, written from the platform's documentation (its other instances'
 * pages: f1Platform.ts) where it speaks, and for the rest from the platform's
 * public clients. Hawkpay publishes no documentation of its own (provider
 * research: one public integration, which gives the host and the Basic pair).
 * Hawkpay's own:
 * - Basic base64(publicKey:secretKey) on every call;
 * - charges and reads only (the specification gives Hawkpay no refund and no
 *   payout, doc 3 §7): the transfer routes are left out, so a call to them is
 *   a request with no route;
 * - statuses as the platform's instances write them: waiting_payment → paid,
 *   a declined card refused;
 * - postbacks in the platform's documented envelope `{id, type, objectId,
 *   url, data}`, unsigned.
 */
export const HAWKPAY_SOURCES = [
  ...F1_PLATFORM_DOCUMENTATION,
  'code index, file id 30005373996 (a Hawkpay integration: https://api.hawkpaybrasil.com/v1, Basic base64(publicKey:secretKey), POST /transactions, GET /transactions/{id})',
  'code index, file id 51919340613 (Pagnet, the same F1 platform: the read, pix{qrcode}, boleto{expirationDate} and its answer)',
] as const;

export interface HawkPayKeys {
  publicKey: string;
  secretKey: string;
}

export function startHawkPayStandIn(keys: HawkPayKeys): Promise<F1StandIn> {
  return startF1StandIn({
    name: 'HAWKPAY',
    sources: HAWKPAY_SOURCES,
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
