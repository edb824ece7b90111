import { afterAll, beforeAll, inject } from 'vitest';
import { buildApp, type BuiltApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { openDatabase } from '../../src/server/db/client.ts';
import { createThrowAwayDatabase } from './test-app.ts';

/**
 * Registers hooks that start `count` app instances on one fresh PostgreSQL database (as several
 * servers behind a load balancer would run) and stop them afterwards. Returns the live list.
 */
export function instancesOnPostgres(count: number, env: Record<string, string> = {}): BuiltApp[] {
  const apps: BuiltApp[] = [];
  let db: Awaited<ReturnType<typeof createThrowAwayDatabase>> | undefined;
  beforeAll(async () => {
    // A copy of the run's migrated template (tests/helpers/global-setup.ts); the instances' own
    // migrate then finds nothing to apply.
    db = await createThrowAwayDatabase({ template: inject('postgresTemplate') || undefined });
    for (let i = 0; i < count; i++) {
      const config = loadConfig(
        // ADMIN_STEP_UP off unless a test names it, as in buildTestApp (decision 190).
        {
          NODE_ENV: 'test',
          LOG_LEVEL: 'silent',
          DATABASE_URL: db.url,
          TEST_PAYMENTS_SECRET: 'shared-between-instances',
          ADMIN_STEP_UP: 'off',
          CHAT_BUSINESS_HOURS: 'Sun-Sat 00:00-24:00 UTC',
          ...env,
        },
        { dataDir: 'memory', webDistDir: '/nonexistent' },
      );
      const database = await openDatabase({ databaseUrl: db.url, dataDir: 'memory' });
      apps.push(await buildApp(config, { database, pollMail: false }));
    }
  });
  afterAll(async () => {
    for (const a of apps) {
      await a.app.close();
      await a.deps.database.close();
    }
    await db?.drop();
  });
  return apps;
}
