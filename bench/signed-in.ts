// Signed-in reads against their floor (docs/decisions/206-signed-in-reads-bench.md): the order list
// and each read of the order page (status, brief, files, reviews, messages, support) of a customer
// with a delivered order, on the compiled server (its own process), each measured between two windows
// of bench/floor-server.mjs — a bare node:http server doing one indexed select (session by token hash
// joined to the user's orders) on the same data — in the same run, 50 connections, with the load
// average. Targets: ≥ 0.5 of the floor with p99 < 50 ms on PostgreSQL; ≥ 0.4 with p99 < 150 ms on PGlite.
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import autocannon from 'autocannon';
import { freePort, isListening, startServer, waitFor, type ServerProcess } from '../tests/api/runtime/server-process.ts';
import { buildApp } from '../src/server/app.ts';
import { loadConfig } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { seedDeliveredOrder } from '../tests/fixtures/delivered-orders.ts';

type Kind = 'pglite' | 'postgres';
const TARGET: Record<Kind, { ratio: number; p99Ms: number }> = { postgres: { ratio: 0.5, p99Ms: 50 }, pglite: { ratio: 0.4, p99Ms: 150 } };

export interface SignedInRow {
  database: Kind;
  path: string;
  reqPerSec: number;
  floorReqPerSec: number;
  ratio: number;
  p99Ms: number;
  floorP99Ms: number;
  non2xx: number;
  errors: number;
  /** CPU time of the server process per answered request (user + system), and the floor's. */
  cpuMsPerRequest: number;
  floorCpuMsPerRequest: number;
  met: boolean;
}

// BENCH_READS="order status,brief" measures only those reads (by their names below), e.g. under a profiler.
const PATHS = (order: string) =>
  ALL_PATHS(order).filter((p) => !process.env.BENCH_READS || process.env.BENCH_READS.split(',').includes(p.name));
const ALL_PATHS = (order: string) => [
  { name: 'order list', path: '/api/v1/order/getAllOrders/user' },
  { name: 'order status', path: `/api/v1/status/getStatus/order/${order}` },
  { name: 'brief', path: `/api/v1/orders/${order}/brief` },
  { name: 'files', path: `/api/v1/orders/${order}/files` },
  { name: 'reviews', path: `/api/v1/orders/${order}/reviews` },
  { name: 'messages', path: `/api/v1/orders/${order}/messages` },
  { name: 'support', path: `/api/v1/orders/${order}/support` },
];

/** CPU milliseconds (user + system) a process has used, from /proc (Linux); NaN elsewhere. */
function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

// Besides req/s, the server's CPU time per request: on a shared machine the scheduler moves req/s,
// while CPU per request hardly moves, so floor CPU / app CPU says what the ratio would be on a
// quiet machine (both are one Node thread doing the work). 10 ms clock ticks: a coarse figure.
async function measure(url: string, headers: Record<string, string>, seconds: number, connections: number, pid?: number) {
  const cpuBefore = cpuMs(pid);
  const r = await autocannon({ url, connections, duration: seconds, headers });
  const answered = r.requests.total || 1;
  return {
    reqPerSec: Math.round(r.requests.average),
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    cpuMsPerRequest: Number(((cpuMs(pid) - cpuBefore) / answered).toFixed(2)),
  };
}

/** A database holding a customer with a delivered order, seeded through the features' own operations. */
async function prepare(kind: Kind, pgBase: string) {
  let env: Record<string, string>;
  let floorWhere: string;
  let drop: () => Promise<void>;
  if (kind === 'postgres') {
    const name = `bench_signed_in_${Date.now()}`;
    const admin = new pg.Client({ connectionString: pgBase });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(pgBase);
    url.pathname = `/${name}`;
    env = { DATABASE_URL: url.toString() };
    floorWhere = url.toString();
    drop = async () => {
      const c = new pg.Client({ connectionString: pgBase });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    };
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'bench-signed-in-'));
    env = { DATA_DIR: join(dir, 'app') };
    floorWhere = join(dir, 'floor');
    drop = async () => rmSync(dir, { recursive: true, force: true });
  }
  const config = loadConfig(
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', ADMIN_STEP_UP: 'off', ...env },
    { dataDir: env.DATA_DIR ?? 'memory', webDistDir: '/nonexistent' },
  );
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR ?? 'memory' });
  const built = await buildApp(config, { database, pollMail: false });
  const { customer, orderId } = await seedDeliveredOrder(built, 'bench-signed-in@example.com');
  await built.app.close();
  await database.close();
  // A PGlite directory belongs to one process: the floor reads its own copy of the same data.
  if (kind === 'pglite') cpSync(env.DATA_DIR!, floorWhere, { recursive: true });
  return { env, floorWhere, token: customer.token, orderId, drop };
}

async function startFloor(kind: Kind, where: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['bench/floor-server.mjs', String(port), kind, where], { stdio: ['ignore', 'ignore', 'inherit'] });
  await waitFor('floor server', () => isListening(port), 60_000);
  return { url: `http://127.0.0.1:${port}`, pid: child.pid, stop: () => child.kill('SIGKILL') };
}

