import { TREEAL } from '../../server/providers/members/treeal.js';
import { bacenPixAcceptance, BACEN_PIX_SOURCES } from './bacenpix.js';

/**
 * TREEAL's acceptance test (tests/standins/bacenpix.ts): its token asked
 * form-encoded with the client credentials in the body, POST /cob answered with
 * {status, txid, pixCopiaECola} only, a paid cob notified as {data: {txId,
 * status}} without an event type (Treeal's integrations); refunds by the API
 * Pix's devolução (its integrations' `refund_nature ORIGINAL`, the
 * specification's default for TREEAL), of which it sends no notification, so
 * the returned Pix is read with GET /cob; payouts read back by GET /pix/payments/{id}.
 */
bacenPixAcceptance({
  member: TREEAL,
  standIn: { token: { body: 'form', answer: 'oauth' }, cobAnswer: 'brief', receiveEvent: 'untyped' },
  evidence: Object.values(BACEN_PIX_SOURCES),
  payout: { atCreation: 'PENDING', lookup: true },
});
