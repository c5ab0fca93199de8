import { BMB, BmbAdapter } from '../bmb/adapter.js';
import { member } from '../kit/registration.js';

/** BMB (spec doc 2, group 2): a bespoke adapter, see server/providers/bmb/adapter.ts. */
export default member(BmbAdapter, BMB);
