import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { compileScript } from '../../../../tests/helpers/compiled-script.ts';
import { pgliteFolder } from '../../../../tests/helpers/pglite-copies.ts';
import { createThrowAwayDatabase } from '../../../../tests/helpers/test-app.ts';
import { openDatabase, type Database } from '../../db/client.ts';
import { migrate } from '../../db/migrate.ts';
import { passkeys, recoveryCodes } from '../../db/schema/account-security.ts';
import { users } from '../../db/schema/platform.ts';
import { createSession, findSession } from '../auth/sessions.ts';

// `npm run admin:reset-passkeys -- EMAIL` (decision 190), run as the operator runs it, against the
// database the server would use: the PGlite folder of DATA_DIR, or DATABASE_URL on PostgreSQL.

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const onPostgres = process.env.TEST_DB === 'postgres';
const dir = mkdtempSync(join(tmpdir(), 'reset-passkeys-'));
let env: NodeJS.ProcessEnv;
let dropPostgres: (() => Promise<void>) | undefined;

/** The database the command works on, opened only while the test looks at it (PGlite is one process's). */
async function withDatabase<T>(work: (d: Database) => Promise<T>): Promise<T> {
  const d = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: join(dir, 'data') });
  try {
    return await work(d);
  } finally {
    await d.close();
  }
}

// The script runs compiled once (tests/helpers/compiled-script.ts), without npm's and tsx's
// start-up in each run; the usage check runs the operator's command line (npm, then tsx).
const script = compileScript('scripts/admin-reset-passkeys.ts');

function run(...args: string[]) {
  return runWith(process.execPath, [script.file, ...args]);
}

function runWith(command: string, args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  env = { ...process.env };
  delete env.DATABASE_URL;
  if (onPostgres) {
    const pg = await createThrowAwayDatabase();
    env.DATABASE_URL = pg.url;
    dropPostgres = pg.drop;
  } else {
    // A copy of the run's migrated folder (migrate below finds nothing to do): no initdb here.
    env.DATA_DIR = pgliteFolder(join(dir, 'data'));
  }
  await withDatabase(async (d) => {
    await migrate(d);
    const [owner] = await d.db.insert(users).values({ email: 'owner@example.com', role: 'admin' }).returning();
    const [other] = await d.db.insert(users).values({ email: 'someone@example.com' }).returning();
    for (const u of [owner!, other!]) {
      await d.db
        .insert(passkeys)
        .values([1, 2].map((i) => ({ userId: u.id, credentialId: `${u.id}-${i}`, publicKey: 'AAAA', name: `Key ${i}` })));
      await d.db.insert(recoveryCodes).values(Array.from({ length: 10 }, (_, i) => ({ userId: u.id, codeHash: `hash-${i}` })));
    }
    env.OWNER_TOKEN = await createSession(d.db, owner!.id, 'laptop', { confirmed: true });
    env.OTHER_TOKEN = await createSession(d.db, other!.id, 'phone');
    await createSession(d.db, owner!.id, 'phone');
  });
});

afterAll(async () => {
  await dropPostgres?.();
  rmSync(dir, { recursive: true, force: true });
  script.remove();
});

describe('npm run admin:reset-passkeys -- EMAIL', () => {
  it("deletes that account's passkeys and recovery codes, ends its sessions, says what it did, and touches no one else", async () => {
    const res = await run('Owner@Example.com');
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('Reset owner@example.com (admin): deleted 2 passkey(s) and 10 recovery code(s), ended 2 session(s).');

    await withDatabase(async (d) => {
      const [owner] = await d.db.select().from(users).where(eq(users.email, 'owner@example.com'));
      const [other] = await d.db.select().from(users).where(eq(users.email, 'someone@example.com'));
      expect(await d.db.select().from(passkeys).where(eq(passkeys.userId, owner!.id))).toHaveLength(0);
      expect(await d.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, owner!.id))).toHaveLength(0);
      expect(await findSession(d.db, env.OWNER_TOKEN!)).toBeNull();
      // Someone else's passkeys, codes and session stay.
      expect(await d.db.select().from(passkeys).where(eq(passkeys.userId, other!.id))).toHaveLength(2);
      expect(await d.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, other!.id))).toHaveLength(10);
      expect((await findSession(d.db, env.OTHER_TOKEN!))?.user.id).toBe(other!.id);
    });

    const again = await run('owner@example.com');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('deleted 0 passkey(s) and 0 recovery code(s), ended 0 session(s)');
  });

  it('exits 2 with a message for an unknown address, and 1 with the usage without one', async () => {
    const unknown = await run('nobody@example.com');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No account with the e-mail nobody@example.com. Nothing was changed.');
    const usage = await runWith('npm', ['run', '--silent', 'admin:reset-passkeys']);
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('Usage: npm run admin:reset-passkeys -- EMAIL');
  });
});
