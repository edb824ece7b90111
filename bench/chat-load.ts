// Live chat under load: N visitor sockets, each its own chat and its own forwarded
// address (TRUST_PROXY), each sending a message every INTERVAL ms for SECONDS; round trip from
// sendMessage to the sender's own newMessage; lost messages, error acks, disconnects; the admin's
// getActiveChats latency during the run; server RSS; load average. Against a bare socket.io echo
// server in the same run. Scenarios: echo, one instance on PGlite, one on PostgreSQL, two on
// PostgreSQL + Redis (visitors split, admin on the first).
//   CHAT_SOCKETS (1000), CHAT_SECONDS (30), CHAT_INTERVAL_MS (2000), CHAT_SCENARIOS (all),
//   TEST_DATABASE_URL (postgres://postgres@127.0.0.1:5432/postgres), REDIS_BIN (/usr/bin/redis-server),
//   CHAT_NODE_ARGS (node flags for the servers; default scripts/server-node-flags.mjs)
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer, connect as netConnect } from 'node:net';
import { createServer } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { SERVER_NODE_FLAGS } from '../scripts/server-node-flags.mjs';

if (process.argv.includes('--echo-server')) {
  // The reference: socket.io with nothing behind it, answering like our server does.
  const http = createServer();
  const io = new Server(http, { path: '/socket.io', serveClient: false });
  io.on('connection', (socket) => {
    socket.on('sendMessage', (p: { chatId: string; message: string }, ack?: (a: unknown) => void) => {
      const m = { id: String(Date.now()), chatId: p.chatId, sender: 'user', message: p.message, createdAt: new Date().toISOString() };
      socket.emit('newMessage', m);
      ack?.({ ok: true, message: m });
    });
    socket.on('joinChat', (_id: string, ack?: (a: unknown) => void) => ack?.({ ok: true }));
    socket.on('getActiveChats', (ack?: (a: unknown) => void) => ack?.({ ok: true, summaries: [] }));
  });
  http.listen(Number(process.env.PORT), '127.0.0.1');
} else {
  await main();
}

