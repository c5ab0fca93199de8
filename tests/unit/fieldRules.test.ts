import { describe, expect, it } from '@jest/globals';
import { readPageToken } from '../../server/db/pageTokens.js';
import {
  invalidValue,
  limitedText,
  notAllowed,
  optionalUrl,
  requireDocument,
  requireEmail,
  requireInRange,
  requireLength,
  requireOneOf,
  requireOrderedRange,
  requirePageSize,
  requirePixKey,
  requirePositiveCents,
  requireText,
  requireUuid,
  unknownValue,
} from '../../server/gateway/validation.js';
import { isGatewayError } from '../../server/lib/errors.js';
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

  it('refuses a malformed id, e-mail, PIX key and CPF/CNPJ with their rules, keeping the English message', () => {
    const id = sentFor(() => requireUuid('provider_account_id', 'acct-1'));
    expect(id.badRequest?.fieldViolations[0]).toEqual({
      field: 'provider_account_id',
      description: 'provider_account_id must be a UUID',
      reason: 'INVALID_ID',
    });
    expect(requireUuid('id', '0b8a4c9e-8f2a-4a53-9a36-3f1c2b7d5e10')).toBe('0b8a4c9e-8f2a-4a53-9a36-3f1c2b7d5e10');

    const email = sentFor(() => requireEmail('receiver.email', 'ana.example.com'));
    expect(email.badRequest?.fieldViolations[0]).toEqual({
      field: 'receiver.email',
      description: 'receiver.email must be an e-mail address',
      reason: 'INVALID_EMAIL',
    });
    expect(requireEmail('email', '  ana@example.com ')).toBe('ana@example.com');
    expect(sentFor(() => requireEmail('email', 'a b@example.com')).badRequest?.fieldViolations[0]?.reason).toBe('INVALID_EMAIL');

    const pix = sentFor(() => requirePixKey('withdraw.pix_key', '123.456.789-00', 'CPF'));
    expect(pix.badRequest?.fieldViolations[0]).toEqual({
      field: 'withdraw.pix_key',
      description: 'withdraw.pix_key is not a valid CPF PIX key',
      reason: 'INVALID_PIX_KEY',
    });
    expect(pix.errorInfo.metadata).toMatchObject({ field: 'withdraw.pix_key', pixType: 'CPF' });
    // The type inferred from the key's shape when the request names none; a valid key of another type is refused.
    expect(sentFor(() => requirePixKey('pix_key', 'ana@')).errorInfo.metadata).toMatchObject({ pixType: 'EMAIL' });
    expect(sentFor(() => requirePixKey('pix_key', 'ana@example.com', 'PHONE')).badRequest?.fieldViolations[0]?.reason).toBe('INVALID_PIX_KEY');
    expect(requirePixKey('pix_key', ' 529.982.247-25 ', 'CPF')).toBe('529.982.247-25');
    expect(requirePixKey('pix_key', 'ana@example.com')).toBe('ana@example.com');

    const document = sentFor(() => requireDocument('customer.document', '529.982.247-26'));
    expect(document.badRequest?.fieldViolations[0]).toEqual({
      field: 'customer.document',
      description: 'customer.document must be a valid CPF or CNPJ',
      reason: 'INVALID_DOCUMENT',
    });
    expect(requireDocument('document', '529.982.247-25')).toBe('529.982.247-25');
    expect(requireDocument('document', '11.222.333/0001-81')).toBe('11.222.333/0001-81');
  });

  it('refuses an unknown enum value, a URL that is not http(s) and a value outside its range, sending the limits', () => {
    expect(requireOneOf('content_type', 'image/png', ['application/pdf', 'image/png'])).toBe('image/png');
    expect(sentFor(() => requireOneOf('content_type', 'text/html', ['application/pdf', 'image/png'])).badRequest?.fieldViolations[0]).toEqual({
      field: 'content_type',
      description: 'content_type must be one of application/pdf, image/png',
      reason: 'UNKNOWN_VALUE',
    });
    expect(sentFor(() => requireOneOf('status', undefined, ['OPEN'])).badRequest?.fieldViolations[0]?.reason).toBe('UNKNOWN_VALUE');

    expect(sentFor(() => optionalUrl('webhook_url', 'ftp://example.com/x')).badRequest?.fieldViolations[0]).toEqual({
      field: 'webhook_url',
      description: 'webhook_url must be an http(s) URL',
      reason: 'INVALID_URL',
    });
    expect(optionalUrl('webhook_url', 'https://example.com/x')).toBe('https://example.com/x');

    const range = sentFor(() => requireInRange('size_bytes', 0, 1, 10));
    expect(range.badRequest?.fieldViolations[0]).toEqual({ field: 'size_bytes', description: 'size_bytes must be from 1 to 10', reason: 'OUT_OF_RANGE' });
    expect(range.errorInfo.metadata).toEqual({ field: 'size_bytes', min: '1', max: '10' });
    expect(sentFor(() => requireInRange('n', 1.5, 1, 10)).badRequest?.fieldViolations[0]?.reason).toBe('OUT_OF_RANGE');
    expect(requireInRange('n', 10, 1, 10)).toBe(10);

    const page = sentFor(() => requirePageSize('page_size', 101, 100));
    expect(page.badRequest?.fieldViolations[0]).toEqual({ field: 'page_size', description: 'page_size must be from 0 to 100', reason: 'OUT_OF_RANGE' });
    expect(page.errorInfo.metadata).toMatchObject({ min: '0', max: '100' });
    expect(requirePageSize('page_size', 0, 100)).toBe(0);

    const length = sentFor(() => requireLength('password', 'short', 12, 256, 'password must be 12 to 256 characters long'));
    expect(length.badRequest?.fieldViolations[0]?.reason).toBe('LENGTH_OUT_OF_RANGE');
    expect(length.errorInfo.metadata).toMatchObject({ minLength: '12', maxLength: '256' });
  });

  it('refuses a range that ends before it begins; a one-point range only where it may be one', () => {
    const reversed = sentFor(() => requireOrderedRange('created_to', 20, 10, 'created_to must be after created_from'));
    expect(reversed.badRequest?.fieldViolations[0]).toEqual({
      field: 'created_to',
      description: 'created_to must be after created_from',
      reason: 'RANGE_REVERSED',
    });
    expect(sentFor(() => requireOrderedRange('to', '2026-01-02', '2026-01-02', 'to must be after from')).badRequest?.fieldViolations[0]?.reason).toBe(
      'RANGE_REVERSED',
    );
    expect(() => requireOrderedRange('to_day', 0, 0, 'to_day must not be before from_day', true)).not.toThrow();
    expect(() => requireOrderedRange('to', 10, undefined, 'to must be after from')).not.toThrow();
    expect(() => requireOrderedRange('to', 10, 11, 'to must be after from')).not.toThrow();
  });

  it('names the nearest general rule of a one-off check, and reads a page token the list did not answer as such', () => {
    expect(
      sentFor(() => {
        throw notAllowed('route', 'set either provider_account_id or route, not both');
      }).badRequest?.fieldViolations[0]?.reason,
    ).toBe('NOT_ALLOWED');
    expect(
      sentFor(() => {
        throw invalidValue('card.exp_year', 'the card has expired');
      }).badRequest?.fieldViolations[0],
    ).toEqual({
      field: 'card.exp_year',
      description: 'the card has expired',
      reason: 'INVALID_VALUE',
    });
    expect(
      sentFor(() => {
        throw unknownValue('role', 'role must be admin, operator or viewer');
      }).badRequest?.fieldViolations[0]?.reason,
    ).toBe('UNKNOWN_VALUE');
    expect(sentFor(() => readPageToken('not-a-token')).badRequest?.fieldViolations[0]?.reason).toBe('INVALID_PAGE_TOKEN');
  });
});
