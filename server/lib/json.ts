import { idText, textOf } from './values.js';

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

/** The object an answer carries: the first of `wrappers` holding an object (`data`, `_body`, …), else the answer itself; undefined for a non-object. */
export function unwrapped(answer: unknown, wrappers: readonly string[]): Record<string, unknown> | undefined {
  if (!isRecord(answer)) return undefined;
  return wrappers.map((key) => answer[key]).find(isRecord) ?? answer;
}

/**
 * A provider's charge or payout out of an answer (bare or under one of
 * `wrappers`), with its id (the first of `idKeys` present) and its status as
 * text; undefined without them (the answer is not the resource).
 */
export function identifiedObject<T extends object>(
  answer: unknown,
  wrappers: readonly string[],
  idKeys: readonly string[] = ['id'],
): (T & { id: string; status: string }) | undefined {
  const object = unwrapped(answer, wrappers);
  const id = object && idKeys.map((key) => idText(object[key])).find(Boolean);
  const status = textOf(object?.status);
  return object && id && status ? ({ ...object, id, status } as T & { id: string; status: string }) : undefined;
}
