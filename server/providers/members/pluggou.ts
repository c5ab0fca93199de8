import { PLUGGOU, PluggouAdapter } from '../pluggou/adapter.js';
import { member } from '../kit/registration.js';

/** PLUGGOU (spec doc 3, group 3): a bespoke adapter, see server/providers/pluggou/adapter.ts. */
export default member(PluggouAdapter, PLUGGOU);
