import { ZENET } from '../../server/providers/members/zenet.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(ZENET);
