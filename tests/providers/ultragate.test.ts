import { ULTRAGATE } from '../../server/providers/members/ultragate.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(ULTRAGATE);
