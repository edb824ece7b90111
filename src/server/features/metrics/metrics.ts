import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client.ts';

/** What features report to Prometheus; absent (undefined) when metrics are off. */
export interface AppMetrics {
  registry: Registry;
  /** The outcome of every settlement attempt (settle-payment.ts). */
  paymentOutcome(outcome: string): void;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** How long one scheduled pass of the job runner took, and whether it finished or threw (features/jobs/run-jobs.ts). */
  observePass(pass: string, outcome: 'ok' | 'error', seconds: number): void;
  /** Where the connected-socket count comes from (the socket server exists after the routes). */
  countSocketsWith(count: () => number): void;
}

/**
 * The registry of one app instance (docs/decisions/065). Counters and the histogram are written as
 * things happen; sockets, the database pool and the mail outbox are read when Prometheus scrapes,
 * so the request path pays nothing for them.
 */
export function createMetrics(database: Database, log: FastifyBaseLogger): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route pattern (not the raw URL), method and status code',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // One child per label combination, found by one string key: cheaper than labels() per request.
  const children = new Map<string, ReturnType<typeof duration.labels>>();

  const payments = new Counter({
    name: 'payment_outcomes_total',
    help: 'Payment settlements by outcome (paid, already_paid, duplicate, amount_mismatch, unknown_order)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });

  const passes = new Histogram({
    name: 'job_pass_duration_seconds',
    help: 'Duration of each scheduled pass of the job runner, by pass and outcome (ok, error)',
    labelNames: ['pass', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
    registers: [registry],
  });

  let sockets: () => number = () => 0;
  new Gauge({
    name: 'socketio_connected_sockets',
    help: 'Live chat sockets connected to this instance',
    registers: [registry],
    collect() {
      this.set(sockets());
    },
  });

  const pool = database.pool;
  if (pool) {
    new Gauge({
      name: 'db_pool_connections',
      help: 'PostgreSQL pool connections of this instance: total open, idle, and requests waiting for one',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        this.set({ state: 'total' }, pool.totalCount);
        this.set({ state: 'idle' }, pool.idleCount);
        this.set({ state: 'waiting' }, pool.waitingCount);
      },
    });
    new Gauge({
      name: 'db_pool_max',
      help: 'The most connections the pool opens',
      registers: [registry],
      collect() {
        this.set(pool.options.max ?? 10);
      },
    });
  }

  // The outbox is shared by every instance: these are database-wide figures (use max(), not sum()).
  const outbox = new Gauge({
    name: 'mail_outbox_messages',
    help: 'Mail outbox rows: pending (queue depth), retrying (pending after a failed attempt), failed (gave up)',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      try {
        const [row] = await database.query<{ pending: number; retrying: number; failed: number }>(
          `select count(*) filter (where state = 'pending')::int as pending,
                  count(*) filter (where state = 'pending' and attempts > 0)::int as retrying,
                  count(*) filter (where state = 'failed')::int as failed
           from mail_outbox`,
        );
        outbox.set({ state: 'pending' }, row?.pending ?? 0);
        outbox.set({ state: 'retrying' }, row?.retrying ?? 0);
        outbox.set({ state: 'failed' }, row?.failed ?? 0);
      } catch (err) {
        // A scrape while the database is away still answers; the gauge keeps its last values.
        log.warn({ err: (err as Error).message }, 'metrics: mail outbox not readable');
      }
    },
  });

  return {
    registry,
    paymentOutcome: (outcome) => payments.inc({ outcome }),
    observeRequest(method, route, status, seconds) {
      const key = `${method} ${status} ${route}`;
      let child = children.get(key);
      if (!child) {
        child = duration.labels(method, route, String(status));
        children.set(key, child);
      }
      child.observe(seconds);
    },
    observePass: (pass, outcome, seconds) => passes.observe({ pass, outcome }, seconds),
    countSocketsWith(count) {
      sockets = count;
    },
  };
}
