import { CELCOIN, CelcoinAdapter } from '../celcoin/adapter.js';
import { member } from '../kit/registration.js';

/** CELCOIN (spec doc 2, group 2): the Cel_Cash (ex-Galax Pay) API, a bespoke adapter, see server/providers/celcoin/adapter.ts. */
export default member(CelcoinAdapter, CELCOIN);
