import { invalidArgument } from '../lib/errors.js';
import { NEVER_SOFT_DECLINE_CODES, normalDeclineCode } from '../domain/routing.js';

const MAX_CODES = 50;
const CODE = /^[a-z0-9_.-]{1,64}$/;

/**
 * A route's soft-decline list as saved: lower-cased, trimmed, without repeats; INVALID_ARGUMENT naming the entry for
 * a malformed code or one that is never retried elsewhere (lost, stolen, fraud, other hard declines).
 */
export function checkedSoftDeclineCodes(codes: readonly string[] | undefined): string[] {
  const field = 'soft_decline_codes';
  if (!codes?.length) return [];
  if (codes.length > MAX_CODES) throw invalidArgument(field, `${field}: at most ${MAX_CODES} codes`, 'INVALID_VALUE');
  const normal = codes.map((code, index) => {
    const at = `${field}[${index}]`;
    const value = normalDeclineCode(code);
    if (!CODE.test(value)) throw invalidArgument(at, `${at} must be 1 to 64 letters, digits, '_', '-' or '.'`, 'INVALID_VALUE');
    if (NEVER_SOFT_DECLINE_CODES.has(value))
      throw invalidArgument(at, `${at}: ${value} is a hard or fraud decline, never retried at another account`, 'INVALID_VALUE');
    return value;
  });
  return [...new Set(normal)];
}
