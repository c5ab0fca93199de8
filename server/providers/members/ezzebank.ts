import { EZZEBANK, EzzebankAdapter } from '../ezzebank/adapter.js';
import { member } from '../kit/registration.js';

/** EZZEBANK (spec doc 2, group 1): a bespoke adapter, see server/providers/ezzebank/adapter.ts. */
export default member(EzzebankAdapter, EZZEBANK);
