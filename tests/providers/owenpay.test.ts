import { OWENPAY } from '../../server/providers/members/owenpay.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(OWENPAY);
