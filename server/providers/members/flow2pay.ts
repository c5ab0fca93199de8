import { FLOW2PAY, Flow2payAdapter } from '../flow2pay/adapter.js';
import { member } from '../kit/registration.js';

/** FLOW2PAY (spec doc 3, group 3): a bespoke adapter, see server/providers/flow2pay/adapter.ts. */
export default member(Flow2payAdapter, FLOW2PAY);
