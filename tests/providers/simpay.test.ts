import { SIMPAY } from '../../server/providers/members/simpay.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(SIMPAY);
