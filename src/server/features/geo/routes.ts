import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponses } from '../../../contract/common.ts';
import { weatherResponse } from '../../../contract/geo.ts';
import type { AppDeps } from '../../deps.ts';
import { createWeatherService } from './get-weather.ts';

export const geoRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const service = createWeatherService(deps.config);
  app.get(
    '/geo/weather',
    {
      // request.ip honours TRUST_PROXY, so X-Forwarded-For counts only behind a configured proxy.
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: {
        tags: ['geo'],
        summary: "The caller's city and its current weather (defaults on any failure)",
        response: { 200: weatherResponse, 429: errorResponses[429] },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, max-age=600');
      // Validated and serialised once per located place (src/server/lib/cached-read.ts).
      return reply.type('application/json; charset=utf-8').send((await service.jsonForIp(request.ip)) as never);
    },
  );
};
