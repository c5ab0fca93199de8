import { member } from '../kit/registration.js';
import { LEXXEN, LexxenAdapter } from '../lexxen/adapter.js';

/** LEXXEN (spec doc 3, group 3): a bespoke adapter, PIX payouts only, see server/providers/lexxen/adapter.ts. */
export default member(LexxenAdapter, LEXXEN);
