import { invalidArgument } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';

/** Keyset page tokens over (time, id), newest first: stable while new rows arrive. */
export const encodePageToken = (at: Date, id: string) => Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');

export function decodePageToken(token: string): { at: Date; id: string } | undefined {
  const [text, id] = Buffer.from(token, 'base64url').toString('utf8').split('|');
  const at = new Date(text ?? '');
  return id && isUuid(id) && !Number.isNaN(at.getTime()) ? { at, id } : undefined;
}

/** The position a page token names, or INVALID_ARGUMENT naming `page_token` (never a query with a malformed id). */
export function readPageToken(token: string | undefined): { at: Date; id: string } | undefined {
  if (!token) return undefined;
  const position = decodePageToken(token);
  if (!position)
    throw invalidArgument(
      'page_token',
      "page_token is not one this list answered: pass a response's next_page_token as it is, or none for the first page",
      'INVALID_PAGE_TOKEN',
    );
  return position;
}
