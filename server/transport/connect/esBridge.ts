import { create, ScalarType, type DescField, type DescMessage } from '@bufbuild/protobuf';
import { invalidArgument } from '../../lib/errors.js';
import { timestampDate, timestampFromDate, type Timestamp } from '@bufbuild/protobuf/wkt';

/**
 * protobuf-es messages ↔ the contract's plain shape that the RPC handlers speak
 * (int64 as number, Timestamp as Date), driven by the message descriptors, so
 * the Connect transport needs no mapper of its own per message.
 */

const TIMESTAMP = 'google.protobuf.Timestamp';
const INT64 = new Set([ScalarType.INT64, ScalarType.UINT64, ScalarType.SINT64, ScalarType.FIXED64, ScalarType.SFIXED64]);

type Direction = 'toPlain' | 'toEs';

/** A request's int64 beyond 2^53 is the caller's error (the gateway computes in JavaScript numbers), named by its field. */
function scalar(type: ScalarType, value: unknown, direction: Direction, path: string): unknown {
  if (value === undefined || !INT64.has(type)) return value;
  if (direction === 'toEs') return BigInt(value as number);
  const number = Number(value as bigint);
  if (!Number.isSafeInteger(number))
    // INVALID_VALUE, not OUT_OF_RANGE: the limit is in the field's unit (cents, for an amount), which a client's
    // text beside a field in reais would misquote.
    throw invalidArgument(path, `${path} is out of range: at most ${Number.MAX_SAFE_INTEGER} in absolute value`, 'INVALID_VALUE');
  return number;
}

function message(desc: DescMessage, value: any, direction: Direction, path: string): any {
  if (value === undefined || value === null) return undefined;
  if (desc.typeName === TIMESTAMP) return direction === 'toPlain' ? timestampDate(value as Timestamp) : timestampFromDate(value as Date);
  const out: Record<string, unknown> = {};
  for (const field of desc.fields) out[field.localName] = convertField(field, value[field.localName], direction, path ? `${path}.${field.name}` : field.name);
  return direction === 'toEs' ? create(desc, out) : out;
}

function element(field: DescField, value: unknown, direction: Direction, path: string): unknown {
  if (field.fieldKind === 'list' || field.fieldKind === 'map') {
    const kind = field.fieldKind === 'list' ? field.listKind : field.mapKind;
    if (kind === 'message') return message(field.message!, value, direction, path);
    if (kind === 'scalar') return scalar(field.scalar!, value, direction, path);
  }
  return value;
}

function convertField(field: DescField, value: any, direction: Direction, path: string): unknown {
  switch (field.fieldKind) {
    case 'scalar':
      return scalar(field.scalar, value, direction, path);
    case 'enum':
      return value;
    case 'message':
      return message(field.message, value, direction, path);
    case 'list':
      return (value ?? []).map((item: unknown, index: number) => element(field, item, direction, `${path}[${index}]`));
    case 'map':
      return Object.fromEntries(Object.entries(value ?? {}).map(([key, item]) => [key, element(field, item, direction, `${path}.${key}`)]));
  }
}

export const esToPlain = (desc: DescMessage, value: unknown): any => message(desc, value, 'toPlain', '');
export const plainToEs = (desc: DescMessage, value: unknown): any => message(desc, value, 'toEs', '');
