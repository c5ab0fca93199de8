import { PODPAY } from '../../server/providers/members/podpay.js';
import { bacenPixAcceptance } from './bacenpix.js';

/**
 * PODPAY's (the BACEN-style variant's) run against the family's stand-in
 * (tests/standins/bacenpix.ts): the API Pix's cob and devolução (its accounts on
 * api_version 'public'), the form token and the dict payout reported APPROVED
 * at once (doc 3 §4) with its TRANSFER notification, which cannot be confirmed
 * (the spec gives Podpay no payout lookup), so the payout stays as created. No
 * public material of this variant exists: the member declares third-party
 * evidence (the platform is only inferred), never documented or platform.
 */
bacenPixAcceptance({
  member: PODPAY,
  standIn: { token: { body: 'form', answer: 'oauth' } },
  apiVersion: 'public',
  payout: { atCreation: 'APPROVED', lookup: false },
});
