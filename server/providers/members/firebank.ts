import { FIREBANK, FirebankAdapter } from '../firebank/adapter.js';
import { member } from '../kit/registration.js';

/** FIREBANK (spec doc 2, group 1): Fire Banking on the Avista platform, see server/providers/firebank/adapter.ts. */
export default member(FirebankAdapter, FIREBANK);
