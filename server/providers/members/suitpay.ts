import { SUITPAY, SuitpayAdapter } from '../suitpay/adapter.js';
import { member } from '../kit/registration.js';

/** SUITPAY (spec doc 2, group 1): a bespoke adapter, see server/providers/suitpay/adapter.ts. */
export default member(SuitpayAdapter, SUITPAY);
