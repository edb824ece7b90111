import { useCallback, useEffect, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  reload(): Promise<void>;
  /** Replaces the data without a request (an answer of a write that carries the new state). */
  set(update: (data: T | null) => T | null): void;
}

/** Loads `load()` once (and again on reload); the panels' one way to read a resource. */
export function useLoad<T>(load: () => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const reload = useCallback(async () => {
    try {
      setData(await load());
      setError(null);
    } catch (err) {
      setError(errorMessage(err));
    }
  }, [load]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, reload, set: setData };
}
