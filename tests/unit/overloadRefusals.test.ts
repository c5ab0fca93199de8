import { expect, it } from '@jest/globals';
import { GatewayError } from '../../server/lib/errors.js';
import { InFlightLimit } from '../../server/transport/inFlightLimit.js';

/**
 * Under overload most calls are refused, so a refusal must cost little: it is made without a stack, which nobody
 * reads (a refusal is answered, never logged), and capturing one was a tenth of a refused call's own CPU.
 */
it('an overload refusal is a GatewayError with its code, text and retry delay but no stack frames; other errors keep theirs', () => {
  const limit = InFlightLimit.of(1)!;
  const release = limit.enter();
  try {
    const refusal = limit.refusal()!;
    expect(refusal).toBeInstanceOf(GatewayError);
    expect(refusal).toMatchObject({
      code: 'RESOURCE_EXHAUSTED',
      message: 'the gateway is answering 1 calls already; try again shortly',
      details: { reason: 'OVERLOADED', retryAfterMs: 200 },
    });
    expect(refusal.stack).not.toMatch(/\n\s+at /);
    expect(new GatewayError('INTERNAL', 'made after it').stack).toMatch(/\n\s+at /);
  } finally {
    release();
  }
  expect(limit.refusal()).toBeUndefined();
});
