import { ABMEX } from '../../server/providers/members/abmex.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(ABMEX);
