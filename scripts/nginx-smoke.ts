// The production recipe, run for real: deploy/nginx.conf on a free port in front of
// two app instances (the compiled server) on one fresh PostgreSQL database and a private Redis, with
// the local SMTP fake. Through nginx: the landing page, sign-in by e-mail code, an order's status
// page, a live chat with the visitor on one instance and the admin on the other (both WebSocket),
// and a per-visitor rate limit that counts the forwarded address, not nginx's.
//   node --import tsx scripts/nginx-smoke.ts        (run by `npm test` after the build)
// Without nginx it skips loudly, or fails when REQUIRE_E2E=1.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import pg from 'pg';
import { io as connectSocket, type Socket } from 'socket.io-client';
import { nextEvent, request } from '../tests/helpers/chat-client.ts';
import { startFakeRazorpay } from '../tests/fakes/razorpay.ts';
import { startFakeSmtp } from '../tests/fakes/smtp.ts';
import { freePort, REDIS_BIN, startRedis, stopProcess, waitForPort } from '../tests/helpers/processes.ts';
import { createThrowAwayDatabase } from '../tests/helpers/test-app.ts';
import { fileForm } from '../tests/helpers/multipart.ts';
import { SoftAuthenticator, type CreationOptions } from '../tests/helpers/soft-authenticator.ts';

const ROOT = resolve(import.meta.dirname, '..');
const BRAND = 'Smoke Test Studio';
const ADMIN = 'founder@smoke.example';
const CUSTOMER = 'customer@smoke.example';
const DEADLINE_MS = 170_000;
const started = Date.now();

function skipOrFail(reason: string): never {
  const msg = `NGINX SMOKE SKIPPED: ${reason}`;
  if (process.env.REQUIRE_E2E === '1') {
    console.error(`✗ ${msg} — REQUIRE_E2E=1, failing.`);
    process.exit(1);
  }
  console.warn(`${'!'.repeat(70)}\n!! ${msg}\n${'!'.repeat(70)}`);
  process.exit(0);
}

const nginxBin =
  ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync) ?? spawnSync('sh', ['-c', 'command -v nginx']).stdout?.toString().trim();
if (!nginxBin) skipOrFail('nginx is not installed (apt-get install nginx)');
if (!existsSync(REDIS_BIN)) skipOrFail(`no redis-server at ${REDIS_BIN} (apt-get install redis-server)`);
if (!existsSync(join(ROOT, 'dist/web/index.html'))) skipOrFail('no web build (run npm run build first)');
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres';

