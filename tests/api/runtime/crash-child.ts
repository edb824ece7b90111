// The app in a child process for tests/api/runtime/crash-after-commit.test.ts. PHASE=pay: a
// customer pays the advance on the test checkout, and the test-only fault hook of buildApp
// (afterCommitFault) kills this process with SIGKILL right after the settling transaction
// commits — before anything else learns of the commit. PHASE=serve: the same database again, the
// mail worker polling, as after a restart. PHASE=invite: the owner invites a staff member, killed
// right after that commit; PHASE=chat: the founder's "new chat" notice is claimed, killed right after
// that commit (docs/decisions/340-mails-in-their-transaction.md). The test runs it compiled
// (tests/helpers/compiled-script.ts).
import { buildApp } from '../../../src/server/app.ts';
import { loadConfig } from '../../../src/server/config.ts';
import { openDatabase } from '../../../src/server/db/client.ts';
import { loginAs } from '../../helpers/test-app.ts';
import { emailOwnerNewChat } from '../../../src/server/features/chat/notify.ts';
import { openCheckout, payInstallment } from '../../helpers/test-checkout.ts';

const env = process.env;
const config = loadConfig(
  {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://localhost:3000',
    ADMIN_STEP_UP: 'off',
    ADMIN_EMAILS: env.OWNER ?? 'crash-owner@example.com',
    SMTP_URL: env.SMTP_URL,
    ...(env.DATABASE_URL ? { DATABASE_URL: env.DATABASE_URL } : {}),
  },
  { dataDir: env.DATA_DIR ?? 'memory', webDistDir: '/nonexistent' },
);
const database = await openDatabase({
  databaseUrl: config.DATABASE_URL,
  dataDir: config.dataDir,
});
let armed = false;
const built = await buildApp(config, {
  database,
  pollMail: env.PHASE === 'serve',
  // The killed phases only queue: a wake's early pass could lease an earlier phase's receipt for the
  // mailer's 2-minute lease just before the kill, and the restart would wait that out.
  sendMail: env.PHASE === 'serve',
  afterCommitFault: () => {
    if (armed) process.kill(process.pid, 'SIGKILL');
  },
});

if (env.PHASE === 'pay') {
  const who = await loginAs(built, env.CUSTOMER ?? 'crash@example.com');
  // Opening the checkout commits too: the fault is armed only for the payment itself.
  await openCheckout(built, who, { kind: 'advance' }).catch(() => undefined);
  armed = true;
  await payInstallment(built, who, { kind: 'advance' });
  // Not reached when the hook fired.
  process.stdout.write('PAID WITHOUT CRASH\n');
  process.exit(3);
} else if (env.PHASE === 'invite') {
  const owner = await loginAs(built, env.OWNER ?? 'crash-owner@example.com', 'admin');
  armed = true;
  const res = await built.app.inject({ method: 'POST', url: '/api/v1/admin/staff', headers: owner.headers, payload: { email: env.STAFF } });
  process.stdout.write(`INVITED WITHOUT CRASH ${res.statusCode} ${res.body}\n`);
  process.exit(3);
} else if (env.PHASE === 'chat') {
  const id = 'crashchat'.padEnd(32, '0');
  await built.deps.database.query(
    `insert into chat_conversations (id, state, contact_email, last_message) values ($1, 'waiting', $2, 'Hello?')`,
    [id, env.VISITOR],
  );
  armed = true;
  const conversation = {
    id,
    userId: null,
    state: 'waiting' as const,
    contactEmail: env.VISITOR ?? null,
    userEmail: null,
    userName: null,
    ownerNotified: false,
  };
  await emailOwnerNewChat(built.deps, conversation, 'Hello? Is anyone there?');
  process.stdout.write('NOTIFIED WITHOUT CRASH\n');
  process.exit(3);
} else {
  await built.app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write('SERVING\n');
}
