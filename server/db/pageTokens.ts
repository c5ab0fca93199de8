/** Keyset page tokens over (time, id), newest first: stable while new rows arrive. */
export const encodePageToken = (at: Date, id: string) => Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');

export function decodePageToken(token: string): { at: Date; id: string } | undefined {
  const [text, id] = Buffer.from(token, 'base64url').toString('utf8').split('|');
  const at = new Date(text ?? '');
  return id && !Number.isNaN(at.getTime()) ? { at, id } : undefined;
}
