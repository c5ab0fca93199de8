import { PAYUP } from '../../server/providers/members/payup.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(PAYUP);
