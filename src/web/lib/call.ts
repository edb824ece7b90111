import type { NoInput, OperationInput, OperationOutput, OperationSpec } from '../../contract/operation.ts';
import { request } from './api.ts';

// Kept apart from api.ts so that the public islands, which call `api` with a path, do not carry it
// (docs/decisions/115-dom-islands-before-interaction.md, docs/decisions/280-contract-operations.md).

/**
 * Calls one contract operation (docs/decisions/280-contract-operations.md): the URL from its path
 * and `input.params`/`input.query`, `input.body` as JSON, the answer typed from its responses.
 * Features call the API only this way; `init.signal` cancels a stale request.
 */
export function call<Op extends OperationSpec>(
  op: Op,
  ...args: NoInput<Op> extends true ? [input?: Record<string, never>, init?: RequestInit] : [input: OperationInput<Op>, init?: RequestInit]
): Promise<OperationOutput<Op>> {
  const [input, init] = args as [{ params?: unknown; query?: unknown; body?: unknown } | undefined, RequestInit | undefined];
  return request<OperationOutput<Op>>(op.method, operationUrl(op, input), input?.body, init);
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

