import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CompiledScript, compileScript } from '../../../tests/helpers/compiled-script.ts';
import { openEmptyPglite, pgliteFolder } from '../../../tests/helpers/pglite-copies.ts';
import { createThrowAwayDatabase, openTestDatabase } from '../../../tests/helpers/test-app.ts';
import { type Database, openDatabase } from './client.ts';
import { migrate } from './migrate.ts';
import { BackupError, backupDatabase, restoreDatabase } from './backup.ts';

const pgBase = process.env.TEST_DATABASE_URL;
const dir = mkdtempSync(join(tmpdir(), 'backup-test-'));
const opened: { close(): Promise<void> }[] = [];
let n = 0;
const file = () => join(dir, `b${++n}.backup`);

/**
 * An in-memory PGlite: a copy of the run's migrated database (a source, which `seed` fills), or an
 * empty one, initdb done (a target to restore into) — no initdb in this file
 * (tests/helpers/pglite-copies.ts).
 */
async function pglite(kind: 'migrated' | 'empty'): Promise<Database> {
  const d = kind === 'empty' ? await openEmptyPglite() : (await openTestDatabase()).database;
  opened.push(d);
  return d;
}

async function postgres(): Promise<Database & { url: string }> {
  const tmp = await createThrowAwayDatabase();
  const d = await openDatabase({ databaseUrl: tmp.url, dataDir: 'memory' });
  opened.push({ close: async () => (await d.close(), await tmp.drop()) });
  return Object.assign(d, { url: tmp.url });
}

/** An order with both installments paid, payment attempts and events, a chat, an audit entry. */
async function seed(d: Database) {
  await migrate(d);
  await d.execScript(`
    insert into users (id, email, name, role, created_at) values
      ('00000000-0000-4000-8000-000000000001', 'buyer@example.com', 'O''Brien "Bob" ☕', 'customer', '2026-01-02 03:04:05.123456+00'),
      ('00000000-0000-4000-8000-000000000002', 'admin@example.com', 'Admin', 'admin', now());
    insert into orders (id, public_id, user_id, plan_id, currency, list_price, price, fee, total, state) values
      ('00000000-0000-4000-8000-0000000000a1', 'WA-TEST-1', '00000000-0000-4000-8000-000000000001', 'business', 'INR',
       9007199254740993, 9007199254740993, 0, 9007199254740993, 'paid');
    insert into installments (id, order_id, kind, amount, currency, state, provider_payment_id, paid_at) values
      ('00000000-0000-4000-8000-0000000000b1', '00000000-0000-4000-8000-0000000000a1', 'advance', 4000, 'INR', 'paid', 'pay_1', now()),
      ('00000000-0000-4000-8000-0000000000b2', '00000000-0000-4000-8000-0000000000a1', 'remaining', 6000, 'INR', 'paid', 'pay_2', now());
    insert into payment_attempts (installment_id, provider, provider_order_id, amount, currency, receipt, state, provider_payment_id, paid_at) values
      ('00000000-0000-4000-8000-0000000000b1', 'test', 'order_1', 4000, 'INR', 'r1', 'paid', 'pay_1', now()),
      ('00000000-0000-4000-8000-0000000000b2', 'test', 'order_2', 6000, 'INR', 'r2', 'paid', 'pay_2', now());
    insert into payment_events (provider, event_id, event_type, provider_order_id, outcome) values
      ('razorpay', 'evt_1', 'payment.captured', 'order_1', 'settled');
    insert into chat_conversations (id, user_id, state, last_message) values
      ('c0ffeec0ffeec0ffeec0ffeec0ffee01', '00000000-0000-4000-8000-000000000001', 'open', 'bye');
    insert into chat_messages (conversation_id, sender, body) values
      ('c0ffeec0ffeec0ffeec0ffeec0ffee01', 'user', E'Hello,\\n\\t"quoted" \\\\ back\\\\slash, ünïcødé 🚀'),
      ('c0ffeec0ffeec0ffeec0ffeec0ffee01', 'admin', 'Hi! How can we help?'),
      ('c0ffeec0ffeec0ffeec0ffeec0ffee01', 'user', 'bye');
    insert into admin_audit_log (actor_user_id, actor_email, action, entity, entity_id, before, after) values
      ('00000000-0000-4000-8000-000000000002', 'admin@example.com', 'order.stage', 'order', 'WA-TEST-1',
       '{"stage": 1, "nested": {"list": [1, 2.50, null, "x"]}}', '{"stage": 2, "big": 12345678901234567890}');
  `);
}

