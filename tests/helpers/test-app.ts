import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { buildApp, type BuiltApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase, type Database } from '../../src/server/db/client.ts';
import { users } from '../../src/server/db/schema/platform.ts';
import { createSession } from '../../src/server/features/auth/sessions.ts';
import { createThrowAwayDatabase } from './throw-away-database.ts';

export { createThrowAwayDatabase };

/** CHAT_BUSINESS_HOURS that never close: tests see the live chat answered whatever the clock says. */
export const ALWAYS_OPEN = 'Sun-Sat 00:00-24:00 UTC';

export interface TestApp extends BuiltApp {
  close(): Promise<void>;
}

let snapshot: Blob | undefined;

/**
 * A migrated database of its own: an in-memory PGlite loaded from the run's snapshot, or a copy of
 * the run's template database on TEST_DATABASE_URL when TEST_DB=postgres (both made once by
 * tests/helpers/global-setup.ts; without them, e.g. under another config, an empty one that
 * buildApp migrates). `drop()` removes the PostgreSQL copy.
 */
export async function openTestDatabase(): Promise<{ database: Database; url?: string; drop(): Promise<void> }> {
  if (process.env.TEST_DB === 'postgres') {
    const template = inject('postgresTemplate');
    const copy = await createThrowAwayDatabase({ template: template || undefined });
    return { database: await openDatabase({ databaseUrl: copy.url, dataDir: 'memory' }), url: copy.url, drop: copy.drop };
  }
  const file = inject('pgliteSnapshot');
  if (file && !snapshot) snapshot = new Blob([readFileSync(file)]);
  return { database: await openDatabase({ dataDir: 'memory', loadDataDir: snapshot }), drop: async () => {} };
}

/**
 * The real app on a real database: an in-memory PGlite by default, or a fresh throw-away
 * database on the PostgreSQL named by TEST_DATABASE_URL when TEST_DB=postgres — each a copy of
 * the run's migrated one (openTestDatabase); buildApp's own migrate finds nothing left to apply.
 */
export async function buildTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const config = loadConfig(
    // ADMIN_STEP_UP off unless a test names it: the step-up has its own tests (decision 190). The chat
    // answers around the clock unless a test names its hours (features/chat/chat-console.test.ts).
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      PUBLIC_URL: 'http://localhost:3000',
      ADMIN_STEP_UP: 'off',
      CHAT_BUSINESS_HOURS: ALWAYS_OPEN,
      ...env,
    },
    // No web build unless the test names one (WEB_DIST_DIR).
    { dataDir: 'memory', ...(env.WEB_DIST_DIR ? {} : { webDistDir: '/nonexistent' }) },
  );
  const { database, url, drop } = await openTestDatabase();
  const built = await buildApp({ ...config, DATABASE_URL: url }, { database, pollMail: false });
  return {
    ...built,
    async close() {
      await built.app.close();
      await database.close();
      await drop();
    },
  };
}

/** Creates (or reuses) a user and returns a bearer token for it — a real session row. */
export async function loginAs(t: BuiltApp, email: string, role: 'customer' | 'staff' | 'admin' = 'customer') {
  const [user] = await t.deps.db
    .insert(users)
    .values({
      email: email.toLowerCase(),
      name: email.split('@')[0],
      role,
      phoneCode: '91',
      phoneNumber: '9876543210',
      address: 'Test street 1',
    })
    .onConflictDoUpdate({ target: users.email, set: { role } })
    .returning();
  const token = await createSession(t.deps.db, user!.id, 'vitest');
  return { user: user!, token, headers: { authorization: `Bearer ${token}` } };
}
