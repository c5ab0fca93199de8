import { AMEII } from '../../server/providers/members/ameii.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(AMEII);