/** Every row of every table in PostgreSQL's text form, sorted: equal means identical data. */
async function snapshot(d: Database) {
  await d.execScript(`set timezone to 'UTC'`);
  const tables = await d.query<{ name: string }>(
    `select relname as name from pg_class where relnamespace = 'public'::regnamespace and relkind = 'r'
     and relname <> 'socket_io_attachments' order by 1`,
  );
  const out: Record<string, string[]> = {};
  for (const { name } of tables) {
    out[name] = (await d.query<{ r: string }>(`select t::text as r from public."${name}" t order by 1`)).map((r) => r.r);
  }
  return out;
}

async function expectSeedFound(d: Database) {
  const [order] = await d.query<{ total: string }>(`select total::text as total from orders where public_id = 'WA-TEST-1'`);
  expect(order?.total).toBe('9007199254740993');
  const paid = await d.query(`select 1 from installments i join payment_attempts p on p.installment_id = i.id where p.state = 'paid'`);
  expect(paid).toHaveLength(2);
  const messages = await d.query<{ body: string }>(`select body from chat_messages order by seq`);
  expect(messages.map((m) => m.body)).toEqual(['Hello,\n\t"quoted" \\ back\\slash, ünïcødé 🚀', 'Hi! How can we help?', 'bye']);
  const [audit] = await d.query<{ after: string; created_at: string }>(`select after::text as after from admin_audit_log`);
  expect(audit?.after).toBe('{"big": 12345678901234567890, "stage": 2}');
  // The identity sequence continues after the restored rows.
  await d.execScript(
    `insert into chat_messages (conversation_id, sender, body) values ('c0ffeec0ffeec0ffeec0ffeec0ffee01', 'admin', 'after restore')`,
  );
  const [last] = await d.query<{ seq: string }>(`select seq::text as seq from chat_messages where body = 'after restore'`);
  expect(Number(last?.seq)).toBe(4);
}

// scripts/db.ts compiled once for the file (tests/helpers/compiled-script.ts); the refusals of
// db:backup (PGlite) and db:restore (PostgreSQL) run it as package.json does, through tsx.
let dbScript: CompiledScript | undefined;
beforeAll(() => {
  dbScript = compileScript('scripts/db.ts');
}, 60_000);

afterAll(async () => {
  for (const d of opened.reverse()) await d.close().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
  dbScript?.remove();
});

// The file opens two PGlites: the source (unless TEST_DB=postgres) and one target that first
// proves a refused restore leaves it empty.
const SLOW = 180_000;

