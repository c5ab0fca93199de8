import { RAPDYN, RapdynAdapter } from '../rapdyn/adapter.js';
import { member } from '../kit/registration.js';

/** RAPDYN (spec doc 3, group 3): a bespoke adapter, see server/providers/rapdyn/adapter.ts. */
export default member(RapdynAdapter, RAPDYN);
