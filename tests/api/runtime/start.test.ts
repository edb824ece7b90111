import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { seedPgliteTemplate } from '../../helpers/pglite-copies.ts';
import { createThrowAwayDatabase } from '../../helpers/test-app.ts';
import { TEST_ENV, serverOutDir, alive, descendants, freePort, isListening, stubWebDist, waitFor, waitHealthy } from './server-process.ts';

// `npm start` runs the compiled server with plain node,
// builds the server when it is missing, and a supervisor's SIGTERM to the npm process alone stops
// the whole tree — the port closes and no process is left behind.
describe('npm start', () => {
  const cleanups: (() => unknown)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c();
  });

  it('builds the missing server, serves from plain JavaScript, and stops on SIGTERM to npm', async () => {
    const outDir = serverOutDir();
    cleanups.push(() => rmSync(outDir, { recursive: true, force: true }));
    const serverDir = join(outDir, 'server');
    // The build's PGlite template (made once per PGlite version, beside the server's folder) is
    // already there, as after any earlier build: this start compiles the server, not initdb.
    seedPgliteTemplate(outDir);
    const webDir = stubWebDist();
    const port = await freePort();
    const db = process.env.TEST_DATABASE_URL ? await createThrowAwayDatabase() : undefined;
    if (db) cleanups.push(() => db.drop());
    const dataDir = mkdtempSync(join(tmpdir(), 'npm-start-data-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));

    const npm = spawn('npm', ['start'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '/tmp',
        ...TEST_ENV,
        PORT: String(port),
        SERVER_DIST_DIR: serverDir,
        WEB_DIST_DIR: webDir,
        ...(db ? { DATABASE_URL: db.url } : { DATA_DIR: dataDir }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    npm.stdout.on('data', (d: Buffer) => (log += d.toString()));
    npm.stderr.on('data', (d: Buffer) => (log += d.toString()));
    const npmExited = new Promise((r) => npm.once('exit', r));
    let tree: number[] = [];
    cleanups.push(async () => {
      // Whatever a failed run left behind (reparented processes are no longer npm's descendants).
      for (const pid of [...tree, ...descendants(npm.pid!)]) if (alive(pid)) process.kill(pid, 'SIGKILL');
      if (npm.exitCode === null) npm.kill('SIGKILL');
    });

    await waitHealthy(port).catch((err: Error) => {
      throw new Error(`${err.message}\n${log}`);
    });
    expect(log).toContain('Building the server (first start)');
    expect(existsSync(join(serverDir, 'main.js'))).toBe(true);
    expect(existsSync(join(serverDir, 'migrations'))).toBe(true);
    // On PGlite the new data directory is a copy of the build's initialised template (no initdb
    // at run time: decision 060).
    if (!db) expect(existsSync(join(dataDir, '.pglite-version'))).toBe(true);

    tree = descendants(npm.pid!);
    const commands = tree.map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      } catch {
        return '';
      }
    });
    // The server itself is plain node running the bundle: no tsx anywhere in the tree.
    expect(commands.some((c) => c.includes(join(serverDir, 'main.js')))).toBe(true);
    expect(commands.join('\n')).not.toMatch(/tsx/);

    process.kill(npm.pid!, 'SIGTERM'); // the npm process alone, as a supervisor does
    await npmExited;
    await waitFor('the port to close', async () => !(await isListening(port)), 30_000);
    await waitFor('every process of the tree to end', () => tree.every((pid) => !alive(pid)), 30_000);
  }, 180_000);
});
