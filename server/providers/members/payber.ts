import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { CARDS_TOKENIZE_THEN_SAVE, OWN_PATHS_GATEWAY } from '../families/transactionsApi/platforms/ownPaths.js';
import { member } from '../kit/registration.js';

/**
 * PAYBER (spec doc 3, group 3), a member of the transactions API family:
 * create, read and refund on the family's paths (§7 shows none of its own),
 * cards by POST /cards/tokenize then POST /cards (§7), PIX 1 day and boleto 3
 * days (§9), doc 3's common status pattern (§4); withdrawals reject with its
 * own 'Withdraw method not implemented' (§8). No public material (provider
 * research): the family's dialect (`platforms/ownPaths.ts`), a placeholder host.
 */
export const PAYBER: TransactionsApiMember = {
  identity: { id: 'PAYBER', specGroup: SPEC_GROUPS.DOC3_GROUP3, defaultBaseUrl: 'https://api.payber.com.br/v1' },
  ...OWN_PATHS_GATEWAY,
  ...CARDS_TOKENIZE_THEN_SAVE,
  notOffered: { withdraw: 'WITHDRAW_METHOD_NOT_IMPLEMENTED' },
  evidence: { level: 'specification-only' },
  sources:
    "card tokenise-then-save paths, 'Withdraw method not implemented', validity, statuses: spec (doc 3 §4/§7/§8/§9); create, read and refund paths, auth, bodies, postbacks, cents: the family's dialect (no public material found); host: placeholder",
};

export default member(TransactionsApiAdapter, PAYBER);
