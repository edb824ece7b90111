import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../deps.ts';
import { createWeatherService } from './get-weather.ts';
import { route } from '../../lib/route.ts';
import { getGeoWeather } from '../../../contract/geo.ts';

export const geoRoutes: FastifyPluginAsyncZod<{ deps: AppDeps }> = async (app, { deps }) => {
  const service = createWeatherService(deps.config);
  route(
    app,
    getGeoWeather,
    {
      config: { rateLimit: { max: 60, timeWindow: '1 minute' } },
      schema: { tags: ['geo'], summary: "The caller's city and its current weather (defaults on any failure)" },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, max-age=600');
      // Validated and serialised once per located place (src/server/lib/cached-read.ts).
      return reply.type('application/json; charset=utf-8').send((await service.jsonForIp(request.ip)) as never);
    },
  );
};
