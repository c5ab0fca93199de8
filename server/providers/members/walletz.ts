import { SPEC_GROUPS } from '../adapter.js';
import { TransactionsApiAdapter, type TransactionsApiMember } from '../families/transactionsApi/index.js';
import { DOC1_COMMON_GATEWAY, DOC1_COMMON_SOURCES, WALLET_PIX_SECONDS } from '../families/transactionsApi/platforms/doc1Common.js';
import { member } from '../kit/registration.js';

/**
 * WALLETZ (spec doc 2, group 1): no public API was found (provider research), so
 * document 1 §7's closest family, the transactions API, with its common path
 * shapes (`platforms/doc1Common.ts`). Its PIX is valid 8000 seconds (document 1 §9: "a value of 8000 for one wallet provider"; WALLETZ is the group's wallet). Placeholder host; accounts set `base_url`.
 */
export const WALLETZ: TransactionsApiMember = {
  identity: { id: 'WALLETZ', specGroup: SPEC_GROUPS.DOC2_GROUP1, defaultBaseUrl: 'https://api.walletz.com.br/v1' },
  ...DOC1_COMMON_GATEWAY,
  expiry: { pixSeconds: WALLET_PIX_SECONDS },
  sources: `${DOC1_COMMON_SOURCES}; PIX validity 8000 s: spec (doc 1 §9, the wallet provider)`,
};

export default member(TransactionsApiAdapter, WALLETZ);
