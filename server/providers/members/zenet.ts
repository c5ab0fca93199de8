import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { DOC1_COMMON_GATEWAY, DOC1_COMMON_SOURCES } from '../families/transactionsApi/platforms/doc1Common.js';
import { member } from '../kit/registration.js';

/**
 * ZENET (spec doc 2, group 1): no public API was found (provider research), so
 * document 1 §7's closest family, the transactions API, with its common path
 * shapes (`platforms/doc1Common.ts`). Placeholder host; accounts set `base_url`.
 * Document 1 §8's "one provider's PIX withdrawal failures are only logged,
 * then 'Method not implemented.' is thrown" is given to ZENET (the provider is
 * not named; docs/decisions.md): the provider's words go to the log, the
 * caller gets that text with the failure's own code and outcome.
 */
export const ZENET: TransactionsApiMember = {
  identity: { id: 'ZENET', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.zenet.com.br/v1' },
  ...DOC1_COMMON_GATEWAY,
  failures: { withdraw: 'NOT_IMPLEMENTED' },
  sources: `${DOC1_COMMON_SOURCES}; a failed payout logged, then 'Method not implemented.': document 1 §8 (provider not named; attributed here by the gateway)`,
};

export default member(TransactionsApiAdapter, ZENET);
