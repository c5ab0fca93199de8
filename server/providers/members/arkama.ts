import { ARKAMA, ArkamaAdapter } from '../arkama/adapter.js';
import { member } from '../kit/registration.js';

/** ARKAMA (spec doc 2, group 1): a bespoke adapter, see server/providers/arkama/adapter.ts. */
export default member(ArkamaAdapter, ARKAMA);
