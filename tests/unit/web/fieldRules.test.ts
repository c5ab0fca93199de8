import { readFileSync } from 'node:fs';
import { expect, it } from '@jest/globals';
import { Code, ConnectError } from '@connectrpc/connect';
import { create } from '@bufbuild/protobuf';
import { BadRequestSchema, ErrorInfoSchema } from '../../../gen/es/google/rpc/error_details_pb.js';
import { EN_FIELD_RULES, PT_FIELD_RULES } from '../../../web/src/errorReasons.js';
import { errorText, fieldViolations } from '../../../web/src/errorText.js';

/** Bad input as the gateway sends it: ErrorInfo INVALID_ARGUMENT (with `metadata`) and a BadRequest of `violations`. */
const badInput = (message: string, violations: { field: string; description: string; reason?: string }[], metadata: Record<string, string> = {}) =>
  new ConnectError(message, Code.InvalidArgument, undefined, [
    { desc: ErrorInfoSchema, value: create(ErrorInfoSchema, { reason: 'INVALID_ARGUMENT', metadata }) },
    { desc: BadRequestSchema, value: create(BadRequestSchema, { fieldViolations: violations }) },
  ]);

it("shows the rule a violation names in the UI's language beside the field, the limit filled from the metadata", () => {
  const missing = badInput('receiver.name is required', [{ field: 'receiver.name', description: 'receiver.name is required', reason: 'REQUIRED' }]);
  expect(fieldViolations(missing, PT_FIELD_RULES)).toEqual({ name: 'Obrigatório.' });
  expect(fieldViolations(missing, EN_FIELD_RULES)).toEqual({ name: 'Required.' });
  const long = badInput('note must be at most 1000 characters', [{ field: 'note', description: 'note must be at most 1000 characters', reason: 'TOO_LONG' }], {
    field: 'note',
    maxLength: '1000',
  });
  expect(fieldViolations(long, PT_FIELD_RULES)).toEqual({ note: 'No máximo 1000 caracteres.' });
});

it("keeps the gateway's description for a violation without a reason, or whose text lacks its value", () => {
  const adHoc = badInput('page_size must be at most 100, got 101', [{ field: 'page_size', description: 'page_size must be at most 100, got 101' }]);
  expect(fieldViolations(adHoc, PT_FIELD_RULES)).toEqual({ page_size: 'page_size must be at most 100, got 101' });
  const noLimit = badInput('note must be at most 10 characters', [{ field: 'note', description: 'note must be at most 10 characters', reason: 'TOO_LONG' }]);
  expect(fieldViolations(noLimit, PT_FIELD_RULES)).toEqual({ note: 'note must be at most 10 characters' });
});

it("says the rule in the alert after the field's path, and the gateway's message where no rule has a text", () => {
  const missing = badInput('receiver.name is required', [{ field: 'receiver.name', description: 'receiver.name is required', reason: 'REQUIRED' }]);
  expect(errorText(missing, {}, PT_FIELD_RULES)).toBe('receiver.name: Obrigatório.');
  expect(errorText(missing, {})).toBe('receiver.name is required');
  const adHoc = badInput('card is required', [{ field: 'card', description: 'card is required' }]);
  expect(errorText(adHoc, {}, PT_FIELD_RULES)).toBe('card is required');
});

it('has a text in both languages for every rule the gateway names (its FieldRule union)', () => {
  const union = /export type FieldRule =\s*([^;]+);/.exec(readFileSync(new URL('../../../server/lib/errors.ts', import.meta.url), 'utf8'))?.[1] ?? '';
  const rules = [...union.matchAll(/'([A-Z][A-Z0-9_]+)'/g)].map((match) => match[1]).sort();
  expect(rules.length).toBeGreaterThan(0);
  expect(Object.keys(PT_FIELD_RULES).sort()).toEqual(rules);
  expect(Object.keys(EN_FIELD_RULES).sort()).toEqual(rules);
});

it('fills the values the new rules quote from the metadata: the PIX key type, the limits', () => {
  const pix = badInput(
    'withdraw.pix_key is not a valid CPF PIX key',
    [{ field: 'withdraw.pix_key', description: 'withdraw.pix_key is not a valid CPF PIX key', reason: 'INVALID_PIX_KEY' }],
    { field: 'withdraw.pix_key', pixType: 'CPF' },
  );
  expect(fieldViolations(pix, PT_FIELD_RULES)).toEqual({ pix_key: 'Informe uma chave PIX válida do tipo CPF.' });
  expect(errorText(pix, {}, EN_FIELD_RULES)).toBe('withdraw.pix_key: Enter a valid PIX key of type CPF.');
  const page = badInput(
    'page_size must be at most 200, got 500',
    [{ field: 'page_size', description: 'page_size must be at most 200, got 500', reason: 'OUT_OF_RANGE' }],
    {
      field: 'page_size',
      min: '0',
      max: '200',
    },
  );
  expect(fieldViolations(page, PT_FIELD_RULES)).toEqual({ page_size: 'Informe um valor de 0 a 200.' });
  const email = badInput('email must be an e-mail address', [{ field: 'email', description: 'email must be an e-mail address', reason: 'INVALID_EMAIL' }]);
  expect(fieldViolations(email, PT_FIELD_RULES)).toEqual({ email: 'Informe um endereço de e-mail válido.' });
});
