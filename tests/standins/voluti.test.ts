import { VOLUTI } from '../../server/providers/members/voluti.js';
import { bacenPixAcceptance, BACEN_PIX_SOURCES } from './bacenpix.js';

/**
 * VOLUTI's acceptance test (tests/standins/bacenpix.ts): its token asked as
 * JSON with the client credentials in the body (VOLUTI's integrations), the
 * API Pix's cob and devolução (its accounts on api_version 'public': the
 * specification's POST /sells/{id}/refund is in no public material), payouts
 * read back by GET /pix/payments/{id}.
 */
bacenPixAcceptance({
  member: VOLUTI,
  standIn: { token: { body: 'json', answer: 'oauth' } },
  evidence: Object.values(BACEN_PIX_SOURCES),
  apiVersion: 'public',
  payout: { atCreation: 'PENDING', lookup: true },
});
