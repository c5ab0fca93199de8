import { member } from '../kit/registration.js';
import { PAGSTAR, PagstarAdapter } from '../pagstar/adapter.js';

/** PAGSTAR (spec doc 2, group 1): Pagstar's partner wallet API, see server/providers/pagstar/adapter.ts. */
export default member(PagstarAdapter, PAGSTAR);
