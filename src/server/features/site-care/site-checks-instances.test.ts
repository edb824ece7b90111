import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { instancesOnPostgres } from '../../../../tests/helpers/instances.ts';
import { insertOrder } from '../../../../tests/fixtures/maintenance-orders.ts';
import { loginAs } from '../../../../tests/helpers/test-app.ts';
import { startFakeSite, type FakeSite } from '../../../../tests/fakes/sites.ts';
import { runDueChecks, startCheckLoop } from './checks.ts';

// Two instances on one PostgreSQL database share the checks (docs/decisions/325-site-checks-in-the-job-pass.md):
// a due check is claimed by one of them with SKIP LOCKED and moved one interval on in the same
// statement, so no check runs twice in an interval — whether both run the pass at the same instant
// or both run their loop side by side. PostgreSQL only (PGlite is one process by nature).

const SITES = 60;
const INTERVAL = 30;
const onPostgres = process.env.TEST_DB === 'postgres';

describe.runIf(onPostgres)('site checks on two instances', () => {
  const apps = instancesOnPostgres(2, { SITE_CHECKS: 'on', SITE_CHECK_ALLOW_PRIVATE: '1', SITE_CHECK_INTERVAL_SECONDS: String(INTERVAL) });
  let site: FakeSite;
  beforeAll(async () => {
    site = await startFakeSite();
    site.state.maxDelayMs = 50;
    const [a] = apps;
    const owner = await loginAs(a!, 'two.instances@example.com');
    const start = new Date(Date.now() - 1000).toISOString();
    for (let i = 0; i < SITES / 4; i++) {
      const order = await insertOrder(a!.deps.db, owner.user.id, 'delivered', 'USD', 1);
      for (let j = 0; j < 4; j++)
        await a!.deps.database.query(`insert into watched_sites (order_id, url, next_check_at) values ($1, $2, $3)`, [
          order.id,
          `${site.url}o${i}/s${j}`,
          start,
        ]);
    }
  }, 60_000);
  afterAll(async () => site?.close());

  const countRuns = async () =>
    apps[0]!.deps.database.query<{ site_id: string; scheduled_at: string; n: number }>(
      `select site_id, scheduled_at::text, count(*)::int as n from site_check_results group by site_id, scheduled_at`,
    );

  it('two passes at the same instant run each due check once between them', async () => {
    const now = new Date();
    const [x, y] = await Promise.all(apps.map((app) => runDueChecks(app.deps, now)));
    expect(x! + y!).toBe(SITES);
    const runs = await countRuns();
    expect(runs).toHaveLength(SITES);
    expect(runs.every((r) => r.n === 1)).toBe(true);
    // Again at the same instant: nothing is due until the next interval.
    expect((await Promise.all(apps.map((app) => runDueChecks(app.deps, now)))).reduce((a, b) => a + b)).toBe(0);
  }, 60_000);

  it("the instances' loops side by side run each check once per interval", async () => {
    // Every site due now; both loops claim every 100 ms for two seconds.
    await apps[0]!.deps.database.query(`delete from site_check_results`);
    await apps[0]!.deps.database.query(`update watched_sites set next_check_at = now() - interval '1 second'`);
    const loops = apps.map((app) => startCheckLoop(app.deps, { tickMs: 100 }));
    await new Promise((r) => setTimeout(r, 2000));
    await Promise.all(loops.map((l) => l.stop()));
    const runs = await countRuns();
    expect(runs).toHaveLength(SITES);
    expect(runs.every((r) => r.n === 1)).toBe(true);
    const [byInstance] = await apps[0]!.deps.database.query<{ n: number }>(`select count(*)::int as n from site_check_results`);
    expect(byInstance!.n).toBe(SITES);
  }, 60_000);
});