function step(name: string) {
  console.log(`  ▸ ${name} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
function check(ok: unknown, message: string): asserts ok {
  if (!ok) throw new Error(message);
}
async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}
/** One HTTP request; `from` binds the client to a loopback address so nginx sees a distinct visitor. */
function http(
  base: string,
  method: string,
  path: string,
  opts: { headers?: Record<string, string>; json?: unknown; from?: string } = {},
): Promise<Res> {
  const url = new URL(path, base);
  const headers: Record<string, string> = { 'accept-encoding': 'br, gzip', ...opts.headers };
  if (headers['accept-encoding'] === '') delete headers['accept-encoding'];
  let payload: string | undefined;
  if (opts.json !== undefined) {
    payload = JSON.stringify(opts.json);
    headers['content-type'] = 'application/json';
  }
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(url, { method, headers, localAddress: opts.from, timeout: 15_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const enc = res.headers['content-encoding'];
        const body = enc === 'br' ? brotliDecompressSync(raw) : enc === 'gzip' ? gunzipSync(raw) : raw;
        resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    req.end(payload);
  });
}

const children: { name: string; child: ChildProcess; log: string[] }[] = [];
function start(name: string, cmd: string, args: string[], env: Record<string, string>) {
  const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const keep = (c: Buffer) => {
    log.push(c.toString());
    if (log.length > 200) log.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  children.push({ name, child, log });
  return child;
}

const work = mkdtempSync(join(tmpdir(), 'nginx-smoke-'));
chmodSync(work, 0o777); // nginx workers may run as another user and need its temp folders
const cleanups: (() => Promise<unknown>)[] = [];
let failed = false;
const timer = setTimeout(() => {
  console.error(`✗ nginx smoke: over ${DEADLINE_MS / 1000} s`);
  failed = true;
  void cleanup().then(() => process.exit(1));
}, DEADLINE_MS);

async function cleanup() {
  for (const c of [...children].reverse()) await stopProcess(c.child).catch(() => {});
  for (const fn of cleanups.reverse()) await fn().catch(() => {});
  rmSync(work, { recursive: true, force: true });
}

async function main() {
  step('PostgreSQL database, Redis, SMTP and Razorpay fakes');
  const database = await createThrowAwayDatabase().catch((err: Error) =>
    skipOrFail(`PostgreSQL not reachable at TEST_DATABASE_URL (${err.message})`),
  );
  cleanups.push(() => database.drop());
  const redisPort = await freePort();
  const redis = await startRedis(redisPort);
  children.push({ name: 'redis', child: redis, log: [] });
  const smtp = await startFakeSmtp();
  cleanups.push(() => smtp.close());
  const razorpay = await startFakeRazorpay();

  const [appA, appB, nginxPort] = [await freePort(), await freePort(), await freePort()];
  const publicUrl = `http://127.0.0.1:${nginxPort}`;
  const compiled = existsSync(join(ROOT, 'dist/server/main.js'));
  step(`two instances on :${appA} and :${appB} (${compiled ? 'compiled dist/server/main.js' : 'tsx src/server/main.ts'})`);
  const env = (port: number): Record<string, string> => ({
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: publicUrl,
    DATABASE_URL: database.url,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    SMTP_URL: smtp.smtpUrl,
    MAIL_FROM: `${BRAND} <hello@smoke.example>`,
    ADMIN_EMAILS: ADMIN,
    BRAND_NAME: BRAND,
    TRUST_PROXY: '1',
    METRICS_ALLOW: '127.0.0.1',
    // Razorpay's API is the local fake: the built-in test checkout keeps its orders in one process's
    // memory, so it cannot serve two instances (docs/operations.md).
    ...razorpay.env(),
    // Two instances on one machine share the local files folder (decision 140).
    FILES_DIR: join(work, 'files'),
    LOG_LEVEL: 'warn',
  });
  const server = compiled ? ['dist/server/main.js'] : ['--import', 'tsx', 'src/server/main.ts'];
  start('app A', process.execPath, server, env(appA));
  start('app B', process.execPath, server, env(appB));
  const direct = (port: number) => `http://127.0.0.1:${port}`;
  await Promise.all(
    [appA, appB].map((p) =>
      until(
        `instance :${p} healthy`,
        async () => ((await http(direct(p), 'GET', '/api/v1/health')).status === 200 ? true : undefined),
        90_000,
      ),
    ),
  );

  step(`nginx on :${nginxPort} from deploy/nginx.conf`);
  const site = readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8')
    .replace('server 127.0.0.1:3001', `server 127.0.0.1:${appA}`)
    .replace('server 127.0.0.1:3002', `server 127.0.0.1:${appB}`)
    .replace(/^\s*listen \[::\]:80;\n/m, '')
    .replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${nginxPort};`)
    .replace(/access_log \/var\/log\/nginx\/webagency\.access\.log /, `access_log ${join(work, 'access.log')} `);
  check(
    site.includes(`127.0.0.1:${appA}`) && site.includes(`listen 127.0.0.1:${nginxPort}`),
    'deploy/nginx.conf no longer has the upstream/listen lines the smoke templates',
  );
  writeFileSync(join(work, 'site.conf'), site);
  const temp = (n: string) => `${n}_temp_path ${join(work, n)};`;
  writeFileSync(
    join(work, 'nginx.conf'),
    `daemon off;\nworker_processes 1;\npid ${join(work, 'nginx.pid')};\nerror_log ${join(work, 'error.log')} warn;\n` +
      `events { worker_connections 256; }\nhttp {\n  access_log ${join(work, 'access.log')};\n` +
      `  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}\n  include ${join(work, 'site.conf')};\n}\n`,
  );
  const test = spawnSync(nginxBin!, ['-t', '-p', work, '-e', join(work, 'error.log'), '-c', join(work, 'nginx.conf')], {
    encoding: 'utf8',
  });
  check(test.status === 0, `nginx -t failed:\n${test.stderr}`);
  start('nginx', nginxBin!, ['-p', work, '-e', join(work, 'error.log'), '-c', join(work, 'nginx.conf')], {});
  await waitForPort(nginxPort);

  step('landing page through nginx (br passes through; plain clients too)');
  const first = await http(publicUrl, 'GET', '/');
  check(first.status === 200, `GET / via nginx: ${first.status}`);
  check(String(first.headers['content-type']).startsWith('text/html'), 'GET / is not HTML');
  // Pages get their brotli variant on the thread pool just after start (gzip at once, web-build.ts):
  // gzip is the right answer until then, br afterwards.
  check(
    ['br', 'gzip'].includes(String(first.headers['content-encoding'])),
    `GET / with Accept-Encoding br came back as ${String(first.headers['content-encoding'])}`,
  );
  const landing = await until('GET / in brotli', async () => {
    const r = await http(publicUrl, 'GET', '/');
    return r.headers['content-encoding'] === 'br' ? r : undefined;
  });
  check(landing.text.includes(BRAND), 'the landing page does not name the brand from the environment');
  const gz = await http(publicUrl, 'GET', '/', { headers: { 'accept-encoding': 'gzip' } });
  check(gz.status === 200 && gz.headers['content-encoding'] === 'gzip' && gz.text.includes(BRAND), 'GET / with gzip only');
  const plain = await http(publicUrl, 'GET', '/', { headers: { 'accept-encoding': '' } });
  check(
    plain.status === 200 && !plain.headers['content-encoding'] && plain.text.includes(BRAND),
    `GET / without Accept-Encoding: ${plain.status}`,
  );
  const health = await http(publicUrl, 'GET', '/api/v1/health');
  check(health.status === 200 && health.text === '{"status":"ok","redis":"up"}', `health through nginx: ${health.status} ${health.text}`);

  step('sign-in by e-mail code (users exist; codes through SMTP)');
  const sql = new pg.Client({ connectionString: database.url });
  await sql.connect();
  cleanups.push(() => sql.end());
  await sql.query(
    `insert into users (email, name, role, phone_code, phone_number, address) values
     ($1, 'Smoke Customer', 'customer', '91', '9876543210', 'Test street 1'), ($2, 'Founder', 'customer', '91', '9876543211', 'Test street 2')`,
    [CUSTOMER, ADMIN],
  );
  const signIn = async (email: string) => {
    const sent = await http(publicUrl, 'POST', '/api/v1/auth/sendLoginOtp', { json: { email } });
    check(sent.status === 200, `sendLoginOtp ${email}: ${sent.status} ${sent.text}`);
    const mail = await smtp.waitFor(email, () => true, 30_000);
    const otp = /\b(\d{6})\b/.exec(mail.text)?.[1];
    check(otp, `no 6-digit code in the mail to ${email}`);
    const verified = await http(publicUrl, 'POST', '/api/v1/auth/verifyOtp', { json: { email, otp } });
    const token = (JSON.parse(verified.text) as { token?: string }).token;
    check(verified.status === 200 && token, `verifyOtp ${email}: ${verified.status} ${verified.text}`);
    return { authorization: `Bearer ${token}` };
  };
  const customer = await signIn(CUSTOMER);
  const admin = await signIn(ADMIN);

  // The production default ADMIN_STEP_UP=passkey: the founder's code alone does not open the back
  // office; their first passkey (a software authenticator speaking WebAuthn) confirms the session,
  // its options from one instance and the verification possibly on the other.
  step("the back office's step-up: refused until the founder's first passkey, through nginx");
  const shut = await http(publicUrl, 'GET', '/api/v1/admin/overview', { headers: admin });
  check(shut.status === 403 && shut.text.includes('STEP_UP_REQUIRED'), `overview before the passkey: ${shut.status} ${shut.text}`);
  const authenticator = new SoftAuthenticator(publicUrl);
  const options = await http(publicUrl, 'POST', '/api/v1/auth/passkeys/registration/options', { headers: admin, json: {} });
  check(options.status === 200, `registration/options: ${options.status} ${options.text}`);
  const registration = authenticator.register(JSON.parse(options.text) as CreationOptions);
  const registered = await http(publicUrl, 'POST', '/api/v1/auth/passkeys/registration/verify', {
    headers: admin,
    json: { response: registration, name: 'Smoke key' },
  });
  const codes = (JSON.parse(registered.text) as { recoveryCodes?: string[] }).recoveryCodes;
  check(registered.status === 200 && codes?.length === 10, `registration/verify: ${registered.status} ${registered.text.slice(0, 200)}`);
  for (let i = 0; i < 2; i++) {
    const open = await http(publicUrl, 'GET', '/api/v1/admin/overview', { headers: admin });
    check(open.status === 200, `overview after the passkey (${i + 1}): ${open.status} ${open.text.slice(0, 200)}`);
  }

  step('an order paid through Razorpay (fake), and its status page');
  const created = await http(publicUrl, 'POST', '/api/v1/payment/create-order', {
    headers: customer,
    json: { kind: 'advance', acceptTerms: true },
  });
  check(created.status === 200, `create-order: ${created.status} ${created.text}`);
  const providerOrderId = (JSON.parse(created.text) as { id: string }).id;
  // What Razorpay's checkout window hands back to the browser after the customer pays.
  const fields = razorpay.pay(providerOrderId);
  const verified = await http(publicUrl, 'POST', '/api/v1/payment/verify-payment', { headers: customer, json: fields });
  check(verified.status === 200, `verify-payment: ${verified.status} ${verified.text}`);
  const {
    rows: [order],
  } = await sql.query<{ public_id: string }>(`select public_id from orders o join users u on u.id = o.user_id where u.email = $1`, [
    CUSTOMER,
  ]);
  check(order, 'no order row for the customer');
  const page = await http(publicUrl, 'GET', `/status/${order.public_id}`);
  check(
    page.status === 200 && String(page.headers['content-type']).startsWith('text/html'),
    `GET /status/${order.public_id}: ${page.status}`,
  );
  const status = await http(publicUrl, 'GET', `/api/v1/status/getStatus/order/${order.public_id}`, { headers: customer });
  check(status.status === 200 && status.text.includes(order.public_id), `status API: ${status.status} ${status.text.slice(0, 200)}`);

  step("an order file through nginx: 5 MB up (past the edge's 1 MB body limit), the same bytes down from both instances");
  const upload = fileForm('brand-assets.png', Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(5 * 1024 * 1024, 7)]));
  const uploaded = await fetch(`${publicUrl}/api/v1/orders/${order.public_id}/files`, {
    method: 'POST',
    headers: { ...customer, ...upload.headers },
    body: upload.payload,
  });
  const uploadedText = await uploaded.text();
  check(uploaded.status === 201, `file upload through nginx: ${uploaded.status} ${uploadedText.slice(0, 200)}`);
  const fileId = (JSON.parse(uploadedText) as { file: { id: string } }).file.id;
  for (const port of [appA, appB]) {
    const down = await fetch(`${direct(port)}/api/v1/orders/${order.public_id}/files/${fileId}`, { headers: customer });
    const bytes = Buffer.from(await down.arrayBuffer());
    check(
      down.status === 200 && bytes.length === 5 * 1024 * 1024 + 8 && down.headers.get('content-disposition')?.startsWith('attachment'),
      `file download from :${port}: ${down.status} ${bytes.length} bytes`,
    );
  }

  step('live chat over WebSocket through nginx: visitor on one instance, admin on the other');
  const socketsOn = async (port: number) => {
    const text = (await http(direct(port), 'GET', '/metrics')).text;
    return Number(/^socketio_connected_sockets (\d+)/m.exec(text)?.[1] ?? NaN);
  };
  const open: Socket[] = [];
  cleanups.push(async () => open.forEach((s) => s.disconnect()));
  const connect = async (token?: string) => {
    const before = [await socketsOn(appA), await socketsOn(appB)];
    const socket = connectSocket(publicUrl, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: token ? { token } : {},
      reconnection: false,
      forceNew: true,
      extraHeaders: { origin: publicUrl },
    });
    open.push(socket);
    await new Promise<void>((ok, fail) => {
      socket.once('connect', () => ok());
      socket.once('connect_error', fail);
    });
    check(socket.io.engine.transport.name === 'websocket', 'the socket is not on WebSocket');
    return until('the socket to show on an instance', async () => {
      const after = [await socketsOn(appA), await socketsOn(appB)];
      if (after[0]! > before[0]!) return { socket, port: appA };
      if (after[1]! > before[1]!) return { socket, port: appB };
      return undefined;
    });
  };
  const visitor = await connect();
  let adminSocket = await connect(admin.authorization.slice(7));
  for (let i = 0; adminSocket.port === visitor.port && i < 8; i++) {
    adminSocket.socket.disconnect();
    adminSocket = await connect(admin.authorization.slice(7));
  }
  check(adminSocket.port !== visitor.port, 'nginx put every socket on one instance');
  console.log(`    visitor on :${visitor.port}, admin on :${adminSocket.port}`);
  await request(adminSocket.socket, 'getActiveChats');
  const startChat = await http(publicUrl, 'POST', '/api/v1/chat/start', { json: { userId: 'guest' } });
  check(startChat.status === 200, `chat/start: ${startChat.status} ${startChat.text}`);
  const { chatId } = JSON.parse(startChat.text) as { chatId: string };
  await request(visitor.socket, 'joinChat', chatId);
  await request(adminSocket.socket, 'joinChat', chatId);
  const atAdmin = nextEvent<{ message: string }>(adminSocket.socket, 'newMessage', (m) => m.message === 'Hello through nginx', 15_000);
  await request(visitor.socket, 'sendMessage', { chatId, message: 'Hello through nginx' });
  await atAdmin;
  const atVisitor = nextEvent<{ message: string }>(
    visitor.socket,
    'newMessage',
    (m) => m.message === 'Answer from the other instance',
    15_000,
  );
  await request(adminSocket.socket, 'adminSendMessage', { chatId, message: 'Answer from the other instance' });
  await atVisitor;

  step('per-visitor rate limit counts the forwarded address, not nginx (chat/start: 10 per minute)');
  const startFrom = (from: string, headers: Record<string, string> = {}) =>
    http(publicUrl, 'POST', '/api/v1/chat/start', { json: { userId: 'guest' }, from, headers });
  for (let i = 1; i <= 10; i++) {
    const r = await startFrom('127.0.0.2');
    check(r.status === 200, `visitor 127.0.0.2 request ${i}: ${r.status}`);
  }
  const limited = await startFrom('127.0.0.2');
  check(limited.status === 429, `the 11th request of 127.0.0.2 was ${limited.status}, not 429`);
  const forged = await startFrom('127.0.0.2', { 'x-forwarded-for': '198.51.100.23' });
  check(forged.status === 429, `a forged X-Forwarded-For escaped the limit (${forged.status})`);
  const other = await startFrom('127.0.0.3');
  check(other.status === 200, `another visitor (127.0.0.3) was limited too (${other.status}): the limit counts nginx, not the visitor`);

  step('both instances served requests through nginx');
  for (const port of [appA, appB]) {
    const text = (await http(direct(port), 'GET', '/metrics')).text;
    const served = [...text.matchAll(/^http_request_duration_seconds_count\{[^}]*route="[^"]*"[^}]*\} (\d+)/gm)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    );
    check(served > 3, `instance :${port} served only ${served} requests`);
  }
}

try {
  console.log('▶ nginx smoke: nginx + two instances + PostgreSQL + Redis');
  await main();
  console.log(`✓ nginx smoke passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} catch (err) {
  failed = true;
  console.error(`✗ nginx smoke failed: ${err instanceof Error ? err.message : String(err)}`);
  for (const c of children) if (c.log.length) console.error(`--- ${c.name} (last output) ---\n${c.log.join('').slice(-4000)}`);
  const errorLog = join(work, 'error.log');
  if (existsSync(errorLog)) console.error(`--- nginx error.log ---\n${readFileSync(errorLog, 'utf8').slice(-4000)}`);
} finally {
  clearTimeout(timer);
  await cleanup();
}
process.exit(failed ? 1 : 0);
