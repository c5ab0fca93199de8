import { describe, expect, it } from '@jest/globals';
import { limitedText, requirePositiveCents, requireText } from '../../server/gateway/validation.js';
import { invalidArgument, isGatewayError } from '../../server/lib/errors.js';
import { errorDetails } from '../../server/transport/errors.js';

/** The details both transports would send for what `validate` throws. */
function sentFor(validate: () => unknown) {
  try {
    validate();
  } catch (error) {
    if (!isGatewayError(error)) throw error;
    return errorDetails(error.code, error.message, error.details);
  }
  throw new Error('the value was accepted');
}

describe('field rules on bad input (issue 33 §8)', () => {
  it('names the rule a shared helper refused as the field violation reason, beside the English description', () => {
    expect(sentFor(() => requireText('receiver.name', '  ')).badRequest).toEqual({
      fieldViolations: [{ field: 'receiver.name', description: 'receiver.name is required', reason: 'REQUIRED' }],
    });
    expect(sentFor(() => requirePositiveCents('amount', undefined)).badRequest?.fieldViolations[0]?.reason).toBe('REQUIRED');
    expect(sentFor(() => requirePositiveCents('amount', -5)).badRequest?.fieldViolations[0]?.reason).toBe('POSITIVE_CENTS');
    expect(sentFor(() => requirePositiveCents('amount', 1.5)).badRequest?.fieldViolations[0]?.reason).toBe('POSITIVE_CENTS');
  });

  it('sends the limit a too-long text broke, for the client text that quotes it', () => {
    const sent = sentFor(() => limitedText('note', 'x'.repeat(11), 10));
    expect(sent.badRequest?.fieldViolations[0]).toEqual({ field: 'note', description: 'note must be at most 10 characters', reason: 'TOO_LONG' });
    expect(sent.errorInfo).toMatchObject({ reason: 'INVALID_ARGUMENT', metadata: { field: 'note', maxLength: '10' } });
  });

  it('keeps the reason empty for an ad-hoc violation, whose description stays the only text', () => {
    const error = invalidArgument('page_size', 'page_size must be at most 100, got 101');
    expect(errorDetails(error.code, error.message, error.details).badRequest?.fieldViolations[0]?.reason).toBe('');
  });
});
