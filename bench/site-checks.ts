// Site checks at scale (docs/decisions/325-site-checks-in-the-job-pass.md): ONE app instance
// (buildApp from the sources, its real check loop: SITE_CHECKS on, not in test mode) watching
// 2,000 sites every 60 s, against a local HTTP server in its own process that answers every
// request after a random delay (0–SITE_BENCH_MAX_DELAY_MS, default 800 ms). After one warm-up
// interval it measures for SITE_BENCH_SECONDS (default 120):
//   - start-time lateness: checked_at − scheduled_at of every check started in the window, p50/p95/max
//     (target p95 < 5 s);
//   - CPU of the instance's process (the server answering is another process): user+system over wall
//     time (target < 30 % of a core);
//   - RSS growth from the window's start to its end (target < 50 MB), and the peak;
//   - checks done against the 2,000 × window / 60 expected, and how many failed.
// On PGlite, then on PostgreSQL (BENCH_DATABASE_URL / TEST_DATABASE_URL or the machine's default; a
// database that does not answer is skipped, said so). Writes bench/results/site-checks.md with the
// load average before and after. `BENCH_DB=pglite|postgres` runs one.
import { spawn, type ChildProcess } from 'node:child_process';
import { loadavg, cpus } from 'node:os';
import { writeFileSync } from 'node:fs';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { insertOrder } from '../tests/fixtures/maintenance-orders.ts';
import { users } from '../src/server/db/schema/platform.ts';
import { createThrowAwayDatabase } from '../tests/helpers/throw-away-database.ts';

const SITES = Number(process.env.SITE_BENCH_SITES ?? 2000);
const INTERVAL = 60;
const SECONDS = Number(process.env.SITE_BENCH_SECONDS ?? 120);
const MAX_DELAY = Number(process.env.SITE_BENCH_MAX_DELAY_MS ?? 800);
const PG_BASE = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TARGETS = { lateP95Ms: 5000, cpuPercent: 30, rssGrowthMb: 50 };

/** The websites: one process, every answer after a random delay. */
async function startSiteServer(): Promise<{ port: number; child: ChildProcess }> {
  const code = `
    const http = require('node:http');
    const max = ${MAX_DELAY};
    const s = http.createServer((req, res) => setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>ok</h1>'), Math.random() * max));
    s.listen(0, '127.0.0.1', () => process.send(s.address().port));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve) => child.once('message', (m) => resolve(Number(m))));
  return { port, child };
}

/** A fresh PostgreSQL database for the run (tests' throw-away helper), or null when none answers. */
async function postgresUrl(): Promise<{ url: string; drop(): Promise<void> } | null> {
  process.env.TEST_DATABASE_URL = PG_BASE;
  return createThrowAwayDatabase().catch(() => null);
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : NaN);

async function measure(kind: 'pglite' | 'postgres', port: number) {
  const pgDb = kind === 'postgres' ? await postgresUrl() : null;
  if (kind === 'postgres' && !pgDb) return { kind, skipped: `no PostgreSQL at ${PG_BASE}` } as const;
  const config = loadConfig(
    {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      SITE_CHECKS: 'on',
      SITE_CHECK_ALLOW_PRIVATE: '1',
      SITE_CHECK_INTERVAL_SECONDS: String(INTERVAL),
      JOBS_POLL_SECONDS: '60',
      FUNNEL_ENABLED: '0',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
    },
    { dataDir: 'memory', webDistDir: '/nonexistent' },
  );
  const database = await openDatabase({ databaseUrl: pgDb?.url, dataDir: 'memory' });
  // The sites first, then the app (its loop starts with it).
  const { migrate } = await import('../src/server/db/migrate.ts');
  await migrate(database);
  const [owner] = await database.db.insert(users).values({ email: 'bench.sites@example.com', name: 'Bench', role: 'customer' }).returning();
  const order = await insertOrder(database.db, owner!.id, 'delivered', 'USD', 10);
  const started = Date.now();
  const values: string[] = [];
  const params: unknown[] = [];
  for (let i = 0; i < SITES; i++) {
    params.push(order.id, `http://127.0.0.1:${port}/site-${i}`, new Date(started + Math.random() * INTERVAL * 1000).toISOString());
    values.push(`($${params.length - 2}, $${params.length - 1}, $${params.length}::timestamptz, now() + interval '1 day')`);
    if (values.length === 500 || i === SITES - 1) {
      await database.query(`insert into watched_sites (order_id, url, next_check_at, next_daily_at) values ${values.join(',')}`, params);
      values.length = 0;
      params.length = 0;
    }
  }
  const built = await buildApp(config, { database, pollMail: false });
  const warmUpEnd = started + INTERVAL * 1000;
  await new Promise((r) => setTimeout(r, Math.max(0, warmUpEnd - Date.now())));
  const cpu0 = process.cpuUsage();
  const rss0 = process.memoryUsage().rss;
  let rssPeak = rss0;
  const t0 = Date.now();
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage().rss)), 1000);
  await new Promise((r) => setTimeout(r, SECONDS * 1000));
  clearInterval(sampler);
  const wall = Date.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const rss1 = process.memoryUsage().rss;
  const windowStart = new Date(t0).toISOString();
  const windowEnd = new Date(t0 + wall).toISOString();
  await built.app.close();
  const rows = await database.query<{ late: number; ok: boolean }>(
    `select extract(epoch from (checked_at - scheduled_at)) * 1000 as late, ok from site_check_results where checked_at >= ` +
      `$1::timestamptz and checked_at < $2::timestamptz`,
    [windowStart, windowEnd],
  );
  const [dupes] = await database.query<{ n: number }>(
    `select count(*)::int as n from (select site_id, scheduled_at from site_check_results group by 1, 2 having count(*) > 1) x`,
  );
  await database.close();
  await pgDb?.drop();
  const late = rows.map((r) => Number(r.late)).sort((a, b) => a - b);
  return {
    kind,
    checks: rows.length,
    expected: Math.round((SITES * SECONDS) / INTERVAL),
    failed: rows.filter((r) => !r.ok).length,
    twice: dupes?.n ?? 0,
    lateP50: pct(late, 0.5),
    lateP95: pct(late, 0.95),
    lateMax: late.at(-1) ?? NaN,
    cpuPercent: ((cpu.user + cpu.system) / 1000 / wall) * 100,
    rssGrowthMb: (rss1 - rss0) / 1024 / 1024,
    rssPeakMb: rssPeak / 1024 / 1024,
  };
}

