import { MAKEYOURBANK, MakeYourBankAdapter } from '../makeyourbank/adapter.js';
import { member } from '../kit/registration.js';

/** MAKEYOURBANK (spec doc 3, group 3): a bespoke adapter, see server/providers/makeyourbank/adapter.ts. */
export default member(MakeYourBankAdapter, MAKEYOURBANK);
