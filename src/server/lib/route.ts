import type {
  ContextConfigDefault,
  FastifyBaseLogger,
  FastifyInstance,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteShorthandOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AnyOperation, OperationSpec } from '../../contract/operation.ts';

// Registers a route from its contract operation (docs/decisions/280-contract-operations.md): the
// method, the URL and the params/query/body/response schemas come from the operation, so the
// handler's request and reply are typed by it and no route file writes a path or a schema again.

type ZodApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

type Pick2<Op, K extends keyof Op, As extends string> = Op[K] extends object ? { [P in As]: Op[K] } : unknown;

/** The Fastify schema an operation stands for. */
export type SchemaOf<Op extends AnyOperation> = Pick2<Op, 'params', 'params'> &
  Pick2<Op, 'query', 'querystring'> &
  Pick2<Op, 'body', 'body'> & { response: Op['responses'] & Op['errors'] };

/** What the OpenAPI document says of a route besides its shapes (tags, summary, security, headers, …). */
export type RouteDocs = Omit<FastifySchema, 'params' | 'querystring' | 'body' | 'response'> & {
  tags?: readonly string[] | string[];
  summary?: string;
  description?: string;
  security?: readonly Record<string, readonly string[]>[] | Record<string, string[]>[];
  hide?: boolean;
  consumes?: string[];
  produces?: string[];
  deprecated?: boolean;
};

type Options<Op extends AnyOperation> = Omit<
  RouteShorthandOptions<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    RouteGenericInterface,
    ContextConfigDefault,
    SchemaOf<Op> & FastifySchema,
    ZodTypeProvider
  >,
  'schema'
> & { schema?: RouteDocs };

export type HandlerOf<Op extends AnyOperation> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  SchemaOf<Op> & FastifySchema,
  ZodTypeProvider
>;

/** The operation's path under the plugin's prefix (`/api/v1/admin/orders/:id` → `/orders/:id`). */
export function urlUnder(prefix: string, path: string): string {
  if (!path.startsWith(prefix)) throw new Error(`${path} is not under the plugin's prefix ${prefix}`);
  return path.slice(prefix.length) || '/';
}

/** Registers `op` on `app` (its prefix is taken off the operation's path). */
export function route<Op extends AnyOperation>(app: ZodApp, op: Op, options: Options<Op>, handler: HandlerOf<Op>): void {
  const spec: OperationSpec = op;
  const { schema: docs, ...rest } = options;
  const schema = {
    // A file upload (docs/decisions/295-file-operations.md): no body schema, the part is read by the handler.
    ...(spec.multipart ? { consumes: ['multipart/form-data'] } : {}),
    ...docs,
    ...(spec.params ? { params: spec.params } : {}),
    ...(spec.query ? { querystring: spec.query } : {}),
    ...(spec.body ? { body: spec.body } : {}),
    response: { ...spec.responses, ...op.errors },
  };
  // An answer with a secret is never kept by the Idempotency-Key store (docs/decisions/331-secrets-never-replayed.md).
  const config = spec.secretAnswer ? { config: { ...(rest.config as object | undefined), secretAnswer: true } } : {};
  app.route({ ...(rest as object), ...config, method: spec.method, url: urlUnder(app.prefix, spec.path), schema, handler } as never);
}
