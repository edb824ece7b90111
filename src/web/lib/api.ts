import type { FieldError } from '../../contract/common.ts';
import { IDEMPOTENCY_HEADER } from '../../contract/idempotency.ts';
import type { OperationSpec } from '../../contract/operation.ts';
import { STEP_UP_REQUIRED, signalStepUpRequired } from './step-up-signal.ts';

// The browser's one way to call the API: JSON in, JSON out, bearer token from the session,
// and every failure turned into an ApiError with the server's message.
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
const newKey = () => (typeof crypto.randomUUID === 'function' ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`);

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

/** A path under /api/v1 for src/web/lib and the public islands (kept free of the contract's zod). */
export function api<T>(method: HttpMethod, path: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  return request<T>(method, `${API_BASE}/${path.replace(/^\//, '')}`, body, init);
}

type HttpMethod = OperationSpec['method'];

/** One request to a full URL: the token, the Idempotency-Key of a POST, and failures as ApiError. */
export async function request<T>(method: HttpMethod, url: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = tokenStore.get();
  if (token) headers.authorization = `Bearer ${token}`;
  const action = method === 'POST' ? `${url} ${body === undefined ? '' : JSON.stringify(body)}` : null;
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
      body: body === undefined ? undefined : JSON.stringify(body),
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
  if (!res.ok) throw new ApiError(res.status, data?.code ?? 'ERROR', data?.message ?? `Request failed (${res.status}).`, data?.fields ?? []);
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
