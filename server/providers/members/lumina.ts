import { LUMINA, LuminaAdapter } from '../lumina/adapter.js';
import { member } from '../kit/registration.js';

/** LUMINA (spec doc 3, group 4): a bespoke adapter, see server/providers/lumina/adapter.ts. */
export default member(LuminaAdapter, LUMINA);