export async function signedInReads(opts: { server: string; databases: Kind[]; pgBase: string; seconds: number; connections: number }) {
  const rows: SignedInRow[] = [];
  const loadBefore = loadavg();
  for (const kind of opts.databases) {
    let prepared;
    try {
      prepared = await prepare(kind, opts.pgBase);
    } catch (err) {
      console.log(`(signed-in reads on ${kind}: SKIPPED — ${(err as Error).message})`);
      continue;
    }
    let server: ServerProcess | undefined;
    let floor: Awaited<ReturnType<typeof startFloor>> | undefined;
    try {
      // READ_CACHE_MB=0 in the bench's environment measures the reads without kept answers (decision 341).
      const cache: Record<string, string> = process.env.READ_CACHE_MB === undefined ? {} : { READ_CACHE_MB: process.env.READ_CACHE_MB };
      server = await startServer(opts.server, { ...prepared.env, ...cache, WEB_DIST_DIR: '/nonexistent', LOG_LEVEL: 'error' });
      floor = await startFloor(kind, prepared.floorWhere);
      const headers = { authorization: `Bearer ${prepared.token}` };
      const paths = PATHS(prepared.orderId);
      // The proof that every read answers 200 for this customer (the floor too), then a warm-up of one
      // second under load each: a server in production has run its reads many times, and with 20
      // requests the first path measured still paid for V8's optimising compiler (decision 291).
      for (const p of [...paths.map((x) => `${server!.url}${x.path}`), `${floor.url}/`]) {
        for (let i = 0; i < 20; i++) {
          const r = await fetch(p, { headers });
          if (r.status !== 200) throw new Error(`${p} answered ${r.status}: ${await r.text()}`);
        }
        await autocannon({ url: p, connections: 10, duration: 1, headers });
      }
      let before = await measure(`${floor.url}/`, headers, opts.seconds, opts.connections, floor.pid);
      for (const p of paths) {
        const m = await measure(`${server.url}${p.path}`, headers, opts.seconds, opts.connections, server.child.pid);
        const after = await measure(`${floor.url}/`, headers, opts.seconds, opts.connections, floor.pid);
        const floorRps = (before.reqPerSec + after.reqPerSec) / 2;
        const row: SignedInRow = {
          database: kind,
          path: `${p.name} (${p.path.replace(prepared.orderId, ':id')})`,
          reqPerSec: m.reqPerSec,
          floorReqPerSec: Math.round(floorRps),
          ratio: Number((m.reqPerSec / floorRps).toFixed(3)),
          p99Ms: m.p99Ms,
          floorP99Ms: Math.max(before.p99Ms, after.p99Ms),
          non2xx: m.non2xx,
          errors: m.errors,
          cpuMsPerRequest: m.cpuMsPerRequest,
          floorCpuMsPerRequest: Number(((before.cpuMsPerRequest + after.cpuMsPerRequest) / 2).toFixed(2)),
          met: false,
        };
        row.met = row.ratio >= TARGET[kind].ratio && row.p99Ms < TARGET[kind].p99Ms && m.non2xx === 0 && m.errors === 0;
        before = after;
        rows.push(row);
        console.log(formatRow(row));
      }
    } catch (err) {
      console.error(`(signed-in reads on ${kind}: FAILED — ${(err as Error).message}\n${server?.output() ?? ''})`);
      process.exitCode = 1;
    } finally {
      await server?.stop();
      floor?.stop();
      await prepared.drop();
    }
  }
  const loadAfter = loadavg();
  const table = [
    `Signed-in reads, ratio to the floor (bench/floor-server.mjs: node:http + one indexed select on the same data) in the ` +
      `same run (${opts.connections} connections, ${opts.seconds} s per window)`,
    `load average before ${loadBefore.map((l) => l.toFixed(2)).join(' ')}, after ${loadAfter.map((l) => l.toFixed(2)).join(' ')}`,
    '',
    "CPU ms/req: the server process's CPU time per answered request, the app's and the floor's; CPU " +
      'ratio = floor CPU / app CPU (hardly moved by the load: what the ratio would be on a quiet machine; ' +
      'the CPU of PostgreSQL itself is in neither).',
    '',
    '| db | read | req/s | floor req/s | ratio | target | p99 | target | floor p99 | non-2xx | CPU ms/req (floor) | CPU ratio | met? |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...rows.map(formatRow),
  ].join('\n');
  return { rows, table, loadAverage: { before: loadBefore, after: loadAfter } };
}

function formatRow(r: SignedInRow) {
  const t = TARGET[r.database];
  return (
    `| ${r.database} | ${r.path} | ${r.reqPerSec} | ${r.floorReqPerSec} | **${r.ratio}** | ≥ ${t.ratio} | ${r.p99Ms} ms | < ` +
    `${t.p99Ms} ms | ${r.floorP99Ms} ms | ${r.non2xx} | ${r.cpuMsPerRequest} (${r.floorCpuMsPerRequest}) | ` +
    `${(r.floorCpuMsPerRequest / r.cpuMsPerRequest).toFixed(2)} | ${r.met ? 'met' : 'MISSED'} |`
  );
}
