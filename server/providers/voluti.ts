import { SECONDS_PER_DAY } from '../lib/expiry.js';
import { BacenPixAdapter, dictPaymentLookupPath, sellsRefundPath, type BacenPixHttpOverrides, type BacenPixMember } from './families/bacenPix.js';

/**
 * VOLUTI (spec doc 2, group 2): a member of the BACEN API Pix family. PIX
 * cash-in by cob, PIX withdrawals by /pix/payments/dict, refunds by POST
 * /sells/{id}/refund, RECEIVE/REFUND/CANCELED notifications. Cash-in needs the
 * platform's cash-in certificate, cash-out its cash-out certificate ('Unauthorized.'
 * otherwise, doc 2 §5/§8).
 *
 * Only what differs from the family:
 * - defaultBaseUrl: VOLUTI's API Pix host, where its integrations call POST
 *   /oauth/token and POST /cob with the client certificate. Accounts whose
 *   contract gives another host (e.g. a separate cash-out host) set base_url.
 * - The token request is JSON {grant_type, client_id, client_secret}, as VOLUTI's
 *   integrations send it, rather than the family's form + Basic default.
 * - PIX expiry 1 day (86400 s), doc 1 §9.
 * - A payout is PENDING at creation unless the answer says otherwise; its status
 *   is read back with GET /pix/payments/{endToEndId}.
 */
export const VOLUTI: BacenPixMember = {
  id: 'VOLUTI',
  specGroup: 'document 2 (group 2)',
  defaultBaseUrl: 'https://api.pix.voluti.com.br',
  pixExpirySeconds: SECONDS_PER_DAY,
  token: { body: 'json', clientAuth: 'body' },
  refund: { kind: 'post', path: sellsRefundPath },
  payout: { statusAtCreation: 'response', lookupPath: dictPaymentLookupPath },
};

export class VolutiAdapter extends BacenPixAdapter {
  constructor(overrides: BacenPixHttpOverrides = {}) {
    super(VOLUTI, overrides);
  }
}
