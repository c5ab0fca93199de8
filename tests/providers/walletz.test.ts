import { WALLETZ } from '../../server/providers/members/walletz.js';
import { doc1CommonConformance } from './conformance/doc1Common.suite.js';

// Document 1 §9's "value of 8000 for one wallet provider": WALLETZ's PIX is valid 8000 seconds.
doc1CommonConformance(WALLETZ, { pixSeconds: 8000 });
