import { REFLOW2, Reflow2Adapter } from '../reflow2/adapter.js';
import { member } from '../kit/registration.js';

/** REFLOW2 (spec doc 3, group 4): a bespoke adapter (ReflowPay's second API, not the cashtime family's REFLOWPAY), see server/providers/reflow2/adapter.ts. */
export default member(Reflow2Adapter, REFLOW2);
