import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type BuiltApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createThrowAwayDatabase, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { fileForm } from '../../../../tests/helpers/multipart.ts';
import { compileScript } from '../../../../tests/helpers/compiled-script.ts';
import { pgliteFolder } from '../../../../tests/helpers/pglite-copies.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';
import { DOCX, PNG } from '../../../../tests/fixtures/file-bytes.ts';

// `npm run db:backup` / `db:restore` carry the order files (decision 140): a site is backed up by
// the real script, restored by the real script into a new database and a new, empty files folder,
// and the restored site serves the same bytes under the same ids. PGlite on disk by default; two
// throw-away PostgreSQL databases with TEST_DB=postgres.

vi.setConfig({ testTimeout: 180_000, hookTimeout: 60_000 });

const work = mkdtempSync(join(tmpdir(), 'files-backup-'));
const drops: (() => Promise<void>)[] = [];
// scripts/db.ts compiled (tests/helpers/compiled-script.ts); src/server/db/backup.test.ts runs it
// through tsx as package.json does.
const dbScript = compileScript('scripts/db.ts');
afterAll(async () => {
  for (const drop of drops) await drop();
  rmSync(work, { recursive: true, force: true });
  dbScript.remove();
});

/**
 * A site: its database (a PGlite folder or a fresh PostgreSQL database) and its files folder. The
 * PGlite folder is a copy of the run's migrated one (the source) or of an empty one, initdb done
 * (the target of the restore), so neither process pays PGlite's initdb (tests/helpers/pglite-copies.ts).
 */
async function site(name: string, database: 'migrated' | 'empty') {
  const env: Record<string, string> = { DATA_DIR: join(work, `${name}-data`), FILES_DIR: join(work, `${name}-files`) };
  if (process.env.TEST_DB === 'postgres') {
    const db = await createThrowAwayDatabase();
    drops.push(db.drop);
    env.DATABASE_URL = db.url;
  } else {
    pgliteFolder(env.DATA_DIR!, database);
  }
  return env;
}

async function start(env: Record<string, string>): Promise<BuiltApp> {
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env }, { webDistDir: '/nonexistent' });
  return buildApp(config, { pollMail: false });
}

function script(command: 'backup' | 'restore', file: string, env: Record<string, string>) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
    const child = spawn(process.execPath, [dbScript.file, command, file], { env: childEnv });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

describe('backups carry the order files', () => {
  it('a site restored from db:backup into a new database and an empty files folder serves the same files', async () => {
    const source = await site('source', 'migrated');
    const app = await start(source);
    const { customer, orderId } = await seedPaidOrder(app as TestApp, 'backup.files@example.com');
    const uploaded: { id: string; bytes: Buffer }[] = [];
    for (const [name, bytes] of [
      ['logo.png', PNG],
      ['copy.docx', DOCX],
    ] as const) {
      const form = fileForm(name, bytes);
      const res = await app.app.inject({
        method: 'POST',
        url: `/api/v1/orders/${orderId}/files`,
        headers: { ...customer.headers, ...form.headers },
        payload: form.payload,
      });
      expect(res.statusCode, res.body).toBe(201);
      uploaded.push({ id: res.json().file.id, bytes });
    }
    await app.app.close();

    const file = join(work, 'site.backup');
    const backup = await script('backup', file, source);
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/Order files \(local storage → .*site\.backup\.files\): 2 files/);
    expect(existsSync(`${file}.files`)).toBe(true);

    const target = await site('target', 'empty');
    const restore = await script('restore', file, target);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toMatch(/Order files \(local storage ← .*\): 2 files/);

    const restored = await start(target);
    try {
      const { headers } = await loginAs(restored as TestApp, 'backup.files@example.com');
      const list = await restored.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/files`, headers });
      expect(
        list
          .json()
          .files.map((f: { id: string }) => f.id)
          .sort(),
      ).toEqual(uploaded.map((u) => u.id).sort());
      for (const u of uploaded) {
        const dl = await restored.app.inject({ method: 'GET', url: `/api/v1/orders/${orderId}/files/${u.id}`, headers });
        expect(dl.statusCode).toBe(200);
        expect(dl.rawPayload.equals(u.bytes)).toBe(true);
      }
    } finally {
      await restored.app.close();
    }
  });
});
