import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { DOC1_COMMON_GATEWAY, DOC1_COMMON_SOURCES } from '../families/transactionsApi/platforms/doc1Common.js';
import { member } from '../kit/registration.js';

/**
 * VIATECH (spec doc 2, group 1): no public API was found (provider research), so
 * document 1 §7's closest family, the transactions API, with its common path
 * shapes (`platforms/doc1Common.ts`). Placeholder host; accounts set `base_url`.
 */
export const VIATECH: TransactionsApiMember = {
  identity: { id: 'VIATECH', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.viatech.com.br/v1' },
  ...DOC1_COMMON_GATEWAY,
  sources: DOC1_COMMON_SOURCES,
};

export default member(TransactionsApiAdapter, VIATECH);
