import { expect, it } from '@jest/globals';
import { COLUMN_LIMITS, FIELD_LIMITS, MAX_ID_LENGTH } from '../../server/domain/limits.js';
import { ProviderAccountEntity, ReceiverEntity, TransactionEntity, WithdrawalEntity, IdempotencyKeyEntity } from '../../server/db/entities.js';

/** A string column's size as the entity declares it; MikroORM makes a string without a length varchar(255). */
const size = (entity: unknown, property: string): number => {
  const meta = (entity as { meta: { properties: Record<string, { length?: number }> } }).meta;
  const column = meta.properties[property];
  if (!column) throw new Error(`no property ${property}`);
  return column.length ?? 255;
};

it('the edge limits are the columns the values land in', () => {
  expect(COLUMN_LIMITS.currency).toBe(size(TransactionEntity, 'currency'));
  expect(COLUMN_LIMITS.provider).toBe(size(ProviderAccountEntity, 'provider'));
  expect(FIELD_LIMITS.currency).toBe(COLUMN_LIMITS.currency);
  expect(FIELD_LIMITS.provider).toBe(COLUMN_LIMITS.provider);
  for (const [entity, property] of [
    [TransactionEntity, 'orderId'],
    [TransactionEntity, 'idempotencyKey'],
    [TransactionEntity, 'providerTransactionId'],
    [WithdrawalEntity, 'idempotencyKey'],
    [ProviderAccountEntity, 'name'],
    [ProviderAccountEntity, 'platformId'],
    [ReceiverEntity, 'name'],
    [ReceiverEntity, 'email'],
    [ReceiverEntity, 'receiverId'],
    [IdempotencyKeyEntity, 'key'],
  ] as const) {
    expect([property, MAX_ID_LENGTH]).toEqual([property, size(entity, property)]);
  }
});
