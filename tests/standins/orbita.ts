import { F1_PLATFORM_DOCUMENTATION, startF1StandIn, type F1StandIn } from './f1Platform.js';

/**
 * ORBITA's stand-in: Orbita's API (api.dashboard.orbitapay.com.br/v1) on the
 * F1 platform, written from the platform's documentation (its other
 * instances' pages: f1Platform.ts) where it speaks, and for the rest from the
 * platform's public clients. Orbita publishes no documentation of its own
 * (provider research: one public integration, which gives the host and the
 * Basic pair). Orbita's own:
 * - Basic base64(secretKey:apiKey) on every call, the API key being the
 *   account's public key;
 * - charges, reads and refunds by POST /transactions/{id}/refund (doc 3 §7);
 *   no payout: the transfer routes are left out;
 * - statuses waiting_payment → paid → refunded, a declined card refused;
 * - postbacks in the platform's documented envelope, unsigned.
 */
export const ORBITA_SOURCES = [
  ...F1_PLATFORM_DOCUMENTATION,
  'code index, file id 21391591926 (an Orbita integration: https://api.dashboard.orbitapay.com.br/v1, Basic base64(secretKey:apiKey), POST /v1/transactions)',
  'code index, file id 51919340613 (Pagnet, the same F1 platform: the read, pix{qrcode}, boleto{expirationDate}, refunds)',
] as const;

export function startOrbitaStandIn(keys: { publicKey: string; secretKey: string }): Promise<F1StandIn> {
  return startF1StandIn({
    name: 'ORBITA',
    sources: ORBITA_SOURCES,
    prefix: '/v1',
    basic: { user: keys.secretKey, password: keys.publicKey },
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
