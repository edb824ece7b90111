import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, api, errorMessage } from '../../lib/api.ts';

export interface AdminData<T> {
  data: T | null;
  error: string | null;
  /** 401/403 from the server: the session ended or lost its admin role. */
  denied: boolean;
  loading: boolean;
  reload(): Promise<void>;
}

/**
 * GETs an /admin/… resource; `path` null waits. Reload after a change. A newer request aborts the
 * one in flight (a filter typed quickly, a reload after a write), so a late answer for an older
 * path never overwrites the newer one.
 */
export function useAdminData<T>(path: string | null): AdminData<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [denied, setDenied] = useState(false);
  const [loading, setLoading] = useState(path !== null);

  const inFlight = useRef<AbortController | null>(null);
  const load = useCallback(async () => {
    if (path === null) return;
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setLoading(true);
    try {
      const next = await api<T>('GET', `admin/${path}`, undefined, { signal: controller.signal });
      if (controller.signal.aborted) return;
      setData(next);
      setError(null);
    } catch (err) {
      if (controller.signal.aborted) return;
      setDenied(err instanceof ApiError && (err.status === 401 || err.status === 403));
      setError(errorMessage(err));
    } finally {
      if (inFlight.current === controller) {
        inFlight.current = null;
        setLoading(false);
      }
    }
  }, [path]);

  useEffect(() => {
    void load();
    return () => inFlight.current?.abort();
  }, [load]);

  return { data, error, denied, loading, reload: load };
}

/** Runs an admin mutation; returns the error text or null. */
export async function adminAction<T = unknown>(method: 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown): Promise<{ data?: T; error: string | null }> {
  try {
    return { data: await api<T>(method, `admin/${path}`, body ?? {}), error: null };
  } catch (err) {
    return { error: errorMessage(err) };
  }
}
