import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { instancesOnPostgres } from '../../../../tests/helpers/instances.ts';
import type { BuiltApp } from '../../app.ts';
import { jobs } from '../../db/schema/jobs.ts';

// The stored jobs (docs/decisions/200-durable-reactions.md): a job exists only if its change
// committed, runs once across concurrent passes, is retried with backoff, and after its last
// attempt stays `failed` where the founder's overview counts it.

const HOUR = 3600_000;
const at = (hours: number) => new Date(Date.now() + hours * HOUR);

describe('job queue', () => {
  let t: TestApp;
  const runs: string[] = [];
  let failUntil = 0;
  beforeAll(async () => {
    t = await buildTestApp();
    t.deps.jobs.handle('test.record', async (payload) => {
      runs.push(String(payload.name));
      if (runs.filter((r) => r === payload.name).length <= failUntil) throw new Error(`not yet: ${String(payload.name)}`);
    });
  }, 180_000);
  afterAll(async () => t?.close());

  it('stores a job only with its committed change, and runs it once', async () => {
    await expect(
      t.deps.db.transaction(async (tx) => {
        await t.deps.jobs.enqueue(tx, 'test.record', { name: 'rolled-back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await t.deps.db.transaction((tx) => t.deps.jobs.enqueue(tx, 'test.record', { name: 'committed' }));
    await t.deps.jobs.runDue();
    await t.deps.jobs.runDue();
    expect(runs).toEqual(['committed']);
    const [row] = await t.deps.db.select().from(jobs).where(eq(jobs.kind, 'test.record'));
    expect(row).toMatchObject({ state: 'done', attempts: 1, lastError: null });
  });

  it('retries a failing job with growing waits, then keeps it failed and counts it on the overview', async () => {
    runs.length = 0;
    failUntil = 100;
    await t.deps.jobs.enqueue(t.deps.db, 'test.record', { name: 'flaky' });
    await t.deps.jobs.enqueue(t.deps.db, 'test.unknown', {});
    expect(await t.deps.jobs.runDue()).toMatchObject({ retried: 2 });
    // Not due again at once: it waits (backoff), longer after each failure.
    expect(await t.deps.jobs.runDue()).toMatchObject({ done: 0, retried: 0, failed: 0 });
    const waitOfFlaky = async () => {
      const [row] = (await t.deps.db.select().from(jobs).where(eq(jobs.kind, 'test.record'))).filter((j) => j.state === 'pending');
      return row!.runAt.getTime() - Date.now();
    };
    const first = await waitOfFlaky();
    expect(first).toBeGreaterThan(5_000);
    await t.deps.jobs.runDue(at(2));
    expect(await waitOfFlaky()).toBeGreaterThan(first + 10_000);
    for (let hours = 4; hours <= 12; hours += 2) await t.deps.jobs.runDue(at(hours));
    const flaky = await t.deps.db.select().from(jobs).where(eq(jobs.kind, 'test.record'));
    expect(flaky.find((j) => j.state !== 'done')).toMatchObject({ state: 'failed', attempts: 6, lastError: 'not yet: flaky' });
    const [unknown] = await t.deps.db.select().from(jobs).where(eq(jobs.kind, 'test.unknown'));
    expect(unknown).toMatchObject({ state: 'failed', lastError: 'no handler for job kind "test.unknown"' });
    expect(runs).toHaveLength(6);

    const admin = await loginAs(t, 'jobs-owner@example.com', 'admin');
    const overview = await t.app.inject({ method: 'GET', url: '/api/v1/admin/overview', headers: admin.headers });
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.json().failedWork).toEqual({ jobs: 2, mails: 0 });
  });
});

// Concurrency needs connections of its own: PGlite is one connection in one process, so passes started
// "at once" on it run one after another and could never claim a job twice — a test there cannot fail.
// On PostgreSQL (the second pass of npm test) two instances, each with its own pool, race for the jobs.
describe.skipIf(!process.env.TEST_DATABASE_URL || process.env.TEST_DB !== 'postgres')(
  'job queue across two instances on PostgreSQL',
  () => {
    const apps = instancesOnPostgres(2);
    const runs: string[] = [];

    it('runs each job once when both instances run passes at the same time', async () => {
      const [a, b] = apps as [BuiltApp, BuiltApp];
      for (const app of [a, b])
        app.deps.jobs.handle('test.race', async (payload) => {
          runs.push(String(payload.name));
          // A handler that takes a moment keeps its row claimed while the other passes look.
          await new Promise((r) => setTimeout(r, 20));
        });
      const names = Array.from({ length: 30 }, (_, i) => `job-${i}`);
      await a.deps.db.transaction(async (tx) => {
        for (const name of names) await a.deps.jobs.enqueue(tx, 'test.race', { name });
      });
      const passes = await Promise.all([a.deps.jobs.runDue(), b.deps.jobs.runDue(), a.deps.jobs.runDue(), b.deps.jobs.runDue()]);
      // Each pass takes at most its batch (20): together they ran all 30, each once.
      expect(passes.reduce((n, p) => n + p.done, 0)).toBe(30);
      expect([...runs].sort()).toEqual([...names].sort());
      const rows = await a.deps.db.select().from(jobs).where(eq(jobs.kind, 'test.race'));
      expect(rows.every((r) => r.state === 'done' && r.attempts === 1)).toBe(true);
    });
  },
);
