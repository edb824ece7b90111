// Runs the compiled server as an operator does — a separate `node` process — for the tests of
// start-up, signals, shutdown and faults. The bundle is built once per test file into a temporary
// folder, so these tests never depend on (or disturb) the checkout's dist/.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { SERVER_NODE_FLAGS } from '../../../scripts/server-node-flags.mjs';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * A fresh folder for a compiled server inside the checkout's dist/ (git-ignored): the bundle keeps
 * node_modules packages external, so it must live where Node finds ../node_modules.
 */
export function serverOutDir(): string {
  mkdirSync('dist', { recursive: true });
  return resolve(mkdtempSync(join('dist', '.test-server-')));
}

/** Compiles src/server with scripts/build-server.mjs into a fresh folder; returns main.js. */
export function buildServer(): string {
  const out = serverOutDir();
  const r = spawnSync(process.execPath, ['scripts/build-server.mjs'], { env: { ...process.env, SERVER_DIST_DIR: out }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`server build failed: ${r.stderr}`);
  return join(out, 'main.js');
}

/** A minimal web build, so the server (and `npm start`) find an index.html. */
export function stubWebDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><!--site-config--></head><body>app</body></html>');
  return dir;
}

export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = connect(port, '127.0.0.1', () => {
      c.end();
      resolve(true);
    });
    c.on('error', () => resolve(false));
  });
}

export async function waitFor(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 60_000, everyMs = 50): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export async function waitHealthy(port: number, timeoutMs = 90_000): Promise<void> {
  await waitFor(
    `port ${port} to be healthy`,
    async () => {
      try {
        return (await fetch(`http://127.0.0.1:${port}/api/v1/health`)).ok;
      } catch {
        return false;
      }
    },
    timeoutMs,
  );
}

/** True while the process exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Every descendant of pid (children, grandchildren…), from /proc. */
export function descendants(pid: number): number[] {
  const out = spawnSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' }).stdout;
  const pairs = out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of pairs) {
      if (parent === p) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return found;
}

export interface ServerProcess {
  child: ChildProcess;
  port: number;
  url: string;
  /** Everything the process wrote to stderr and stdout so far. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stop(): Promise<void>;
}

export const TEST_ENV = {
  NODE_ENV: 'production',
  ALLOW_TEST_PAYMENTS: '1',
  ALLOW_DEV_MAILBOX: '1',
  LOG_LEVEL: 'warn',
  HOST: '127.0.0.1',
};

export async function startServer(main: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  // With production's node flags (scripts/server-node-flags.mjs).
  const child = spawn(process.execPath, [...SERVER_NODE_FLAGS, main], {
    env: { PATH: process.env.PATH ?? '', ...TEST_ENV, PUBLIC_URL: `http://127.0.0.1:${port}`, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const proc: ServerProcess = {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    output: () => log,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
  try {
    await Promise.race([
      waitHealthy(port),
      exited.then((e) => {
        throw new Error(`server exited during start (${JSON.stringify(e)}): ${log}`);
      }),
    ]);
  } catch (err) {
    await proc.stop();
    throw err;
  }
  return proc;
}
