import { ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { FIELD_LIMITS, MAX_EVENT_ID, MAX_ID_LENGTH } from '../domain/limits.js';
import { invalidArgument, type FieldRule } from '../lib/errors.js';
import { isUuid } from '../lib/ids.js';

/**
 * Checks a request (in the handlers' plain shape) against the contract's
 * limits before anything acts on it, for both transports alike: no NUL
 * characters (PostgreSQL text cannot hold them), strings within their column's
 * size (server/domain/limits.ts), UUIDs where a filter compares with a uuid
 * column, page sizes not negative, WatchEvents cursors within bigint. The
 * error names the field as the contract spells it (`transaction.order_id`).
 */

/** Filters compared with uuid columns, by message and field. */
const UUID_FILTERS: Readonly<Record<string, readonly string[]>> = {
  'gateway.v1.ListWebhookNotificationsRequest': ['provider_account_id', 'subject_id'],
  'gateway.v1.ListOutboundDeliveriesRequest': ['transaction_id'],
  'gateway.v1.ResendOutboundDeliveryRequest': ['id'],
  'gateway.v1.ResendOutboundDeliveriesRequest': ['ids'],
  'gateway.v1.WatchEventsRequest': ['provider_account_ids'],
  'gateway.v1.ListUnconfirmedRequestsRequest': ['provider_account_id'],
  'gateway.v1.ListFlowMismatchesRequest': ['provider_account_id', 'subject_id'],
  'gateway.v1.ListTransactionsRequest': ['provider_account_id'],
  'gateway.v1.ListWithdrawalsRequest': ['provider_account_id'],
  'gateway.v1.ListReceiversRequest': ['provider_account_id'],
  'gateway.v1.GetTransactionStatsRequest': ['provider_account_id'],
  'gateway.v1.SettleUnconfirmedRequestRequest': ['id'],
  'gateway.v1.SettleFlowMismatchRequest': ['id'],
};

/** Of those, the ones a request cannot leave empty. */
const REQUIRED_UUIDS: Readonly<Record<string, readonly string[]>> = {
  'gateway.v1.ResendOutboundDeliveryRequest': ['id'],
  'gateway.v1.SettleUnconfirmedRequestRequest': ['id'],
  'gateway.v1.SettleFlowMismatchRequest': ['id'],
};

const INTEGER = new Set([ScalarType.INT32, ScalarType.SINT32, ScalarType.SFIXED32, ScalarType.INT64, ScalarType.SINT64, ScalarType.SFIXED64]);

/**
 * A field's path as the contract spells it (`transaction.order_id`). Built only for an error or a nested message's
 * prefix: a path string for every field of every request was the guard's garbage (about 2 % of a charge's).
 */
const pathOf = (prefix: string, name: string): string => (prefix ? `${prefix}.${name}` : name);

/** INVALID_ARGUMENT naming the field, `<path> <problem>`, and the rule broken. */
function refused(prefix: string, name: string, problem: string, rule: FieldRule, values?: Readonly<Record<string, string>>) {
  const path = pathOf(prefix, name);
  return invalidArgument(path, `${path} ${problem}`, rule, values);
}

function checkText(prefix: string, name: string, field: DescField, parent: DescMessage, value: string): void {
  if (value.includes('\u0000')) throw refused(prefix, name, `must not contain NUL characters`, 'INVALID_VALUE');
  const limit = FIELD_LIMITS[field.name] ?? MAX_ID_LENGTH;
  if (value.length > limit) throw refused(prefix, name, `is longer than ${limit} characters`, 'TOO_LONG', { maxLength: String(limit) });
  if (!value && REQUIRED_UUIDS[parent.typeName]?.includes(field.name)) throw refused(prefix, name, `is required`, 'REQUIRED');
  if (value && UUID_FILTERS[parent.typeName]?.includes(field.name) && !isUuid(value))
    throw refused(prefix, name, `must be a UUID, got ${JSON.stringify(value.slice(0, 64))}`, 'INVALID_ID');
  if (field.name === 'after_event_id' && value && (!/^\d+$/.test(value) || BigInt(value) > MAX_EVENT_ID))
    throw refused(prefix, name, `must be an event id: a whole number up to ${MAX_EVENT_ID}`, 'INVALID_VALUE');
}

function checkScalar(prefix: string, name: string, field: DescField, parent: DescMessage, type: ScalarType, value: unknown): void {
  if (typeof value === 'string') checkText(prefix, name, field, parent, value);
  else if (typeof value === 'number' && INTEGER.has(type) && field.name === 'page_size' && value < 0)
    throw refused(prefix, name, `must not be negative`, 'INVALID_VALUE');
}

function checkMessage(desc: DescMessage, value: any, prefix: string): void {
  if (value === undefined || value === null || desc.typeName.startsWith('google.protobuf.')) return;
  for (const field of desc.fields) {
    const item = value[field.localName];
    if (item === undefined || item === null) continue;
    switch (field.fieldKind) {
      case 'scalar':
        checkScalar(prefix, field.name, field, desc, field.scalar, item);
        break;
      case 'message':
        checkMessage(field.message, item, pathOf(prefix, field.name));
        break;
      case 'list':
        (item as unknown[]).forEach((element, index) => {
          if (field.listKind === 'message') checkMessage(field.message, element, `${pathOf(prefix, field.name)}[${index}]`);
          else if (field.listKind === 'scalar') checkScalar(prefix, `${field.name}[${index}]`, field, desc, field.scalar, element);
        });
        break;
      case 'map': {
        const path = pathOf(prefix, field.name);
        for (const [key, element] of Object.entries(item as Record<string, unknown>)) {
          const keyName = `${field.name}[${JSON.stringify(key.slice(0, 64))}]`;
          checkText(prefix, keyName, field, desc, key);
          if (field.mapKind === 'message') checkMessage(field.message, element, `${path}.${key}`);
          else if (field.mapKind === 'scalar') checkScalar(prefix, keyName, field, desc, field.scalar, element);
        }
        break;
      }
      case 'enum':
        break;
    }
  }
}

export function guardRequest(desc: DescMessage, request: unknown): void {
  checkMessage(desc, request, '');
}
