import { ABMEXPAY } from '../../server/providers/members/abmexpay.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(ABMEXPAY);
