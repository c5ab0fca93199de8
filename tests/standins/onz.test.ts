import { ONZ } from '../../server/providers/members/onz.js';
import { bacenPixAcceptance, BACEN_PIX_SOURCES } from './bacenpix.js';

/**
 * ONZ's acceptance test (tests/standins/bacenpix.ts): the token asked
 * form-encoded with the client credentials in the body and answered
 * {accessToken, expiresAt} (the Onz Infopago v2 write-up), the API Pix's cob and
 * devolução (its accounts on api_version 'public'), payouts by
 * /pix/payments/dict at its own cash-out host (fixed in its declaration:
 * registered once more under a test id with that host pointed at the
 * stand-in) reported APPROVED at once (doc 3 §4), and the TRANSFER
 * notification of its white label's documentation, which cannot be confirmed
 * (no payout lookup in the spec), so the payout stays as created.
 */
bacenPixAcceptance({
  member: ONZ,
  standIn: { token: { body: 'form', answer: 'onz' } },
  evidence: Object.values(BACEN_PIX_SOURCES),
  apiVersion: 'public',
  payout: { atCreation: 'APPROVED', lookup: false, cashOutHost: { testId: 'ONZ_CASHOUT_STANDIN' } },
});
