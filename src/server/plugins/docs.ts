import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { Config } from '../config.ts';

/** OpenAPI generated from the zod contract; must be registered before any route. */
export async function registerDocs(app: FastifyInstance, config: Config) {
  await app.register(swagger, {
    openapi: {
      info: { title: `${config.BRAND_NAME} API`, version: '1.0.0' },
      servers: [{ url: config.publicUrl }],
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
