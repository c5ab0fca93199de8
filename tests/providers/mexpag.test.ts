import { MEXPAG } from '../../server/providers/members/mexpag.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(MEXPAG);
