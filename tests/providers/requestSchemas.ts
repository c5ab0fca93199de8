import { expect } from '@jest/globals';
import type { z } from 'zod';
import type { PixKeyType } from '../../server/lib/pixKey.js';

/**
 * Issue 27 §1: a provider's request bodies are declared as schemas in its wire
 * section. These checks make the declaration mean something: what a mapper
 * builds must parse with its schema into itself (no field missing, none of the
 * wrong kind, none the schema does not declare), so a mapper that drifts from
 * its declared request fails a test.
 */
export function expectBodiesOf(schema: z.ZodType, bodies: readonly unknown[]): void {
  for (const body of bodies) expect(schema.parse(body)).toEqual(body);
}

/** One key of each PIX key type, masked as callers send them. */
export const PIX_KEY_SAMPLES: ReadonlyArray<readonly [pixType: PixKeyType, pixKey: string]> = [
  ['CPF', '123.456.789-09'],
  ['CNPJ', '11.222.333/0001-81'],
  ['EMAIL', 'ana@example.com'],
  ['PHONE', '(11) 98765-4321'],
  ['RANDOM', '123e4567-e12b-12d1-a456-426655440000'],
];
