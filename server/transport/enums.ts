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