const loadBefore = loadavg();
const server = await startSiteServer();
const kinds = (process.env.BENCH_DB ? [process.env.BENCH_DB] : ['pglite', 'postgres']) as ('pglite' | 'postgres')[];
const results = [];
try {
  for (const kind of kinds) {
    console.log(`▶ ${kind}: ${SITES} sites every ${INTERVAL} s, ${INTERVAL} s warm-up then ${SECONDS} s measured`);
    results.push(await measure(kind, server.port));
  }
} finally {
  server.child.kill();
}
const loadAfter = loadavg();

const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
const lines = [
  '# Site checks at scale (bench/site-checks.ts)',
  '',
  `One instance, ${SITES} sites every ${INTERVAL} s against a local server (its own process) answering after ` +
    `0–${MAX_DELAY} ms; ${SECONDS} s measured after a ${INTERVAL} s warm-up.`,
  `Run ${new Date().toISOString()} on ${cpus().length} cores (${cpus()[0]?.model ?? ''}), Node ${process.version}; load ` +
    `average before ${loadBefore.map((l) => l.toFixed(2)).join(' / ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' / ')}.`,
  '',
  '| database | checks (expected) | failed | run twice | lateness p50 / p95 / max | CPU of a core | RSS growth (peak) | targets |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
];
let missed = false;
for (const r of results) {
  if ('skipped' in r) {
    lines.push(`| ${r.kind} | skipped: ${r.skipped} | | | | | | |`);
    continue;
  }
  const ok = { late: r.lateP95 < TARGETS.lateP95Ms, cpu: r.cpuPercent < TARGETS.cpuPercent, rss: r.rssGrowthMb < TARGETS.rssGrowthMb };
  missed ||= !ok.late || !ok.cpu || !ok.rss;
  lines.push(
    `| ${r.kind} | ${r.checks} (${r.expected}) | ${r.failed} | ${r.twice} | ${Math.round(r.lateP50)} / ` +
      `${Math.round(r.lateP95)} / ${Math.round(r.lateMax)} ms | ${r.cpuPercent.toFixed(1)} % | ${r.rssGrowthMb.toFixed(1)} MB ` +
      `(${r.rssPeakMb.toFixed(0)} MB) | p95 < 5 s ${met(ok.late)}, CPU < 30 % ${met(ok.cpu)}, RSS < 50 MB ${met(ok.rss)} |`,
  );
}
lines.push('', 'Lateness is the start of a check after its slot (checked_at − scheduled_at); CPU and RSS are the instance process only.');
const md = `${lines.join('\n')}\n`;
console.log(md);
if (!process.env.SITE_BENCH_NO_WRITE) writeFileSync('bench/results/site-checks.md', md);
process.exit(missed ? 1 : 0);
