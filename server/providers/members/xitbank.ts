import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { OWN_PATHS_GATEWAY } from '../families/transactionsApi/platforms/ownPaths.js';
import { member } from '../kit/registration.js';

/**
 * XITBANK, "XitBank" (spec doc 3, group 3), a member of the transactions API
 * family: create, read and refund on the family's paths (§7 shows none of its
 * own), PIX 1 day and boleto 3 days (§9), doc 3's common status pattern (§4);
 * no card tokens (§7 names its tokenising for PayRoyal, Payber and Pluggo
 * only) and no payout. No public material (provider research): the family's
 * dialect (`platforms/ownPaths.ts`), a placeholder host.
 */
export const XITBANK: TransactionsApiMember = {
  identity: { id: 'XITBANK', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.xitbank.com.br/v1' },
  ...OWN_PATHS_GATEWAY,
  evidence: { level: 'specification-only' },
  sources:
    "validity, statuses: spec (doc 3 §4/§9); create, read and refund paths, auth, bodies, postbacks, cents: the family's dialect (no public material found); host: placeholder",
};

export default member(TransactionsApiAdapter, XITBANK);
