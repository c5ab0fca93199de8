import { SPACEFY } from '../../server/providers/members/spacefy.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

doc1CommonConformance(SPACEFY);
