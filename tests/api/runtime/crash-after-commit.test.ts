import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSmtp } from '../../fakes/smtp.ts';
import { type CompiledScript, compileScript } from '../../helpers/compiled-script.ts';
import { pgliteFolder } from '../../helpers/pglite-copies.ts';
import { createThrowAwayDatabase } from '../../helpers/test-app.ts';

// Durable reactions (docs/decisions/200-durable-reactions.md): the process dies between the commit
// of a payment and the sending of its receipt — SIGKILL, nothing runs after it — and after a
// restart the receipt, with its invoice PDF rendered by the mail worker, is sent exactly once. So are
// the staff invitation and the founder's "new chat" notice, each killed right after its own commit
// (docs/decisions/340-mails-in-their-transaction.md). On the embedded PGlite (a data directory on
// disk) and on PostgreSQL.

const CUSTOMER = 'crash-receipt@example.com';
const OWNER = 'crash-owner@example.com';
const STAFF = 'crash-staff@example.com';
const VISITOR = 'crash-visitor@example.com';

// The child program, compiled once for the four processes it runs as (tests/helpers/compiled-script.ts).
let child: CompiledScript;
beforeAll(() => {
  child = compileScript(join(import.meta.dirname, 'crash-child.ts'));
}, 60_000);
afterAll(() => child?.remove());

function run(env: Record<string, string>) {
  const proc = spawn(process.execPath, [child.file], {
    env: { PATH: process.env.PATH ?? '', ...env, CUSTOMER, OWNER, STAFF, VISITOR },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<{
    code: number | null;
    signal: NodeJS.Signals | null;
  }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  return { child: proc, exited, output: () => out };
}

async function waitFor(what: string, check: () => boolean, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const backends: [string, boolean][] = [
  ['PGlite', true],
  ['PostgreSQL', Boolean(process.env.TEST_DATABASE_URL)],
];

describe.each(backends)('killed between commit and mail (%s)', (name, available) => {
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  let env: Record<string, string>;
  let cleanup: () => Promise<void> = async () => {};

  beforeAll(async () => {
    if (!available) return;
    smtp = await startFakeSmtp();
    if (name === 'PGlite') {
      // A copy of the run's migrated data directory: the crash is the subject here, not initdb.
      const dir = pgliteFolder(mkdtempSync(join(tmpdir(), 'crash-pglite-')));
      env = { DATA_DIR: dir, SMTP_URL: smtp.smtpUrl };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    } else {
      const db = await createThrowAwayDatabase();
      env = { DATABASE_URL: db.url, SMTP_URL: smtp.smtpUrl };
      cleanup = () => db.drop();
    }
  }, 60_000);
  afterAll(async () => {
    await smtp?.close();
    await cleanup();
  });

  it.skipIf(!available)(
    'sends the receipt, the staff invitation and the chat notice once each after a restart',
    async () => {
      const pay = run({ ...env, PHASE: 'pay' });
      const died = await pay.exited;
      // Killed by its own fault hook right after the commit: nothing was sent.
      expect(died, pay.output()).toEqual({ code: null, signal: 'SIGKILL' });
      expect(smtp.messages.filter((m) => m.to.includes(CUSTOMER))).toEqual([]);
      // The invitation and the chat notice: each process killed right after its change committed.
      for (const phase of ['invite', 'chat']) {
        const killed = run({ ...env, PHASE: phase });
        expect(await killed.exited, killed.output()).toEqual({ code: null, signal: 'SIGKILL' });
      }
      expect(smtp.messages).toEqual([]);

      const serve = run({ ...env, PHASE: 'serve' });
      try {
        const sent = (to: string, subject: RegExp) => smtp.messages.filter((m) => m.to.includes(to) && subject.test(m.subject));
        await waitFor(
          'the receipt, the invitation and the chat notice',
          () => [sent(CUSTOMER, /^Receipt:/), sent(STAFF, /invited/), sent(OWNER, /^New chat/)].every((l) => l.length > 0),
          240_000,
        );
        // Two more polls of the mail worker (every 2 s): nothing is sent twice.
        await new Promise((r) => setTimeout(r, 5000));
      } finally {
        serve.child.kill('SIGKILL');
        await serve.exited;
      }
      const receipts = smtp.messages.filter((m) => m.to.includes(CUSTOMER) && m.subject.startsWith('Receipt:'));
      expect(receipts, serve.output()).toHaveLength(1);
      expect(smtp.messages.filter((m) => m.to.includes(STAFF) && /invited/.test(m.subject))).toHaveLength(1);
      expect(smtp.messages.filter((m) => m.to.includes(OWNER) && m.subject.startsWith('New chat'))).toHaveLength(1);
      // The invoice PDF was rendered by the worker when it sent the mail.
      expect(receipts[0]!.attachments).toEqual([
        expect.objectContaining({
          contentType: 'application/pdf',
          filename: expect.stringMatching(/\.pdf$/),
        }),
      ]);
      expect(receipts[0]!.text).toMatch(/Invoice: (INV|TEST)\//);
      // Generous: each phase boots the app (and PGlite its data directory) on a busy 2-core machine.
    },
    360_000,
  );
});