async function main() {
  const SOCKETS = Number(process.env.CHAT_SOCKETS ?? 1000);
  const SECONDS = Number(process.env.CHAT_SECONDS ?? 30);
  const INTERVAL = Number(process.env.CHAT_INTERVAL_MS ?? 2000);
  const PG = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const REDIS_BIN = process.env.REDIS_BIN ?? '/usr/bin/redis-server';
  const scenarios = (process.env.CHAT_SCENARIOS ?? 'echo,pglite,postgres,postgres+redis×2').split(',');
  const ADMIN = 'founder@example.com';
  const children: ChildProcess[] = [];
  const cleanups: (() => Promise<void> | void)[] = [];
  process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

  const freePort = () =>
    new Promise<number>((resolve) => {
      const s = createNetServer();
      s.listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
  const waitForPort = async (port: number, ms = 300_000) => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const ok = await new Promise<boolean>((r) => {
        const c = netConnect(port, '127.0.0.1', () => (c.end(), r(true)));
        c.on('error', () => r(false));
      });
      if (ok) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error(`nothing listens on ${port}`);
  };
  const rssMb = (pid: number | undefined) => {
    try {
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return m ? Math.round(Number(m[1]) / 1024) : null;
    } catch {
      return null;
    }
  };

  /** A database with an admin session in it, made before the server opens it (PGlite: one process). */
  async function prepareDatabase(kind: 'pglite' | 'postgres') {
    const { openDatabase } = await import('../src/server/db/client.ts');
    const { migrate } = await import('../src/server/db/migrate.ts');
    const { createSession } = await import('../src/server/features/auth/sessions.ts');
    const { users } = await import('../src/server/db/schema/platform.ts');
    let env: Record<string, string>;
    let opened;
    if (kind === 'postgres') {
      const pg = (await import('pg')).default;
      const name = `bench_chat_${Date.now()}`;
      const c = new pg.Client({ connectionString: PG });
      await c.connect();
      await c.query(`create database ${name}`);
      await c.end();
      const url = new URL(PG);
      url.pathname = `/${name}`;
      env = { DATABASE_URL: url.toString() };
      opened = await openDatabase({ databaseUrl: url.toString(), dataDir: 'memory' });
      cleanups.push(async () => {
        const d = new pg.Client({ connectionString: PG });
        await d.connect();
        await d.query(`drop database if exists ${name} with (force)`);
        await d.end();
      });
    } else {
      const dir = mkdtempSync(join(tmpdir(), 'bench-chat-'));
      env = { DATA_DIR: dir };
      opened = await openDatabase({ dataDir: dir });
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    }
    await migrate(opened);
    const [user] = await opened.db
      .insert(users)
      .values({ email: ADMIN, name: 'Founder', role: 'admin', phoneCode: '91', phoneNumber: '9876543210', address: 'Bench street 1' })
      .returning();
    const token = await createSession(opened.db, user!.id, 'bench');
    await opened.close();
    return { env, token };
  }

  function startServer(env: Record<string, string>) {
    return (async () => {
      const port = await freePort();
      const built = existsSync('dist/server/main.js');
      // Production's node flags, or CHAT_NODE_ARGS instead, e.g. `--liftoff-only --cpu-prof
      // --cpu-prof-dir=/tmp/prof` (node refuses --cpu-prof in NODE_OPTIONS).
      const nodeArgs = process.env.CHAT_NODE_ARGS !== undefined ? process.env.CHAT_NODE_ARGS.split(' ').filter(Boolean) : SERVER_NODE_FLAGS;
      const args = [...nodeArgs, ...(built ? ['dist/server/main.js'] : ['--import', 'tsx', 'src/server/main.ts'])];
      const child = spawn(process.execPath, args, {
        env: {
          ...process.env,
          NODE_ENV: 'production',
          ALLOW_TEST_PAYMENTS: '1',
          ALLOW_DEV_MAILBOX: '1',
          LOG_LEVEL: 'error',
          PORT: String(port),
          HOST: '127.0.0.1',
          TRUST_PROXY: 'true',
          ADMIN_EMAILS: ADMIN,
          WEB_DIST_DIR: '/nonexistent',
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          ...env,
        },
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      children.push(child);
      await waitForPort(port);
      return { url: `http://127.0.0.1:${port}`, child };
    })();
  }

  async function startRedis() {
    const port = await freePort();
    const child = spawn(REDIS_BIN, ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    children.push(child);
    await waitForPort(port);
    return `redis://127.0.0.1:${port}`;
  }

  const pct = (sorted: number[], p: number) =>
    sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : NaN;
  const round = (n: number) => Math.round(n * 10) / 10;

  async function run(name: string, urls: string[], adminToken: string | null, echo: boolean) {
    const latencies: number[] = [];
    const pending = new Map<string, number>();
    let sent = 0;
    let errorAcks = 0;
    // "The chat is very busy" (UNAVAILABLE): the server's admission control, shown by the widget.
    let refusals = 0;
    let ackTimeouts = 0;
    let disconnects = 0;
    const sockets: Socket[] = [];
    // Visitors: each its own address and chat.
    const open = async (i: number) => {
      const url = urls[i % urls.length]!;
      const address = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
      let chatId = `echo${String(i).padStart(28, '0')}`;
      if (!echo) {
        const res = await fetch(`${url}/api/v1/chat/start`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
          body: '{"userId":"guest"}',
        });
        chatId = ((await res.json()) as { chatId: string }).chatId;
      }
      const s = connect(url, {
        path: '/socket.io',
        transports: ['websocket'],
        extraHeaders: { 'x-forwarded-for': address },
        reconnection: false,
        forceNew: true,
      });
      await new Promise<void>((resolve, reject) => {
        s.once('connect', () => resolve());
        s.once('connect_error', reject);
      });
      s.on('disconnect', (reason) => reason !== 'io client disconnect' && disconnects++);
      s.on('newMessage', (m: { message: string }) => {
        const t0 = pending.get(m.message);
        if (t0 === undefined) return;
        pending.delete(m.message);
        latencies.push(performance.now() - t0);
      });
      await s.timeout(30_000).emitWithAck('joinChat', chatId);
      sockets.push(s);
      return { s, chatId };
    };
    const visitors: { s: Socket; chatId: string }[] = [];
    for (let i = 0; i < SOCKETS; i += 50)
      visitors.push(...(await Promise.all(Array.from({ length: Math.min(50, SOCKETS - i) }, (_, j) => open(i + j)))));

    let admin: Socket | null = null;
    const adminLatencies: number[] = [];
    if (adminToken) {
      admin = connect(urls[0]!, {
        path: '/socket.io',
        transports: ['websocket'],
        auth: { token: adminToken },
        reconnection: false,
        forceNew: true,
      });
      await new Promise<void>((resolve) => admin!.once('connect', () => resolve()));
    }
    const load = [loadavg()[0]!];
    const timers: NodeJS.Timeout[] = [];
    const t0 = performance.now();
    visitors.forEach(({ s, chatId }, i) => {
      // Spread the sockets over the interval: a steady SOCKETS / INTERVAL messages per second.
      const first = setTimeout(
        () => {
          const tick = () => {
            if (performance.now() - t0 > SECONDS * 1000) return;
            const text = `v${i}#${sent++}`;
            pending.set(text, performance.now());
            s.timeout(30_000)
              .emitWithAck('sendMessage', { chatId, message: text })
              .then((ack: { ok: boolean; code?: string }) => {
                if (!ack.ok) {
                  if (ack.code === 'UNAVAILABLE') refusals++;
                  else errorAcks++;
                  pending.delete(text);
                }
              })
              // No ack within 30 s: counted once, as lost if its newMessage never comes (it stays
              // pending), as a slow delivery if it does — never as an error ack as well.
              .catch(() => ackTimeouts++);
          };
          tick();
          timers.push(setInterval(tick, INTERVAL));
        },
        (i * INTERVAL) / visitors.length,
      );
      timers.push(first);
    });
    if (admin) {
      const ask = async () => {
        const a0 = performance.now();
        await admin!
          .timeout(30_000)
          .emitWithAck('getActiveChats')
          .catch(() => undefined);
        adminLatencies.push(performance.now() - a0);
      };
      timers.push(setInterval(() => void ask(), 1000));
    }
    await new Promise((r) => setTimeout(r, SECONDS * 1000));
    load.push(loadavg()[0]!);
    timers.forEach((t) => clearInterval(t));
    // Grace for the last answers.
    const graceUntil = Date.now() + 10_000;
    while (pending.size > 0 && Date.now() < graceUntil) await new Promise((r) => setTimeout(r, 100));
    const lost = pending.size;
    for (const s of sockets) s.disconnect();
    admin?.disconnect();
    latencies.sort((a, b) => a - b);
    adminLatencies.sort((a, b) => a - b);
    return {
      scenario: name,
      sockets: visitors.length,
      sent,
      delivered: latencies.length,
      lost,
      errorAcks,
      refusals,
      ackTimeouts,
      disconnects,
      p50Ms: round(pct(latencies, 50)),
      p99Ms: round(pct(latencies, 99)),
      maxMs: round(latencies.at(-1) ?? NaN),
      adminGetActiveChatsP99Ms: adminToken ? round(pct(adminLatencies, 99)) : null,
      adminGetActiveChatsMaxMs: adminToken ? round(adminLatencies.at(-1) ?? NaN) : null,
      loadAverage1m: load.map(round),
    };
  }

  /** Why a scenario cannot run on this machine (said loudly, the others still run), or null. */
  async function missing(scenario: string): Promise<string | null> {
    if (scenario === 'echo') return null;
    if (scenario !== 'pglite' && scenario !== 'postgres' && scenario !== 'postgres+redis×2')
      return `unknown scenario (echo, pglite, postgres, postgres+redis×2)`;
    if (scenario !== 'pglite') {
      const pg = (await import('pg')).default;
      const c = new pg.Client({ connectionString: PG, connectionTimeoutMillis: 3000 });
      try {
        await c.connect();
        await c.query('select 1');
      } catch (err) {
        return `PostgreSQL does not answer at ${PG} (${(err as Error).message}); set TEST_DATABASE_URL`;
      } finally {
        await c.end().catch(() => {});
      }
    }
    if (scenario === 'postgres+redis×2' && !existsSync(REDIS_BIN)) return `no redis-server at ${REDIS_BIN}; set REDIS_BIN`;
    return null;
  }

  type Result = Awaited<ReturnType<typeof run>> & { rssMb: (number | null)[] };
  const results: Result[] = [];
  const notRun: { scenario: string; status: 'SKIPPED' | 'FAILED'; why: string }[] = [];
  for (const scenario of scenarios) {
    const why = await missing(scenario);
    if (why) {
      console.warn(`!! ${scenario}: SKIPPED — ${why}`);
      notRun.push({ scenario, status: 'SKIPPED', why });
      continue;
    }
    console.log(`… ${scenario}`);
    let servers: { url: string; child: ChildProcess }[] = [];
    try {
      let token: string | null = null;
      if (scenario === 'echo') {
        const port = await freePort();
        const child = spawn(process.execPath, ['--import', 'tsx', 'bench/chat-load.ts', '--echo-server'], {
          env: { ...process.env, PORT: String(port) },
          stdio: 'inherit',
        });
        children.push(child);
        await waitForPort(port);
        servers = [{ url: `http://127.0.0.1:${port}`, child }];
      } else if (scenario === 'pglite' || scenario === 'postgres') {
        const db = await prepareDatabase(scenario);
        token = db.token;
        servers = [await startServer(db.env)];
      } else {
        const db = await prepareDatabase('postgres');
        token = db.token;
        const redis = await startRedis();
        servers = await Promise.all([startServer({ ...db.env, REDIS_URL: redis }), startServer({ ...db.env, REDIS_URL: redis })]);
      }
      const r = await run(
        scenario,
        servers.map((s) => s.url),
        token,
        scenario === 'echo',
      );
      const rss = servers.map((s) => rssMb(s.child.pid));
      results.push({ ...r, rssMb: rss });
      console.log(JSON.stringify(results.at(-1)));
    } catch (err) {
      console.error(`!! ${scenario}: FAILED — ${(err as Error).stack ?? String(err)}`);
      notRun.push({ scenario, status: 'FAILED', why: (err as Error).message });
    } finally {
      for (const s of servers) {
        if (s.child.exitCode !== null) continue;
        s.child.kill('SIGTERM');
        await new Promise((resolve) => (s.child.exitCode !== null ? resolve(null) : s.child.once('exit', resolve)));
      }
      for (const c of cleanups.splice(0)) await Promise.resolve(c()).catch(() => {});
    }
  }
  children.forEach((c) => c.exitCode === null && c.kill('SIGKILL'));

  const echoP99 = results.find((r) => r.scenario === 'echo')?.p99Ms;
  const TARGET = { p99Ms: 50, pgliteP99Ms: 1000, lost: 0, disconnects: 0, adminMs: 200 };
  const target =
    `p99 < ${TARGET.p99Ms} ms with no refusal on PostgreSQL; on PGlite bounded under overload: p99 < ${TARGET.pgliteP99Ms} ` +
    `ms, refusals ("the chat is very busy", shown by the widget) allowed; ` +
    `everywhere ${TARGET.lost} lost, no other error ack, ${TARGET.disconnects} disconnects, admin getActiveChats < ${TARGET.adminMs} ms`;
  // The echo row is the reference, not a target; every other row is judged against the targets.
  const verdict = (r: Result) => {
    if (r.scenario === 'echo') return 'reference';
    const latency = r.scenario === 'pglite' ? r.p99Ms < TARGET.pgliteP99Ms : r.p99Ms < TARGET.p99Ms && r.refusals === 0;
    return latency &&
      r.lost === TARGET.lost &&
      r.disconnects === TARGET.disconnects &&
      r.errorAcks === 0 &&
      (r.adminGetActiveChatsMaxMs ?? 0) < TARGET.adminMs
      ? 'met'
      : 'MISSED';
  };
  const lines = [
    '# Chat under load (bench/chat-load.ts)',
    '',
    `${new Date().toISOString()} — ${SOCKETS} visitor sockets, one message every ${INTERVAL / 1000} s each for ${SECONDS} s ` +
      `(${Math.round((SOCKETS * 1000) / INTERVAL)} messages/s). Target: ${target}.`,
    '',
    '| scenario | sent | lost | error acks | busy refusals | ack timeouts | disconnects | p50 ms | p99 ' +
      'ms (target < 50; PGlite < 1000) | p99 ÷ echo p99 | max ms | admin getActiveChats p99 / max ms ' +
      '(target < 200) | server RSS MB | load avg 1 min (start → end) | met? |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(
      (r) =>
        `| ${r.scenario} | ${r.sent} | ${r.lost} | ${r.errorAcks} | ${r.refusals} | ${r.ackTimeouts} | ${r.disconnects} | ` +
        `${r.p50Ms} | ${r.p99Ms} | ${echoP99 ? round(r.p99Ms / echoP99) : '–'} | ${r.maxMs} | ` +
        `${r.adminGetActiveChatsP99Ms ?? '–'} / ${r.adminGetActiveChatsMaxMs ?? '–'} | ${r.rssMb.join(' + ')} | ` +
        `${r.loadAverage1m.join(' → ')} | ${verdict(r)} |`,
    ),
    ...notRun.map((n) => `| ${n.scenario} | | | | | | | | | | | | | | ${n.status}: ${n.why.replace(/\|/g, '/')} |`),
    '',
    'The load generator (all sockets) runs in one process on the same 2-core machine as the servers; the ' +
      'echo row is what the machine and the generator cost by themselves. An ack timeout (30 s) is counted ' +
      'once: as lost if the message never arrived.',
  ];
  console.log(lines.join('\n'));
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    'bench/results/chat-load.json',
    `${JSON.stringify({ date: new Date().toISOString(), sockets: SOCKETS, seconds: SECONDS, intervalMs: INTERVAL, results, notRun }, null, 2)}\n`,
  );
  writeFileSync('bench/results/chat-load.md', `${lines.join('\n')}\n`);
  // A scenario that could not run is reported above; only a crash of one that could is a failure.
  if (notRun.some((n) => n.status === 'FAILED')) process.exitCode = 1;
  process.exit();
}
