import { AKTAPAY } from '../../server/providers/members/aktapay.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(AKTAPAY);
