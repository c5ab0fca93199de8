import { CRMCOIN, CrmcoinAdapter } from '../crmcoin/adapter.js';
import { member } from '../kit/registration.js';

/** CRMCOIN (spec doc 2, group 2): a bespoke adapter, see server/providers/crmcoin/adapter.ts. */
export default member(CrmcoinAdapter, CRMCOIN);
