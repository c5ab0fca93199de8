import { useRef } from 'react';

/**
 * One idempotency key per intended request, for the forms that move money. A
 * repeat of the same request (a retry after an answer that never came) gets
 * the same key, so the gateway answers it without charging or paying twice;
 * any change to it is another request, with a new key (the gateway refuses a
 * key reused for a different request). Kept in memory only.
 */
export function useIdempotencyKey(): (request: unknown) => string {
  const last = useRef<{ request: string; key: string } | null>(null);
  return (request) => {
    const text = JSON.stringify(request, (_name, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    if (last.current?.request !== text) last.current = { request: text, key: crypto.randomUUID() };
    return last.current.key;
  };
}
