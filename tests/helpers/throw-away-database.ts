import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A fresh database on TEST_DATABASE_URL's server, dropped by `drop()`. Empty, or a copy of
 * `template` (`create database … template`, e.g. the run's migrated one from global-setup.ts).
 */
export async function createThrowAwayDatabase(options: { template?: string } = {}) {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`create database ${name}${options.template ? ` template ${pg.escapeIdentifier(options.template)}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
