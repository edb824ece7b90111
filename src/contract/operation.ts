import type { z } from 'zod';
import { errorResponses } from './common.ts';

// One object per API operation: its method, path, params, query, body and responses
// (docs/decisions/280-contract-operations.md). The server registers the route from it
// (src/server/lib/route.ts) and the browser calls it with `call(operation, input)`
// (src/web/lib/call.ts), so the path, the shapes and the types are written once.

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type Schema = z.ZodType;

export interface OperationSpec {
  readonly method: HttpMethod;
  /** The full path, Fastify's form: `/api/v1/orders/:id`. */
  readonly path: string;
  readonly params?: Schema;
  readonly query?: Schema;
  readonly body?: Schema;
  /** The success answers, status explicit: `{ 200: schema }` or `{ 201: schema }`. */
  readonly responses: { readonly [status: number]: Schema };
  /** The error answers; `errorResponses` when not given. */
  readonly errors?: { readonly [status: number]: Schema };
  /**
   * The body is multipart/form-data with one file in the part named `part`, not JSON: the browser
   * sends it with `upload` (src/web/lib/call-file.ts), never with `call`
   * (docs/decisions/295-file-operations.md).
   */
  readonly multipart?: { readonly part: string };
  /** The success answer is a file's bytes, not JSON: the browser reads it through `fileUrl` (src/web/lib/call-file.ts). */
  readonly binary?: true;
  /**
   * The success answer carries a secret (a session token, a signup ticket, recovery codes, a link
   * with a token): it is never kept for replay. A second request with the same Idempotency-Key
   * answers 409 "already done: ask for a new one" (docs/decisions/331-secrets-never-replayed.md).
   */
  readonly secretAnswer?: true;
}

export type Operation<S extends OperationSpec = OperationSpec> = S & {
  readonly errors: S['errors'] extends object ? S['errors'] : typeof errorResponses;
};

/** Any defined operation (what `route` and `call` accept). */
export type AnyOperation = OperationSpec & { readonly errors: { readonly [status: number]: Schema } };

export function defineOperation<const S extends OperationSpec>(spec: S): Operation<S> {
  return { errors: errorResponses, ...spec } as Operation<S>;
}

/** A query value as the browser writes it: a coerced field (`z.coerce.number()`) takes its parsed type. */
type QueryInput<Q extends Schema> = {
  [K in keyof z.input<Q>]: unknown extends z.input<Q>[K] ? (K extends keyof z.output<Q> ? z.output<Q>[K] : never) : z.input<Q>[K];
};

/** The params and query of a call (what its URL is made of). */
export type OperationUrlInput<Op extends OperationSpec> = (Op['params'] extends Schema ? { params: z.input<Op['params']> } : unknown) &
  (Op['query'] extends Schema ? { query?: QueryInput<Op['query']> } : unknown);

/** True when the operation sends or answers a file rather than JSON (`multipart`, `binary`). */
type IsFileOperation<Op extends OperationSpec> = Op['multipart'] extends object ? true : Op['binary'] extends true ? true : false;

/**
 * What a caller sends: `{ params, query, body }`, each only where the operation has it (the query
 * may be left out: the server's defaults apply). `never` for a file operation, so that `call`
 * refuses it: its input is `OperationUrlInput` (docs/decisions/295-file-operations.md).
 */
export type OperationInput<Op extends OperationSpec> =
  IsFileOperation<Op> extends true ? never : OperationUrlInput<Op> & (Op['body'] extends Schema ? { body: z.input<Op['body']> } : unknown);

/** The answer's body (any of the success statuses). */
export type OperationOutput<Op extends OperationSpec> = {
  [S in keyof Op['responses']]: z.output<Op['responses'][S]>;
}[keyof Op['responses']];

/** True when the operation takes no input at all, so callers may leave it out. */
export type NoInput<Op extends OperationSpec> = Op['params'] extends Schema
  ? false
  : Op['query'] extends Schema
    ? false
    : Op['body'] extends Schema
      ? false
      : true;
