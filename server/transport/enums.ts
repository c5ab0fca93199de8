import { invalidArgument } from '../lib/errors.js';

/**
 * Domain names ↔ protobuf enum numbers. Both generated flavours (ts-proto and
 * protobuf-es) share the numbers, since they come from one .proto file; the
 * value names are the domain name behind the enum's prefix (PAYMENT_METHOD_PIX).
 */
type ProtoEnum = Record<string, string | number>;

export function toEnum(enumObject: ProtoEnum, prefix: string, name: string | undefined): number {
  if (!name) return 0;
  const value = enumObject[`${prefix}_${name.toUpperCase()}`];
  return typeof value === 'number' ? value : 0;
}

/** undefined for UNSPECIFIED and unknown numbers: the use case decides what is missing. */
export function fromEnum<T extends string>(enumObject: ProtoEnum, prefix: string, value: number | undefined): T | undefined {
  if (!value) return undefined;
  const name = enumObject[value];
  return typeof name === 'string' && name.startsWith(`${prefix}_`) ? (name.slice(prefix.length + 1) as T) : undefined;
}

/**
 * A filter's enum value: undefined for UNSPECIFIED (no filter); a number the
 * contract does not define (a newer client's, or a mistake) is refused with
 * INVALID_ARGUMENT naming the field, never read as "no filter".
 */
export function enumFilter<T extends string>(enumObject: ProtoEnum, prefix: string, value: number | undefined, field: string): T | undefined {
  if (!value) return undefined;
  const name = fromEnum<T>(enumObject, prefix, value);
  if (!name) throw invalidArgument(field, `${field} has no value ${value}: see the contract's ${prefix}_ values`, 'UNKNOWN_VALUE');
  return name;
}

/** A repeated enum filter: each element must be a defined value other than UNSPECIFIED. */
export function enumListFilter<T extends string>(enumObject: ProtoEnum, prefix: string, values: readonly number[], field: string): T[] {
  return values.map((value, index) => {
    const name = enumFilter<T>(enumObject, prefix, value, `${field}[${index}]`);
    if (!name) throw invalidArgument(`${field}[${index}]`, `${field}[${index}] must be a ${prefix}_ value other than UNSPECIFIED`, 'UNKNOWN_VALUE');
    return name;
  });
}
