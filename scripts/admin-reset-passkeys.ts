// `npm run admin:reset-passkeys -- EMAIL` (docs/operations.md "Passkeys and the back office's step-up").
// Deletes the account's passkeys and recovery codes and ends its sessions, in the database the
// server would use: DATABASE_URL, else the PGlite files in DATA_DIR. Exit 2: no such account.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { envSchema } from '../src/server/config.ts';
import { openDatabase } from '../src/server/db/client.ts';
import { resetPasskeys } from '../src/server/features/passkeys/reset-passkeys.ts';

function fail(message: string, code = 1): never {
  console.error(message);
  process.exit(code);
}

const email = process.argv[2]?.trim();
if (!email || process.argv.length > 3) fail('Usage: npm run admin:reset-passkeys -- EMAIL');

const env = envSchema.pick({ DATABASE_URL: true, DATA_DIR: true }).safeParse(process.env);
if (!env.success) fail(`Invalid environment: ${env.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
const { DATABASE_URL, DATA_DIR } = env.data;

if (!DATABASE_URL) {
  // PGlite is one process's folder: the server holds it (postmaster.pid) while it runs.
  if (existsSync(join(DATA_DIR, 'postmaster.pid'))) {
    fail(`${resolve(DATA_DIR)} is in use by a running server (postmaster.pid). Stop the server first, then run this again.`);
  }
  if (!existsSync(join(DATA_DIR, 'PG_VERSION'))) fail(`No database in ${resolve(DATA_DIR)} (set DATA_DIR or DATABASE_URL).`);
}

const database = await openDatabase({ databaseUrl: DATABASE_URL, dataDir: DATA_DIR });
try {
  const done = await resetPasskeys(database.db, email);
  if (!done) {
    await database.close();
    fail(`No account with the e-mail ${email}. Nothing was changed.`, 2);
  }
  console.log(
    `Reset ${done.email} (${done.role}): deleted ${done.passkeys} passkey(s) and ${done.recoveryCodes} recovery code(s), ended ${done.sessions} session(s).\n` +
      'Running servers stop accepting those sessions within seconds. The account signs in again with an e-mail code' +
      (done.role === 'customer' ? '.' : ' and is asked to add a new passkey (which shows ten new recovery codes).'),
  );
} catch (err) {
  fail(`Reset failed: ${err instanceof Error ? err.message : String(err)}`);
} finally {
  await database.close().catch(() => {});
}
