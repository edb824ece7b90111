import { useCallback, useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../lib/api.ts';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  reload(): Promise<void>;
  /** Replaces the data without a request (an answer of a write that carries the new state). */
  set(update: (data: T | null) => T | null): void;
}

/**
 * Loads `load()` once (and again on reload); the panels' one way to read a resource. Only the
 * newest call may write: an older answer arriving late (a slow first load after a quick reload, or
 * after `set` stored a write's answer) is dropped, so the screen never goes back to stale data.
 */
export function useLoad<T>(load: () => Promise<T>): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);
  const reload = useCallback(async () => {
    const mine = ++generation.current;
    try {
      const next = await load();
      if (mine !== generation.current) return;
      setData(next);
      setError(null);
    } catch (err) {
      if (mine === generation.current) setError(errorMessage(err));
    }
  }, [load]);
  useEffect(() => {
    void reload();
    // A load still in flight when the component goes (or `load` changes) must not write.
    const counter = generation;
    return () => {
      counter.current += 1;
    };
  }, [reload]);
  const set = useCallback((update: (data: T | null) => T | null) => {
    ++generation.current;
    setData(update);
  }, []);
  return { data, error, reload, set };
}
