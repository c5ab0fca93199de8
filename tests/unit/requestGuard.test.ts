import { describe, expect, it } from '@jest/globals';
import { CreateTransactionRequestSchema, ProcessWebhookRequestSchema } from '../../gen/es/gateway/v1/payment_gateway_service_pb.js';
import { CreateServiceTokenRequestSchema } from '../../gen/es/gateway/v1/access_service_pb.js';
import { guardRequest } from '../../server/transport/requestGuard.js';

/**
 * The request guard names the field at fault as the contract spells it, at any depth: a top-level field, a nested
 * message's, a list's element, a map's key. (Its paths are built only when a request is refused, issue 31.)
 */
const refusal = (run: () => void): { message: string; field?: string } => {
  try {
    run();
  } catch (error) {
    const { message, details } = error as { message: string; details: { field?: string } };
    return { message, field: details.field };
  }
  throw new Error('the request was not refused');
};

const charge = (transaction: Record<string, unknown>, request: Record<string, unknown> = {}) =>
  guardRequest(CreateTransactionRequestSchema, { providerAccountId: 'acc', idempotencyKey: 'k', ...request, transaction: { amount: 100, ...transaction } });

describe('the request guard', () => {
  it('passes a request within the limits', () => {
    expect(() => charge({ customer: { name: 'Ana', email: 'ana@example.com' }, items: [{ title: 'Camiseta' }] })).not.toThrow();
  });

  it('names a top-level field', () => {
    expect(refusal(() => charge({}, { idempotencyKey: 'a\u0000b' }))).toEqual({
      message: 'idempotency_key must not contain NUL characters',
      field: 'idempotency_key',
    });
  });

  it("names a nested message's field", () => {
    expect(refusal(() => charge({ customer: { name: 'Ana', email: 'a\u0000' } }))).toEqual({
      message: 'transaction.customer.email must not contain NUL characters',
      field: 'transaction.customer.email',
    });
  });

  it("names a list's element", () => {
    expect(refusal(() => charge({ items: [{ title: 'ok' }, { title: 'b\u0000' }] }))).toEqual({
      message: 'transaction.items[1].title must not contain NUL characters',
      field: 'transaction.items[1].title',
    });
    expect(refusal(() => guardRequest(CreateServiceTokenRequestSchema, { name: 'n', scopes: ['payments:read', 'x\u0000'], providerAccountIds: [] }))).toEqual({
      message: 'scopes[1] must not contain NUL characters',
      field: 'scopes[1]',
    });
  });

  it("names a map's key and its value", () => {
    expect(refusal(() => guardRequest(ProcessWebhookRequestSchema, { providerAccountId: 'acc', headers: { 'x-a\u0000': 'v' } }))).toEqual({
      message: 'headers["x-a\\u0000"] must not contain NUL characters',
      field: 'headers["x-a\\u0000"]',
    });
    expect(refusal(() => guardRequest(ProcessWebhookRequestSchema, { providerAccountId: 'acc', headers: { 'x-b': 'v\u0000' } }))).toEqual({
      message: 'headers["x-b"] must not contain NUL characters',
      field: 'headers["x-b"]',
    });
  });
});
