import { PAGO } from '../../server/providers/members/pago.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(PAGO);
