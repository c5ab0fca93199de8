import { createHash, timingSafeEqual } from 'node:crypto';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Checks an `authorization: Bearer <token>` header against the configured tokens, in constant time. */
export function isAuthorized(header: string | undefined, tokens: readonly string[]): boolean {
  const token = /^Bearer\s+(.+)$/i.exec(header?.trim() ?? '')?.[1];
  if (!token) return false;
  const given = digest(token);
  return tokens.some((candidate) => timingSafeEqual(digest(candidate), given));
}

export const UNAUTHENTICATED_MESSAGE = 'missing or invalid authorization: send "authorization: Bearer <token>" with one of API_TOKENS';
