import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
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

  it('stores a job only with its committed change, and runs it once across concurrent passes', async () => {
    await expect(
      t.deps.db.transaction(async (tx) => {
        await t.deps.jobs.enqueue(tx, 'test.record', { name: 'rolled-back' });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await t.deps.db.transaction((tx) => t.deps.jobs.enqueue(tx, 'test.record', { name: 'committed' }));
    await Promise.all([t.deps.jobs.runDue(), t.deps.jobs.runDue(), t.deps.jobs.runDue()]);
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
