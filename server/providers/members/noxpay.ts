import { NOXPAY, NoxpayAdapter } from '../noxpay/adapter.js';
import { member } from '../kit/registration.js';

/** NOXPAY (spec doc 2, group 1): a bespoke adapter, see server/providers/noxpay/adapter.ts. */
export default member(NoxpayAdapter, NOXPAY);
