// Start-up budget of the compiled server: time from spawn to a healthy
// /api/v1/health, resident memory once healthy and after it settles, and the peak (VmHWM).
// Each database starts fresh (a throw-away PostgreSQL database, an empty PGlite directory), the
// worst case: every migration runs. A bare `node:http` server spawned the same way is the
// baseline, so a busy machine shows up as a high bare figure rather than as a false regression.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../tests/api/runtime/server-process.ts';
// Started as production starts it (STARTUP_NODE_FLAGS, space-separated, replaces them for an experiment).
import { SERVER_NODE_FLAGS as PRODUCTION_FLAGS } from '../scripts/server-node-flags.mjs';
const SERVER_NODE_FLAGS =
  process.env.STARTUP_NODE_FLAGS !== undefined ? process.env.STARTUP_NODE_FLAGS.split(' ').filter(Boolean) : PRODUCTION_FLAGS;

const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3);
const PG_BASE = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const SERVER = 'dist/server/main.js';
const SETTLE_MS = 3000;
const TIMEOUT_MS = 60_000;

interface Sample {
  healthyMs: number;
  rssAtHealthyMb: number;
  rssSettledMb: number;
  hwmMb: number;
}

function memoryMb(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kb('VmRSS') / 1024, hwm: kb('VmHWM') / 1024 };
}

async function waitHealthy(url: string, child: ReturnType<typeof spawn>): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 15));
  }
  throw new Error(`not healthy within ${TIMEOUT_MS} ms`);
}

async function measure(args: string[], env: Record<string, string>, healthPath: string): Promise<Sample> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitHealthy(`http://127.0.0.1:${port}${healthPath}`, child);
    const healthyMs = performance.now() - started;
    const atHealthy = memoryMb(child.pid!);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const settled = memoryMb(child.pid!);
    return { healthyMs, rssAtHealthyMb: atHealthy.rss, rssSettledMb: settled.rss, hwmMb: settled.hwm };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

const BASE_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  ALLOW_TEST_PAYMENTS: '1',
  ALLOW_DEV_MAILBOX: '1',
  PUBLIC_URL: 'http://127.0.0.1',
};

async function onPostgres(): Promise<Sample> {
  const name = `bench_startup_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: PG_BASE });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(PG_BASE);
    url.pathname = `/${name}`;
    return await measure([...SERVER_NODE_FLAGS, SERVER], { ...BASE_ENV, DATABASE_URL: url.toString() }, '/api/v1/health');
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

async function onPglite(): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-startup-pglite-'));
  try {
    return await measure([...SERVER_NODE_FLAGS, SERVER], { ...BASE_ENV, DATA_DIR: dir }, '/api/v1/health');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const BARE = `require('node:http').createServer((q,s)=>s.end('ok')).listen(process.env.PORT,'127.0.0.1')`;
const bare = () => measure(['-e', BARE], {}, '/');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
function summarise(samples: Sample[]): Sample {
  return {
    healthyMs: median(samples.map((s) => s.healthyMs)),
    rssAtHealthyMb: median(samples.map((s) => s.rssAtHealthyMb)),
    rssSettledMb: median(samples.map((s) => s.rssSettledMb)),
    hwmMb: Math.max(...samples.map((s) => s.hwmMb)),
  };
}

if (!existsSync(SERVER) || process.env.BENCH_REBUILD === '1') {
  const r = spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const loadBefore = loadavg();
const rows: Record<string, Sample[]> = { bare: [], postgres: [], pglite: [] };
// Interleaved so that a burst of load elsewhere hits every kind alike.
for (let i = 0; i < RUNS; i++) {
  rows.bare!.push(await bare());
  rows.postgres!.push(await onPostgres());
  rows.pglite!.push(await onPglite());
}
const loadAfter = loadavg();

const TARGETS: Record<string, { healthyMs: number; rssMb: number; hwmMb: number } | undefined> = {
  postgres: { healthyMs: 2000, rssMb: 150, hwmMb: 350 },
  pglite: { healthyMs: 4000, rssMb: 250, hwmMb: 350 },
};
const fmt = (n: number) => (Math.round(n * 10) / 10).toString();
const lines = [
  '# Start-up budget (bench/startup.ts)',
  '',
  `${new Date().toISOString()} · ${RUNS} runs each (median; peak = highest VmHWM) · Node ${process.version} ${SERVER_NODE_FLAGS.join(' ')} · ` +
    `load average ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' / ')} after`,
  '',
  'Compiled server (`node dist/server/main.js`, NODE_ENV=production) on a fresh database; RSS settled = ' +
    `${SETTLE_MS / 1000} s after healthy. "bare" is a bare node:http server spawned the same way.`,
  '',
  '| run | healthy (ms) | ×bare | RSS at healthy (MB) | RSS settled (MB) | VmHWM peak (MB) | targets (ms / RSS / peak) | met |',
  '|---|---|---|---|---|---|---|---|',
];
const bareSummary = summarise(rows.bare!);
let allMet = true;
for (const [name, samples] of Object.entries(rows)) {
  const s = summarise(samples);
  const t = TARGETS[name];
  const met = t ? s.healthyMs <= t.healthyMs && s.rssSettledMb <= t.rssMb && s.hwmMb <= t.hwmMb : undefined;
  if (met === false) allMet = false;
  lines.push(
    `| ${name} | ${fmt(s.healthyMs)} | ${fmt(s.healthyMs / bareSummary.healthyMs)} | ${fmt(s.rssAtHealthyMb)} | ${fmt(s.rssSettledMb)} | ${fmt(s.hwmMb)} | ` +
      `${t ? `${t.healthyMs} / ${t.rssMb} / ${t.hwmMb}` : '—'} | ${met === undefined ? '—' : met ? 'yes' : 'NO'} |`,
  );
}
lines.push(
  '',
  'Every run:',
  '',
  '```json',
  JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v * 10) / 10 : v)),
  '```',
  '',
);
console.log(lines.join('\n'));
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/startup.md', lines.join('\n'));
if (!allMet) console.warn('startup: some targets were not met (see bench/results/startup.md; time depends on machine load)');
