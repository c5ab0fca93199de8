import { OWEMPAY, OwempayAdapter } from '../owempay/adapter.js';
import { member } from '../kit/registration.js';

/** OWEMPAY (spec doc 3, group 3): a bespoke adapter, see server/providers/owempay/adapter.ts. */
export default member(OwempayAdapter, OWEMPAY);
