import { useCallback, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A page's filters kept in the address (`#/transactions?status=2&from=2026-11-01`), so a reload, a shared link or the
 * back button brings the same list back. Written with `replace`: typing a filter adds no history entries.
 *
 * The values live in the page's state first and go to the address after: the router applies a navigation later (in a
 * transition), and a field whose value came only from the address would show the old one meanwhile, which a quick
 * second choice would then undo. Each write starts from the address as it is now (the window's), not as the page last
 * rendered it, so two writes in one turn both stay. An address changed from outside (back button, a link) is taken.
 */
function useAddressValues<N extends string>(names: readonly N[]): [Record<N, string>, (values: Partial<Record<N, string>>) => void] {
  const [params, setParams] = useSearchParams();
  const fromAddress = Object.fromEntries(names.map((name) => [name, params.get(name) ?? ''])) as Record<N, string>;
  const [values, setValues] = useState(fromAddress);
  const [seen, setSeen] = useState(fromAddress);
  if (names.some((name) => fromAddress[name] !== seen[name])) {
    // The address moved: what it says now wins over the page's copy, for the values that moved.
    const moved = names.filter((name) => fromAddress[name] !== seen[name]);
    setSeen(fromAddress);
    setValues({ ...values, ...Object.fromEntries(moved.map((name) => [name, fromAddress[name]])) });
  }
  const key = names.join(',');
  const write = useCallback(
    (changes: Partial<Record<N, string>>) => {
      setValues((current) => ({ ...current, ...changes }));
      const hash = window.location.hash;
      const next = new URLSearchParams(hash.includes('?') ? hash.slice(hash.indexOf('?') + 1) : '');
      const before = next.toString();
      for (const name of key.split(',') as N[]) {
        if (!(name in changes)) continue;
        const value = changes[name];
        if (value) next.set(name, value);
        else next.delete(name);
      }
      if (next.toString() !== before) setParams(next, { replace: true });
    },
    [key, setParams],
  );
  return [values, write];
}

/** One filter in the address. */
export function useUrlState(name: string): [string, (value: string) => void] {
  const [values, write] = useAddressValues([name]);
  const set = useCallback((value: string) => write({ [name]: value }), [name, write]);
  return [values[name] ?? '', set];
}

/** A list of values in the address, comma-separated (`status=1,2`). */
export function useUrlList(name: string): [string[], (values: string[]) => void] {
  const [value, set] = useUrlState(name);
  const setList = useCallback((values: string[]) => set(values.join(',')), [set]);
  return [value ? value.split(',').filter(Boolean) : [], setList];
}

/** Several values of the address read and written together (one navigation). */
export function useUrlStates<N extends string>(names: readonly N[]): [Record<N, string>, (values: Record<N, string>) => void] {
  return useAddressValues(names);
}
