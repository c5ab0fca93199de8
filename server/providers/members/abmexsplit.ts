import { ABMEXSPLIT, AbmexSplitAdapter } from '../abmexsplit/adapter.js';
import { member } from '../kit/registration.js';

/** ABMEXSPLIT (spec doc 2, group 2): a bespoke adapter, see server/providers/abmexsplit/adapter.ts. */
export default member(AbmexSplitAdapter, ABMEXSPLIT);
