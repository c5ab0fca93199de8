import { TRANSFEERA, TransfeeraAdapter } from '../transfeera/adapter.js';
import { member } from '../kit/registration.js';

/** TRANSFEERA (spec doc 2, group 1): a bespoke adapter, see server/providers/transfeera/adapter.ts. */
export default member(TransfeeraAdapter, TRANSFEERA);
