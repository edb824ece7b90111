// Server throughput as a ratio to a bare node:http server measured in the same run
// (bench/README.md): the machine is shared, so absolute numbers move; the ratio is the figure. The app runs
// as production runs it (the compiled dist/server/main.js, its own process, serving dist/web), the
// bare server in its own process too, autocannon (50 connections) in this one. Bare is measured
// right before and right after each of the app's paths (interleaved); the ratio uses their mean. Each database: PGlite always,
// PostgreSQL when BENCH_DATABASE_URL / TEST_DATABASE_URL (or the machine's default) answers.
// Then the signed-in reads against their own floor (bench/signed-in.ts).
// Env: BENCH_SECONDS (5 per path), BENCH_DB (pglite,postgres), BENCH_API_PARTS (public,signed-in).
// Writes bench/results/api.{json,md}.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import autocannon from 'autocannon';
import { freePort, isListening, startServer, waitFor, type ServerProcess } from '../tests/api/runtime/server-process.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { migrate } from '../src/server/db/migrate.ts';
import { users } from '../src/server/db/schema/platform.ts';
import { createSession } from '../src/server/features/auth/sessions.ts';
import { signedInReads } from './signed-in.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const SERVER = 'dist/server/main.js';
const WEB = 'dist/web';
const PG_BASE = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASES = (process.env.BENCH_DB ?? 'pglite,postgres').split(',');
const PARTS = (process.env.BENCH_API_PARTS ?? 'public,signed-in').split(',');

interface Target {
  name: string;
  path: string;
  min: { pglite: number; postgres: number };
  headers?: Record<string, string>;
  /** Gives each request its own forwarded address (per-visitor limits, as real visitors would). */
  perVisitor?: boolean;
  signedIn?: boolean;
}

// The signed-in part needs only the compiled server (`node scripts/build-server.mjs`); the public
// part serves the pages and assets of the whole build too.
if (!existsSync(SERVER) || (PARTS.includes('public') && !existsSync(join(WEB, 'prerendered', 'manifest.json')))) {
  console.error(
    'bench/api.ts needs the build: run `npm run build` first, or `npm run bench`, which builds when dist/ is missing ' +
      `(${SERVER}${PARTS.includes('public') ? `, ${WEB}/prerendered/manifest.json` : ''})`,
  );
  process.exit(1);
}
// A small hashed asset, as a browser asks for it.
const asset = !PARTS.includes('public')
  ? 'none'
  : readdirSync(join(WEB, 'assets'))
      .filter((f) => /^[\w-]+-[\w-]{8}\.js$/.test(f))
      .map((f) => ({ f, size: statSync(join(WEB, 'assets', f)).size }))
      .filter((a) => a.size > 1024)
      .sort((a, b) => a.size - b.size)[0]!.f;
const browser = { 'accept-encoding': 'gzip, deflate, br' };

const TARGETS: Target[] = [
  { name: 'prerendered page /about', path: '/about', min: { pglite: 0.5, postgres: 0.5 }, headers: browser },
  { name: `hashed asset /assets/${asset}`, path: `/assets/${asset}`, min: { pglite: 0.5, postgres: 0.5 }, headers: browser },
  { name: 'GET /api/v1/promotion', path: '/api/v1/promotion', min: { pglite: 0.4, postgres: 0.4 } },
  { name: 'GET /api/v1/pricing/currencies', path: '/api/v1/pricing/currencies?country=IN', min: { pglite: 0.4, postgres: 0.4 } },
  { name: 'GET /api/v1/geo/weather', path: '/api/v1/geo/weather', min: { pglite: 0.4, postgres: 0.4 }, perVisitor: true },
  { name: 'GET /api/v1/health', path: '/api/v1/health', min: { pglite: 0.3, postgres: 0.3 } },
  {
    name: 'signed-in order/getAllOrders/user',
    path: '/api/v1/order/getAllOrders/user',
    min: { pglite: 0.1, postgres: 0.2 },
    signedIn: true,
  },
];
const P99_MAX_MS = 50;

interface Measure {
  reqPerSec: number;
  p99Ms: number;
  non2xx: number;
  errors: number;
}

async function measure(url: string, headers: Record<string, string> = {}, perVisitor = false): Promise<Measure> {
  let n = 0;
  const r = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    headers,
    // 10.x addresses: private, so the geolocation adapter answers without the network.
    ...(perVisitor
      ? {
          requests: [
            {
              setupRequest: (req: { headers?: Record<string, string> }) => ({
                ...req,
                headers: { ...req.headers, ...headers, 'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n++ & 255}` },
              }),
            },
          ],
        }
      : {}),
  });
  return { reqPerSec: Math.round(r.requests.average), p99Ms: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

async function startBare() {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      '-e',
      `require('node:http').createServer((q, s) => { s.writeHead(200, { 'content-type': 'application/json' }); ` +
        `s.end('{"status":"ok"}'); }).listen(${port}, '127.0.0.1')`,
    ],
    { stdio: 'ignore' },
  );
  await waitFor('bare server', () => isListening(port), 30_000);
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill('SIGKILL') };
}

