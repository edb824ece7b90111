import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnyOperation, OperationInput, OperationOutput } from '../../contract/operation.ts';
import { ApiError, errorMessage } from './api.ts';
import { call } from './call.ts';

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  /** 401/403 from the server: the session ended or lost its role. */
  denied: boolean;
  loading: boolean;
  reload(): Promise<void>;
  /** Replaces the data without a request (a write's answer that carries the new state). */
  set(update: (data: T | null) => T | null): void;
}

/**
 * Reads one contract operation (docs/decisions/280-contract-operations.md); `input` null waits.
 * The screens' one way to read: a newer request (another input, a reload after a write) aborts
 * the one in flight through its AbortSignal, so a late answer never overwrites a newer one.
 */
export function useOperation<Op extends AnyOperation>(op: Op, input: OperationInput<Op> | null): Loaded<OperationOutput<Op>> {
  type T = OperationOutput<Op>;
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [denied, setDenied] = useState(false);
  const [loading, setLoading] = useState(input !== null);
  // The request is the operation and its input: a new object with the same content is the same request.
  const key = input === null ? null : `${op.method} ${op.path} ${JSON.stringify(input)}`;
  const inputRef = useRef(input);
  inputRef.current = input;

  const inFlight = useRef<AbortController | null>(null);
  const load = useCallback(async () => {
    if (key === null || inputRef.current === null) return;
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setLoading(true);
    try {
      const next = await (call as (op: AnyOperation, input: unknown, init: RequestInit) => Promise<T>)(op, inputRef.current, { signal: controller.signal });
      if (controller.signal.aborted) return;
      setData(next);
      setError(null);
      setDenied(false);
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
  }, [op, key]);

  useEffect(() => {
    void load();
    return () => inFlight.current?.abort();
  }, [load]);

  const set = useCallback((update: (data: T | null) => T | null) => {
    // A write's answer is newer than any read still on its way.
    inFlight.current?.abort();
    setData(update);
  }, []);

  return { data, error, denied, loading, reload: load, set };
}

/** Runs a write; returns its answer or the error's text (the screens show it beside the button). */
export async function runOperation<Op extends AnyOperation>(op: Op, input: OperationInput<Op>): Promise<{ data?: OperationOutput<Op>; error: string | null }> {
  try {
    return { data: await (call as (op: AnyOperation, input: unknown) => Promise<OperationOutput<Op>>)(op, input), error: null };
  } catch (err) {
    return { error: errorMessage(err) };
  }
}
