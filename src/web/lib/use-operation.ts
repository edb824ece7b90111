import { keepPreviousData, QueryClient, type QueryObserverResult, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef } from 'react';
import type { AnyOperation, OperationInput, OperationOutput } from '../../contract/operation.ts';
import { ApiError, errorMessage, tokenStore } from './api.ts';
import { call } from './call.ts';

// The screens' reads go through TanStack Query (docs/decisions/300-tanstack-query-behind-use-operation.md).
// Only the router app loads this module: the public pages' islands never do
// (docs/decisions/115-dom-islands-before-interaction.md).

export interface Loaded<T> {
  data: T | null;
  error: string | null;
  /** 401/403 from the server: the session ended or lost its role. */
  denied: boolean;
  /** The HTTP status of the failed read (404 where a resource does not exist yet); null otherwise. */
  status: number | null;
  loading: boolean;
  reload(): Promise<void>;
  /** Replaces the data without a request (a write's answer that carries the new state). */
  set(update: (data: T | null) => T | null): void;
}

/** A refusal (4xx) is the answer: asking again gives the same one. */
const isRefusal = (err: unknown) => err instanceof ApiError && err.status >= 400 && err.status < 500;

/** The router app's one query client (provided in app.tsx). */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A network failure or a 5xx is tried once more; a 4xx never.
        retry: (failures, err) => failures < 1 && !isRefusal(err),
        // A screen opened again within a few seconds shows what it read; later it reads again.
        staleTime: 3_000,
        // Off: the screens that must follow other tabs read again on focus themselves (the order
        // brief merges a fresh copy without touching what is being typed, order-actions.ts counts),
        // and a refetch here would flash every list's "loading" state.
        refetchOnWindowFocus: false,
        // Offline is an error the screen shows ("Network error…"), as before, not a silent pause.
        networkMode: 'always',
      },
    },
  });
}

/**
 * The query key of one read: the operation, its input and who asks. The token is part of it so
 * that, after a sign-out and another sign-in in the same tab, no screen shows the last account's
 * answers from the cache (it lives in memory only, beside the token already in localStorage).
 */
const keyOf = (op: AnyOperation, input: unknown) => [op.method, op.path, input, tokenStore.get()] as const;

export interface ReadOptions {
  /**
   * Only an answer read (or set) since the screen opened: for a form that starts from the data and
   * then keeps its own state (the order brief), which must not start from a cached, older copy.
   */
  fresh?: boolean;
}

/** The query of one read (what `useOperation` hands `useQuery`). */
export function operationQuery<Op extends AnyOperation>(op: Op, input: OperationInput<Op> | null, { fresh = false }: ReadOptions = {}) {
  return {
    queryKey: keyOf(op, input),
    // TanStack hands the signal in and aborts it when nobody waits for the answer any more
    // (the input changed, the screen closed) or a reload replaces it.
    queryFn: ({ signal }: { signal: AbortSignal }) =>
      (call as (op: AnyOperation, input: unknown, init: RequestInit) => Promise<OperationOutput<Op>>)(op, input, { signal }),
    enabled: input !== null,
    // Another input keeps the last answer on screen until its own arrives (as the lists did).
    placeholderData: keepPreviousData,
    // A fresh read asks again on every mount, even within staleTime (readState waits for that answer).
    ...(fresh ? { refetchOnMount: 'always' as const } : {}),
  };
}

/** What a screen reads of a query's state: `Loaded` without its two actions. */
export function readState<T>(
  query: Pick<QueryObserverResult<T>, 'data' | 'error' | 'isFetching' | 'isFetchedAfterMount'>,
  { fresh = false }: ReadOptions = {},
): Omit<Loaded<T>, 'reload' | 'set'> {
  const error = query.error;
  return {
    // A fresh read shows nothing older than the screen (what was cached is read again first).
    data: (fresh && !query.isFetchedAfterMount ? null : query.data) ?? null,
    error: error ? errorMessage(error) : null,
    denied: error instanceof ApiError && (error.status === 401 || error.status === 403),
    status: error instanceof ApiError ? error.status : null,
    loading: query.isFetching,
  };
}

/**
 * Reads one contract operation (docs/decisions/280-contract-operations.md); `input` null waits.
 * The screens' one way to read: a newer request (another input, a reload after a write) cancels
 * the one in flight through its AbortSignal, so a late answer never overwrites a newer one.
 */
export function useOperation<Op extends AnyOperation>(
  op: Op,
  input: OperationInput<Op> | null,
  options: ReadOptions = {},
): Loaded<OperationOutput<Op>> {
  type T = OperationOutput<Op>;
  const client = useQueryClient();
  const queryOptions = operationQuery(op, input, options);
  const queryKey = queryOptions.queryKey;
  const query = useQuery(queryOptions);
  const { refetch } = query;
  const enabled = input !== null;
  const reload = useCallback(async () => {
    if (enabled) await refetch();
  }, [enabled, refetch]);
  const keyRef = useRef(queryKey);
  keyRef.current = queryKey;
  const set = useCallback(
    (update: (data: T | null) => T | null) => {
      const key = keyRef.current;
      // A write's answer is newer than any read still on its way.
      void client.cancelQueries({ queryKey: key, exact: true });
      client.setQueryData<T | null>(key, (data) => update(data ?? null));
    },
    [client],
  );
  return { ...readState(query, options), reload, set };
}

/** Runs a write; returns its answer or the error's text (the screens show it beside the button). */
export async function runOperation<Op extends AnyOperation>(
  op: Op,
  input: OperationInput<Op>,
): Promise<{ data?: OperationOutput<Op>; error: string | null }> {
  try {
    return { data: await (call as (op: AnyOperation, input: unknown) => Promise<OperationOutput<Op>>)(op, input), error: null };
  } catch (err) {
    return { error: errorMessage(err) };
  }
}

/** The key prefix of every read of `op`, whatever its input (what a write invalidates). */
export const readsOf = (op: AnyOperation) => [op.method, op.path] as const;

/**
 * One write as a TanStack mutation (docs/decisions/338-web-reads-and-folder-rules.md): `mutateAsync(input)`
 * runs it; once it succeeds, every cached read of the `invalidates` operations is marked stale and the
 * ones on screen read again, so no screen shows what the write changed. Effects start a write through
 * `mutate`, never through `call()` (src/web/architecture.test.ts).
 */
export function useWrite<Op extends AnyOperation>(op: Op, { invalidates = [] }: { invalidates?: readonly AnyOperation[] } = {}) {
  return useMutation(writeOptions(useQueryClient(), op, invalidates));
}

/** The mutation of one write (what `useWrite` hands `useMutation`). */
export function writeOptions<Op extends AnyOperation>(client: QueryClient, op: Op, invalidates: readonly AnyOperation[]) {
  return {
    mutationFn: (input: OperationInput<Op>) => (call as (op: AnyOperation, input: unknown) => Promise<OperationOutput<Op>>)(op, input),
    onSuccess: () => Promise.all(invalidates.map((read) => client.invalidateQueries({ queryKey: readsOf(read) }))).then(() => undefined),
  };
}

/**
 * Reads again when `key` changes after the screen opened (a parent's read that this one follows:
 * the order page's answer after a stage or a payment). Not on mount: the query reads then anyway.
 */
export function useReloadOn(key: unknown, reload: () => Promise<void>) {
  const last = useRef(key);
  useEffect(() => {
    if (Object.is(last.current, key)) return;
    last.current = key;
    void reload();
  }, [key, reload]);
}
