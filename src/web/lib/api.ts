import type { FieldError } from '../../contract/common.ts';
import { IDEMPOTENCY_HEADER } from '../../contract/idempotency.ts';
import type { Endpoint } from '../../contract/endpoints.ts';
import type { NoInput, OperationInput, OperationOutput, OperationSpec } from '../../contract/operation.ts';
import { STEP_UP_REQUIRED, signalStepUpRequired } from './step-up-signal.ts';

// The browser's one way to call the API: JSON in, JSON out, bearer token from the session,
// and every failure turned into an ApiError with the server's message. `call` (call.ts) and
// `callEndpoint` (here) build the request from a contract operation (docs/decisions/280-contract-operations.md).
export const API_BASE = '/api/v1';
const TOKEN_KEY = 'token';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** The refused fields (path and message), for forms to show under each field. */
    readonly fields: readonly FieldError[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

// One Idempotency-Key per user action (docs/decisions/210-idempotency-key.md): a POST gets a fresh
// key, and the same POST (path and body) sent again while the first is still on its way — a double
// click, a second tap — reuses that key, so the server does it once and answers both alike.
const inFlight = new Map<string, string>();
const newKey = () =>
  typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;

export const tokenStore = {
  get: (): string | null => {
    try {
      return localStorage.getItem(TOKEN_KEY);
    } catch {
      return null;
    }
  },
  set: (token: string) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

type HttpMethod = OperationSpec['method'];

/** What a call of `Op` takes after the operation: its input (left out when it has none), then fetch's options. */
export type CallArgs<Op extends OperationSpec> =
  NoInput<Op> extends true ? [input?: Record<string, never>, init?: RequestInit] : [input: OperationInput<Op>, init?: RequestInit];

/**
 * Calls an operation through its zod-free endpoint (src/contract/endpoints.ts), for the code the
 * public pages load before React: the same request as `call(operation, input)` (src/web/lib/call.ts).
 */
export function callEndpoint<Op extends OperationSpec>(endpoint: Endpoint<Op>, ...args: CallArgs<Op>): Promise<OperationOutput<Op>> {
  const [input, init] = args as [{ params?: unknown; query?: unknown; body?: unknown } | undefined, RequestInit | undefined];
  return request<OperationOutput<Op>>(endpoint.method, operationUrl(endpoint, input), input?.body, init);
}

/**
 * The URL of one call: `:name` segments replaced by the encoded params, the query appended
 * (undefined and null left out, arrays repeated).
 */
export function operationUrl(op: Pick<OperationSpec, 'path'>, input: { params?: unknown; query?: unknown } = {}): string {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = op.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === null || value === '') throw new Error(`${op.path}: the param "${name}" is missing`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries((input.query ?? {}) as Record<string, unknown>)) {
    for (const v of Array.isArray(value) ? value : [value]) if (v !== undefined && v !== null) search.append(key, String(v));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

/**
 * One request to a full URL: the token, the Idempotency-Key of a POST, and failures as ApiError.
 * A FormData body (a file upload, src/web/lib/call-file.ts) is sent as multipart/form-data, without
 * a key: two uploads cannot be told apart by their text, so neither may be taken for the other.
 */
export async function request<T>(method: HttpMethod, url: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  const form = body instanceof FormData;
  const headers: Record<string, string> = { accept: 'application/json' };
  // multipart's content-type (with its boundary) is set by fetch from the FormData.
  if (body !== undefined && !form) headers['content-type'] = 'application/json';
  const token = tokenStore.get();
  if (token) headers.authorization = `Bearer ${token}`;
  const action = method === 'POST' && !form ? `${url} ${body === undefined ? '' : JSON.stringify(body)}` : null;
  let ownsKey = false;
  if (action !== null) {
    let key = inFlight.get(action);
    if (!key) {
      key = newKey();
      inFlight.set(action, key);
      ownsKey = true;
    }
    headers[IDEMPOTENCY_HEADER] = key;
  }
  try {
    return await send<T>(method, url, body, headers, init);
  } finally {
    if (ownsKey && action !== null) inFlight.delete(action);
  }
}

async function send<T>(method: string, url: string, body: unknown, headers: Record<string, string>, init: RequestInit): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      ...init,
    });
  } catch (err) {
    // A cancelled request stays an AbortError, so a query library can tell it from a failure.
    if (init.signal?.aborted) throw err;
    throw new ApiError(0, 'NETWORK', 'Network error. Please check your connection and try again.');
  }
  const data = (await res.json().catch(() => null)) as (T & { message?: string; code?: string; fields?: FieldError[] }) | null;
  // The back office's gate shows its step-up screen (decision 194); the caller still gets the error.
  if (res.status === 403 && data?.code === STEP_UP_REQUIRED) signalStepUpRequired();
  if (!res.ok)
    throw new ApiError(res.status, data?.code ?? 'ERROR', data?.message ?? `Request failed (${res.status}).`, data?.fields ?? []);
  return data as T;
}

/** Turns any failure into one sentence for the screen. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return 'Something went wrong. Please try again.';
}

/** The message the server gave for one field (its path's first part), if any. */
export function fieldError(err: unknown, field: string): string | undefined {
  if (!(err instanceof ApiError)) return undefined;
  return err.fields.find((f) => f.path === field || f.path.split('.')[0] === field)?.message;
}
