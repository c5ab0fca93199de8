import { z } from 'zod';
import { ProviderCallError } from '../../lib/http/index.js';
import { unwrapped } from '../../lib/json.js';

/**
 * Provider bytes become our types here (DESIGN §3): every answer is parsed
 * once, by the schema its wire section declares, and a mismatch is the one
 * bad-answer failure (PROVIDER_BAD_RESPONSE, UNAVAILABLE, outcome unknown: the
 * request reached the provider, which may have acted). Schemas are zod's; the
 * types the mappers read are inferred from them.
 *
 * zod over valibot, measured on a transaction answer (Node 24, 2 cores): 86-105 ns
 * a parse against 363 ns for a valid answer, 881 against 441 ns for a refused one;
 * both far below the 0.05 ms a charge may spend (docs/decisions.md).
 */
export type AnswerSchema<T = unknown> = z.ZodType<T>;

/** Read an answer by its schema, or fail as a bad answer naming the first field at fault (never its value: it may be card data). */
export function parseAnswer<T>(schema: AnswerSchema<T>, answer: unknown): T {
  const parsed = schema.safeParse(answer);
  if (parsed.success) return parsed.data;
  throw new ProviderCallError('UNAVAILABLE', 'PROVIDER_BAD_RESPONSE', `resposta do provedor em formato inesperado (${describeIssue(parsed.error)})`);
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'resposta inválida';
  const where = issue.path.length ? issue.path.map(String).join('.') : 'corpo';
  return `${where}: ${issue.code === 'invalid_type' ? `esperado ${issue.expected}` : issue.code}`;
}

// ---------------------------------------------------------------- the leniency providers need, said once

/** An id as providers send it: a non-blank string or a finite number, read as trimmed text. */
export const wireId = z.union([z.string().trim().min(1), z.number().finite()]).transform(String);

/** A status as text (trimmed, non-blank): the status table's unknown rule applies to values it does not know. */
export const wireStatus = z.string().trim().min(1);

/** Money as a provider writes it, in its declared unit (cents or reais): a number or a decimal text; converted by the adapter. */
export const wireAmount = z.union([
  z.number().finite(),
  z
    .string()
    .trim()
    .regex(/^-?\d+(\.\d+)?$/),
]);

/** A non-blank text, trimmed. */
export const wireText = z.string().trim().min(1);

/** A field providers leave out, send as null or as an empty string: all three read as absent. */
export function absentable<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === null || value === '' ? undefined : value), schema.optional());
}

/** A fact beside the resource (an end-to-end id, a payer's name): absent unless a non-blank text, never a reason to refuse the answer. */
export const wireFact = absentable(wireText).catch(undefined);

/** An answer bare or under one of `wrappers` (the first that holds an object: lib/json.ts `unwrapped`), read by `schema`. */
export function unwrappedAnswer<T extends z.ZodType>(schema: T, wrappers: readonly string[] = ['data']) {
  return z.preprocess((answer) => unwrapped(answer, wrappers) ?? answer, schema);
}
