import { NEXTPAY, NextpayAdapter } from '../nextpay/adapter.js';
import { member } from '../kit/registration.js';

/** NEXTPAY (spec doc 2, group 2): a bespoke adapter, see server/providers/nextpay/adapter.ts. */
export default member(NextpayAdapter, NEXTPAY);
