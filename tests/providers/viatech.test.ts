import { VIATECH } from '../../server/providers/members/viatech.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(VIATECH);
