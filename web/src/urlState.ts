import { useCallback } from 'react';
import { useSearchParams } from 'react-router';

/**
 * A page's filter kept in the address (`#/transactions?status=2&from=2026-11-01`), so a reload, a shared link or the
 * back button brings the same list back. Written with `replace`: typing a filter adds no history entries.
 */
export function useUrlState(name: string): [string, (value: string) => void] {
  const [params, setParams] = useSearchParams();
  const set = useCallback(
    (value: string) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (value) next.set(name, value);
          else next.delete(name);
          return next;
        },
        { replace: true },
      ),
    [name, setParams],
  );
  return [params.get(name) ?? '', set];
}

/** A list of values in the address, comma-separated (`status=1,2`). */
export function useUrlList(name: string): [string[], (values: string[]) => void] {
  const [value, set] = useUrlState(name);
  const setList = useCallback((values: string[]) => set(values.join(',')), [set]);
  return [value ? value.split(',').filter(Boolean) : [], setList];
}

/**
 * Several values of the address read and written together: one navigation, since separate writes in one turn each
 * start from the same address and only the last would stay.
 */
export function useUrlStates<N extends string>(names: readonly N[]): [Record<N, string>, (values: Record<N, string>) => void] {
  const [params, setParams] = useSearchParams();
  const key = names.join(',');
  const write = useCallback(
    (values: Record<N, string>) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          for (const name of key.split(',') as N[]) {
            if (values[name]) next.set(name, values[name]);
            else next.delete(name);
          }
          return next.toString() === current.toString() ? current : next;
        },
        { replace: true },
      ),
    [key, setParams],
  );
  return [Object.fromEntries(names.map((name) => [name, params.get(name) ?? ''])) as Record<N, string>, write];
}
