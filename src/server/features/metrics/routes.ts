import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import { forbidden } from '../../lib/app-error.ts';
import { metricsAccess } from './access.ts';
import type { AppMetrics } from './metrics.ts';

/**
 * GET /metrics in Prometheus text format, and the per-request hook behind the duration histogram.
 * Only registered when METRICS_ALLOW or METRICS_TOKEN is set; otherwise /metrics is an unknown path.
 */
export function registerMetrics(app: FastifyInstance, metrics: AppMetrics, config: Config) {
  // onResponse runs after the reply is sent; elapsedTime is measured by Fastify anyway.
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url ?? '(unmatched)', reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  const allowed = metricsAccess(config.METRICS_ALLOW, config.METRICS_TOKEN);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!allowed(request)) {
      throw forbidden('Metrics are only for the addresses in METRICS_ALLOW or a request with the METRICS_TOKEN bearer token.');
    }
    const body = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}