describe('db backup and restore', () => {
  let source: Database;
  let target: Database;
  let backup: string;
  beforeAll(async () => {
    source = process.env.TEST_DB === 'postgres' ? await postgres() : await pglite('migrated');
    await seed(source);
    backup = file();
    const summary = await backupDatabase(source, backup);
    expect(summary.rows.chat_messages).toBe(3);
    target = await pglite('empty');
  }, SLOW);

  it(
    'refuses an incomplete or foreign file and leaves the target empty',
    async () => {
      const lines = gunzipSync(readFileSync(backup)).toString('utf8').trimEnd().split('\n');
      const truncated = file();
      writeFileSync(truncated, gzipSync(lines.slice(0, -1).join('\n')));
      await expect(restoreDatabase(target, truncated)).rejects.toThrow(/incomplete/);
      const tables = await target.query(`select 1 from pg_class where relnamespace = 'public'::regnamespace`);
      expect(tables).toHaveLength(0);

      const foreign = file();
      writeFileSync(foreign, gzipSync('{"hello":"world"}\n'));
      await expect(restoreDatabase(target, foreign)).rejects.toThrow(BackupError);
      const newer = file();
      writeFileSync(newer, gzipSync(`${lines[0]!.replace('"migrations":[', '"migrations":["9999_future.sql",')}\n`));
      await expect(restoreDatabase(target, newer)).rejects.toThrow(/newer version of the app .*9999_future/);
    },
    SLOW,
  );

  it(
    `restores an order with payments, chat messages and an audit entry into an empty database ` +
      `(${process.env.TEST_DB === 'postgres' ? 'PostgreSQL → PGlite' : 'PGlite → PGlite'})`,
    async () => {
      const summary = await restoreDatabase(target, backup);
      expect(summary.rows.orders).toBe(1);
      expect(await snapshot(target)).toEqual(await snapshot(source));
      await expectSeedFound(target);
    },
    SLOW,
  );

  it(
    'refuses a restore into a database that is not empty, and changes nothing',
    async () => {
      const before = await snapshot(source);
      await expect(restoreDatabase(source, backup)).rejects.toThrow(/Refusing to restore: the target database is not empty/);
      expect(await snapshot(source)).toEqual(before);
    },
    SLOW,
  );

  it('never overwrites an existing backup file', async () => {
    await expect(backupDatabase(source, backup)).rejects.toThrow(/EEXIST/);
  });

  it.skipIf(!pgBase)(
    'PGlite → PostgreSQL: backup from one, restore into the other',
    async () => {
      const from = source.kind === 'pglite' ? source : target;
      const f = file();
      await backupDatabase(from, f);
      const to = await postgres();
      await restoreDatabase(to, f);
      expect(await snapshot(to)).toEqual(await snapshot(from));
      const [order] = await to.query<{ total: string }>(`select total::text as total from orders where public_id = 'WA-TEST-1'`);
      expect(order?.total).toBe('9007199254740993');
    },
    SLOW,
  );

  it.skipIf(!pgBase)(
    'the npm scripts: db:backup from PostgreSQL, db:restore into an empty one, refused into a full one',
    async () => {
      const from = await postgres();
      await seed(from);
      const to = await postgres();
      const f = file();
      const backupRun = await npmScript('backup', f, from.url);
      expect(backupRun.code, backupRun.output).toBe(0);
      expect(backupRun.output).toMatch(/Backed up .* on PostgreSQL to .*: \d+ tables, \d+ rows/);
      const restoreRun = await npmScript('restore', f, to.url);
      expect(restoreRun.code, restoreRun.output).toBe(0);
      await expectSeedFound(to);
      const again = await npmScript('restore', f, to.url, undefined, 'tsx');
      expect(again.code).toBe(1);
      expect(again.output).toMatch(/Refusing to restore: the target database is not empty/);
    },
    SLOW,
  );
});

// The scripts on PGlite folders (DATA_DIR, no DATABASE_URL), as an operator of the embedded
// default runs them: a folder in use is refused, a stopped one backs up and restores.
describe.skipIf(process.env.TEST_DB === 'postgres')('the npm scripts on PGlite folders', () => {
  it(
    'db:backup refuses a folder in use, backs up a stopped one; db:restore fills an empty folder',
    async () => {
      // Copies of the run's folders (tests/helpers/pglite-copies.ts): a migrated one that `seed`
      // fills, and an empty one (initdb done) that db:restore fills.
      const from = pgliteFolder(join(dir, 'pglite-from'));
      const d = await openDatabase({ dataDir: from });
      await seed(d);
      await d.close();
      const f = file();
      writeFileSync(join(from, 'postmaster.pid'), '-42\n');
      const busy = await npmScript('backup', f, undefined, from, 'tsx');
      expect(busy.code).toBe(1);
      expect(busy.output).toMatch(/in use by a running server \(postmaster\.pid\)/);
      rmSync(join(from, 'postmaster.pid'));
      const backupRun = await npmScript('backup', f, undefined, from);
      expect(backupRun.code, backupRun.output).toBe(0);
      const to = pgliteFolder(join(dir, 'pglite-to'), 'empty');
      const restoreRun = await npmScript('restore', f, undefined, to);
      expect(restoreRun.code, restoreRun.output).toBe(0);
      const restored = await openDatabase({ dataDir: to });
      opened.push(restored);
      await expectSeedFound(restored);
    },
    SLOW,
  );
});

if (!pgBase) console.warn('backup.test.ts: TEST_DATABASE_URL not set — the PGlite → PostgreSQL move and the npm scripts are SKIPPED');

/** scripts/db.ts: compiled, or as package.json's db:backup and db:restore run it (`node --import tsx`). */
function npmScript(
  command: 'backup' | 'restore',
  f: string,
  databaseUrl: string | undefined,
  dataDir?: string,
  how: 'compiled' | 'tsx' = 'compiled',
) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl };
    if (!databaseUrl) delete env.DATABASE_URL;
    if (dataDir) env.DATA_DIR = dataDir;
    const program = how === 'tsx' || !dbScript ? ['--import', 'tsx', 'scripts/db.ts'] : [dbScript.file];
    const child = spawn(process.execPath, [...program, command, f], { env });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}
