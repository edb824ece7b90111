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
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

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

export async function api<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const token = tokenStore.get();
  if (token) headers.authorization = `Bearer ${token}`;
  let res: Response;
  try {
    res = await fetch(`${API_BASE}/${path.replace(/^\//, '')}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      ...init,
    });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Network error. Please check your connection and try again.');
  }
  const data = (await res.json().catch(() => null)) as (T & { message?: string; code?: string }) | null;
  // The back office's gate shows its step-up screen (decision 194); the caller still gets the error.
  if (res.status === 403 && data?.code === STEP_UP_REQUIRED) signalStepUpRequired();
  if (!res.ok) throw new ApiError(res.status, data?.code ?? 'ERROR', data?.message ?? `Request failed (${res.status}).`);
  return data as T;
}

/** Turns any failure into one sentence for the screen. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  return 'Something went wrong. Please try again.';
}
