import { SYNCPAY, SyncpayAdapter } from '../syncpay/adapter.js';
import { member } from '../kit/registration.js';

/** SYNCPAY (spec doc 3, group 3): a bespoke adapter, see server/providers/syncpay/adapter.ts. */
export default member(SyncpayAdapter, SYNCPAY);
