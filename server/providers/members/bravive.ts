import { BRAVIVE, BraviveAdapter } from '../bravive/adapter.js';
import { member } from '../kit/registration.js';

/** BRAVIVE (spec doc 3, group 3): a bespoke adapter, see server/providers/bravive/adapter.ts. */
export default member(BraviveAdapter, BRAVIVE);