/** A database with one customer and a session for the signed-in read; returns the token. */
async function prepareDatabase(kind: string): Promise<{ env: Record<string, string>; token: string; drop(): Promise<void> }> {
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  let database;
  if (kind === 'postgres') {
    const name = `bench_${Date.now()}`;
    const admin = new pg.Client({ connectionString: PG_BASE });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(PG_BASE);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString() };
    database = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory' });
    drop = async () => {
      const c = new pg.Client({ connectionString: PG_BASE });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
    env = { DATA_DIR: dir };
    database = await openDatabase({ dataDir: dir });
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  await migrate(database);
  const [user] = await database.db
    .insert(users)
    .values({
      email: 'bench@example.com',
      name: 'Bench',
      role: 'customer',
      phoneCode: '91',
      phoneNumber: '9876543210',
      address: 'Bench street 1',
    })
    .returning();
  const token = await createSession(database.db, user!.id, 'bench');
  await database.close();
  return { env, token, drop };
}

const rows: Record<string, unknown>[] = [];
const fmt = (r: Record<string, unknown>) =>
  `| ${String(r.database)} | ${String(r.path)} | ${String(r.reqPerSec)} | ${String(r.bareReqPerSec)} | ` +
  `**${String(r.ratio)}** | ≥ ${String(r.target)} | ${String(r.p99Ms)} ms | < ${P99_MAX_MS} ms | ${String(r.non2xx)} | ${r.met ? 'met' : 'MISSED'} |`;
const loadBefore = loadavg();
for (const kind of PARTS.includes('public') ? DATABASES : []) {
  let prepared;
  try {
    prepared = await prepareDatabase(kind);
  } catch (err) {
    console.log(`(${kind}: SKIPPED — no database: ${(err as Error).message})`);
    continue;
  }
  let server: ServerProcess | undefined;
  const bare = await startBare();
  try {
    server = await startServer(SERVER, { ...prepared.env, WEB_DIST_DIR: WEB, TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'error' });
    // Warm-up: first requests fill caches and JIT; brotli of the pages is done on the thread pool.
    for (const t of TARGETS)
      await fetch(`${server.url}${t.path}`, { headers: { ...t.headers, authorization: `Bearer ${prepared.token}` } });
    await new Promise((r) => setTimeout(r, 1000));
    // Interleaved: bare, path 1, bare, path 2, …, bare. Each path's ratio uses the bare windows right
    // before and right after it, so a change in the machine's load hits both sides of the ratio.
    let bareBefore = await measure(`${bare.url}/`);
    for (const t of TARGETS) {
      const headers = { ...t.headers, ...(t.signedIn ? { authorization: `Bearer ${prepared.token}` } : {}) };
      const m = await measure(`${server.url}${t.path}`, headers, t.perVisitor);
      const bareAfter = await measure(`${bare.url}/`);
      const bareRps = (bareBefore.reqPerSec + bareAfter.reqPerSec) / 2;
      bareBefore = bareAfter;
      const ratio = Number((m.reqPerSec / bareRps).toFixed(3));
      const min = t.min[kind as 'pglite' | 'postgres'];
      const row = {
        database: kind,
        path: t.name,
        reqPerSec: m.reqPerSec,
        bareReqPerSec: Math.round(bareRps),
        ratio,
        target: min,
        p99Ms: m.p99Ms,
        non2xx: m.non2xx,
        errors: m.errors,
        met: ratio >= min && m.p99Ms < P99_MAX_MS && m.non2xx === 0 && m.errors === 0,
      };
      rows.push(row);
      console.log(fmt(row));
    }
  } catch (err) {
    // One database failing must not hide the other's figures.
    console.error(`(${kind}: FAILED — ${(err as Error).message})`);
    process.exitCode = 1;
  } finally {
    await server?.stop();
    bare.stop();
    await prepared.drop();
  }
}
const loadAfter = loadavg();
const signedIn = PARTS.includes('signed-in')
  ? await signedInReads({
      server: SERVER,
      databases: DATABASES as ('pglite' | 'postgres')[],
      pgBase: PG_BASE,
      seconds: SECONDS,
      connections: CONNECTIONS,
    })
  : undefined;

const table = [
  `API throughput, ratio to bare node:http in the same run (${CONNECTIONS} connections, ${SECONDS} s per path)`,
  `load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ` +
    `${loadAfter.map((l) => l.toFixed(2)).join(' ')} (${(await import('node:os')).cpus().length} cores)`,
  '',
  '| db | path | req/s | bare req/s | ratio | target | p99 | target | non-2xx | met? |',
  '|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map(fmt),
  ...(signedIn ? ['', signedIn.table] : []),
].join('\n');
console.log(table);
mkdirSync('bench/results', { recursive: true });
const out = {
  date: new Date().toISOString(),
  connections: CONNECTIONS,
  secondsPerPath: SECONDS,
  loadAverage: { before: loadBefore, after: loadAfter },
  rows,
  signedIn,
};
writeFileSync('bench/results/api.json', `${JSON.stringify(out, null, 2)}\n`);
writeFileSync('bench/results/api.md', `${table}\n`);
