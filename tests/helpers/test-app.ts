import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { buildApp, type BuiltApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema/platform.ts';
import { createSession } from '../../src/server/features/auth/sessions.ts';

export interface TestApp extends BuiltApp {
  close(): Promise<void>;
}

/**
 * The real app on a real database: an in-memory PGlite by default, or a fresh throw-away
 * database on the PostgreSQL named by TEST_DATABASE_URL when TEST_DB=postgres.
 */
export async function buildTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig(
    // ADMIN_STEP_UP off unless a test names it: the step-up has its own tests (decision 190).
    { NODE_ENV: 'test', LOG_LEVEL: 'silent', PUBLIC_URL: 'http://localhost:3000', ADMIN_STEP_UP: 'off', ...env },
    // No web build unless the test names one (WEB_DIST_DIR).
    { dataDir: 'memory', ...(env.WEB_DIST_DIR ? {} : { webDistDir: '/nonexistent' }) },
  );
  const pgUrl = process.env.TEST_DB === 'postgres' ? await createThrowAwayDatabase() : undefined;
  const database = await openDatabase({ databaseUrl: pgUrl?.url, dataDir: 'memory' });
  const built = await buildApp({ ...config, DATABASE_URL: pgUrl?.url }, { database, pollMail: false });
  return {
    ...built,
    async close() {
      await built.app.close();
      await database.close();
      await pgUrl?.drop();
    },
  };
}

/** A fresh database on TEST_DATABASE_URL's server, dropped by `drop()`. */
export async function createThrowAwayDatabase() {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** Creates (or reuses) a user and returns a bearer token for it — a real session row. */
export async function loginAs(t: BuiltApp, email: string, role: 'customer' | 'staff' | 'admin' = 'customer') {
  const [user] = await t.deps.db
    .insert(users)
    .values({ email: email.toLowerCase(), name: email.split('@')[0], role, phoneCode: '91', phoneNumber: '9876543210', address: 'Test street 1' })
    .onConflictDoUpdate({ target: users.email, set: { role } })
    .returning();
  const token = await createSession(t.deps.db, user!.id, 'vitest');
  return { user: user!, token, headers: { authorization: `Bearer ${token}` } };
}
