import { member } from '../kit/registration.js';
import { PRONTTUS, PronttusAdapter } from '../pronttus/adapter.js';

/** PRONTTUS (spec doc 2, group 2): a bespoke adapter, see server/providers/pronttus/adapter.ts. */
export default member(PronttusAdapter, PRONTTUS);
