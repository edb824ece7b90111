import type { FastifyBaseLogger } from 'fastify';
import type { Database, Db, Tx } from '../../db/client.ts';
import { jobs } from '../../db/schema/jobs.ts';

// Stored follow-up work (docs/decisions/200-durable-reactions.md, docs/architecture.md "Events and
// jobs"). A reaction that is slow or may fail is not run after commit inside the request: it is a
// row written in the change's own transaction, run by the job pass of every instance. A row is
// claimed with SKIP LOCKED and leased (pushed into the future) while it runs, so two instances
// never run it together and a process that dies mid-run leaves it due again after the lease.
// A failure is retried with backoff; after the last attempt the row stays `failed` and the
// overview counts it. Handlers are idempotent: a job may run again after a crash.

const MAX_ATTEMPTS = 6;
const BATCH = 20;
const LEASE = "interval '5 minutes'";

export type JobHandler = (payload: Record<string, unknown>, now: Date) => Promise<void>;

export interface JobQueue {
  /** Stores a job in `tx` (the change's transaction); it runs once the change is committed. */
  enqueue(tx: Db | Tx, kind: string, payload?: Record<string, unknown>): Promise<void>;
  /** Registers what a kind of job does; once per kind, at build time (each feature's subscriptions.ts). */
  handle(kind: string, handler: JobHandler): void;
  /** Runs the jobs due at `now` (tests pass their clock); part of the job pass (run-jobs.ts). */
  runDue(now?: Date): Promise<{ done: number; retried: number; failed: number }>;
  /** Starts a pass soon after a commit that stored a job; lossy by design (the job pass catches up). */
  wake(): void;
  stop(): Promise<void>;
}

const backoffSeconds = (attempts: number) => Math.min(3600, 10 * 3 ** (attempts - 1));

export function createJobQueue(opts: { database: Database; log: Pick<FastifyBaseLogger, 'error' | 'warn'>; autoRun: boolean }): JobQueue {
  const { database, log } = opts;
  const handlers = new Map<string, JobHandler>();
  let stopped = false;
  let running: Promise<unknown> | null = null;
  let stored = false;

  async function runDue(at?: Date) {
    const now = at ?? new Date();
    const outcome = { done: 0, retried: 0, failed: 0 };
    const due = await database.query<{
      id: string;
      kind: string;
      payload: Record<string, unknown>;
      attempts: number;
    }>(
      `update jobs set run_at = now() + ${LEASE}
         where id in (select id from jobs where state = 'pending' and run_at <= coalesce($1::timestamptz, now())
                      order by run_at limit ${BATCH} for update skip locked)
       returning id, kind, payload, attempts`,
      // Without a given time, "due" is read on the database's clock, the one that stamped run_at:
      // Node's clock has only milliseconds, and a job stored in the same millisecond would
      // otherwise look due a few microseconds in the future.
      [at ?? null],
    );
    for (const job of due) {
      try {
        const handler = handlers.get(job.kind);
        if (!handler) throw new Error(`no handler for job kind "${job.kind}"`);
        await handler(job.payload, now);
        await database.query(`update jobs set state = 'done', done_at = now(), attempts = attempts + 1, last_error = null where id = $1`, [
          job.id,
        ]);
        outcome.done++;
      } catch (err) {
        const attempts = job.attempts + 1;
        const message = err instanceof Error ? err.message.slice(0, 500) : 'job failed';
        const failed = attempts >= MAX_ATTEMPTS;
        log.warn({ jobId: job.id, kind: job.kind, attempts }, `job failed${failed ? ' for the last time' : ''}: ${message}`);
        await database.query(
          `update jobs set attempts = $2, last_error = $3, state = $4, run_at = now() + make_interval(secs => $5) where id = $1`,
          [job.id, attempts, message, failed ? 'failed' : 'pending', backoffSeconds(attempts)],
        );
        if (failed) outcome.failed++;
        else outcome.retried++;
      }
    }
    return outcome;
  }

  return {
    async enqueue(tx, kind, payload = {}) {
      await tx.insert(jobs).values({ kind, payload });
      stored = true;
    },
    handle(kind, handler) {
      if (handlers.has(kind)) throw new Error(`job kind "${kind}" has a handler already`);
      handlers.set(kind, handler);
    },
    runDue,
    wake() {
      if (!opts.autoRun || stopped || !stored || running) return;
      stored = false;
      running = new Promise((r) => setImmediate(r))
        .then(() => runDue())
        .catch((err: unknown) => log.error({ err }, 'job queue'))
        .finally(() => {
          running = null;
        });
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}
