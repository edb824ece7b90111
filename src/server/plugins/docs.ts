import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { mayEnterBackOffice } from '../features/auth/back-office-access.ts';
import { isAdminGuard, optionalUser } from './auth.ts';

type OpenApiDocument = { paths?: Record<string, Record<string, unknown>>; tags?: { name: string }[] } & Record<string, unknown>;

const ADMIN_PREFIX = '/api/v1/admin/';
const DOCS_PREFIX = '/api/docs';

/** `/api/v1/x/:id` → `/api/v1/x/{id}`, as @fastify/swagger writes paths. */
const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

const hooksOf = (h: unknown): unknown[] => (Array.isArray(h) ? h : h ? [h] : []);

/** A route only admins may call: under /api/v1/admin (guarded by the plugin) or with the admin guard. */
function isAdminRoute(route: RouteOptions): boolean {
  if (route.url.startsWith(ADMIN_PREFIX)) return true;
  return [...hooksOf(route.onRequest), ...hooksOf(route.preHandler)].some((h) => isAdminGuard(h));
}

/** The header every POST honours (docs/decisions/210-idempotency-key.md), documented on each POST. */
const IDEMPOTENCY_DESCRIPTION =
  'Makes the request happen once: the same key from the same account within 24 h gets the first answer again ' +
  '(status and body, with `Idempotent-Replayed: true`), and nothing is done twice; the same key with another body is a 422. ' +
  '1 to 128 printable characters; send a new key per user action.';

function withIdempotencyKey<T extends { schema: unknown }>(out: T, method: RouteOptions['method']): T {
  if (![method].flat().includes('POST')) return out;
  const schema = (out.schema ?? {}) as { headers?: { type?: string; properties?: Record<string, unknown> } };
  const headers = schema.headers ?? { type: 'object', properties: {} };
  return {
    ...out,
    schema: {
      ...schema,
      headers: {
        ...headers,
        type: 'object',
        properties: {
          ...headers.properties,
          'Idempotency-Key': { type: 'string', minLength: 1, maxLength: 128, description: IDEMPOTENCY_DESCRIPTION },
        },
      },
    },
  };
}

/**
 * OpenAPI generated from the zod contract; must be registered before any route. Visitors and
 * customers get the document without admin operations; a request with an admin session gets all of
 * it, at the same URLs (docs/decisions/093-openapi-for-admins.md).
 */
export async function registerDocs(app: FastifyInstance, config: Config, db: Db) {
  const adminOperations = new Set<string>();
  app.addHook('onRoute', (route) => {
    if (!isAdminRoute(route)) return;
    for (const method of [route.method].flat()) adminOperations.add(`${method.toLowerCase()} ${openApiPath(route.url)}`);
  });

  /**
   * The document for this request: complete for whoever may enter the back office now (owner or
   * staff, step-up confirmed: decision 191), admin operations removed for others.
   */
  function documentFor(request: FastifyRequest, doc: OpenApiDocument): OpenApiDocument {
    if (mayEnterBackOffice(config, request.auth)) return doc;
    const paths: Record<string, Record<string, unknown>> = {};
    const usedTags = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      const kept = Object.fromEntries(Object.entries(item).filter(([method]) => !adminOperations.has(`${method} ${path}`)));
      if (!Object.keys(kept).some((k) => k !== 'parameters')) continue;
      paths[path] = kept;
      for (const op of Object.values(kept)) for (const tag of (op as { tags?: string[] }).tags ?? []) usedTags.add(tag);
    }
    return { ...doc, paths, ...(doc.tags ? { tags: doc.tags.filter((t) => usedTags.has(t.name)) } : {}) };
  }

  await app.register(swagger, {
    openapi: {
      info: { title: `${config.BRAND_NAME} API`, version: '1.0.0' },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: (input) => withIdempotencyKey(jsonSchemaTransform(input), input.route.method),
  });
  const whoAsks = optionalUser(db);
  await app.register(swaggerUi, {
    routePrefix: DOCS_PREFIX,
    uiHooks: {
      onRequest: (request, reply, done) => {
        // The UI's own redirect keeps the query string and so loops on
        // /api/docs/static/index.html?anything: answer it here without one.
        if (request.url.split('?')[0] === `${DOCS_PREFIX}/static/index.html`) return void reply.redirect(`${DOCS_PREFIX}/`);
        done();
      },
      preHandler: (request, reply, done) => void whoAsks.call(app, request, reply).then(() => done(), done),
    },
    transformSpecification: (doc, request) => documentFor(request, doc as OpenApiDocument),
  });
  app.get('/api/openapi.json', { schema: { hide: true }, preHandler: whoAsks }, async (request) =>
    documentFor(request, app.swagger() as unknown as OpenApiDocument),
  );
}
