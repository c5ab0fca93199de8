/** A key's named parts as the gateway stores them: '|' between them, optional parts left empty at the end dropped. */
export const packParts = (values: readonly string[]): string => values.join('|').replace(/\|+$/, '');

/** The key's value cut into `count` parts (missing ones empty), for a form that shows one input per part. */
export function unpackParts(value: string, count: number): string[] {
  const parts = value ? value.split('|') : [];
  return Array.from({ length: count }, (_, index) => (index === count - 1 ? parts.slice(index).join('|') : (parts[index] ?? '')));
}
