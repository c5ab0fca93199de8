import { member } from '../kit/registration.js';
import { VELTRAX, VeltraxAdapter } from '../veltrax/adapter.js';

/** VELTRAX (spec doc 3, group 3), also VEXYPAYMENTS (group 4, "the same provider as Veltrax"): one adapter, the alias in its identity. */
export default member(VeltraxAdapter, VELTRAX);
