import { member } from '../kit/registration.js';
import { WITETEC, WitetecAdapter } from '../witetec/adapter.js';

/** WITETEC (spec doc 3, group 3): a bespoke adapter, PIX and encrypted-card charges and PIX payouts, see server/providers/witetec/adapter.ts. */
export default member(WitetecAdapter, WITETEC);
