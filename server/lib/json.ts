/** A JSON object (not an array, not null). */
export const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A body parsed as JSON, or undefined when it is not JSON: a provider's notification may be anything. */
export function parseJson(body: Buffer | string): unknown {
  try {
    return JSON.parse(typeof body === 'string' ? body : body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** A body parsed as a JSON object, or undefined for anything else (invalid JSON, an array, a bare value). */
export function parseJsonObject(body: Buffer | string): Record<string, unknown> | undefined {
  const parsed = parseJson(body);
  return isRecord(parsed) ? parsed : undefined;
}
