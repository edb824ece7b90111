import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { io as connectSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/server/db/client.ts';
import { startFakeSmtp } from '../../fakes/smtp.ts';
import { createThrowAwayDatabase } from '../../helpers/test-app.ts';
import { type ServerProcess, buildServer, freePort, isListening, startServer, waitFor } from './server-process.ts';

// SIGTERM in the middle of a stream of requests and of an upload-sized POST —
// no 5xx, every accepted contact message's mail is sent (or left pending, never lost), chat
// sockets are told to reconnect elsewhere, Redis closes without the "Connection is closed." crash,
// and the process exits 0.
const REDIS_BIN = '/usr/bin/redis-server';
const OWNER = 'founder@example.com';

/** One JSON contact message padded with whitespace (still valid JSON) to `size` bytes. */
function contactBody(token: string, size = 0): string {
  const json = JSON.stringify({
    name: 'Shutdown Test',
    email: 'visitor@example.com',
    phone_code: '91',
    phone_number: '9876543210',
    message: `token ${token}`,
  });
  return size > json.length ? `${json.slice(0, -1)}${' '.repeat(size - json.length)}}` : json;
}

describe('graceful shutdown of the compiled server', () => {
  let main: string;
  let smtp: Awaited<ReturnType<typeof startFakeSmtp>>;
  let db: Awaited<ReturnType<typeof createThrowAwayDatabase>> | undefined;
  let dataDir: string | undefined;
  let redis: ChildProcess | undefined;
  let server: ServerProcess;

  beforeAll(async () => {
    main = buildServer();
    smtp = await startFakeSmtp();
    const env: Record<string, string> = {
      SMTP_URL: smtp.smtpUrl,
      ADMIN_EMAILS: OWNER,
      PUBLIC_FORMS_MAX_PER_IP_MINUTE: '100000',
      WEB_DIST_DIR: '/nonexistent',
    };
    if (process.env.TEST_DATABASE_URL) {
      db = await createThrowAwayDatabase();
      env.DATABASE_URL = db.url;
      if (existsSync(REDIS_BIN)) {
        const port = await freePort();
        redis = spawn(REDIS_BIN, ['--port', String(port), '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
        await waitFor('redis', () => isListening(port), 10_000);
        env.REDIS_URL = `redis://127.0.0.1:${port}`;
      }
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'shutdown-data-'));
      env.DATA_DIR = dataDir;
    }
    server = await startServer(main, env);
  }, 180_000);

  afterAll(async () => {
    await server?.stop();
    redis?.kill();
    await smtp?.close();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (main) rmSync(dirname(main), { recursive: true, force: true });
  });

  it('answers what it accepted, loses no mail, sends sockets elsewhere and exits 0', async () => {
    const { url, port } = server;
    const statuses: number[] = [];
    const accepted: string[] = [];
    let refused = 0;
    let stopAt = 0;

    // A chat socket that reconnects by itself, as the widget's does.
    const socket = connectSocket(url, { path: '/socket.io', transports: ['websocket'], reconnection: true, reconnectionDelay: 60_000 });
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    const disconnectReason = new Promise<string>((resolve) => socket.once('disconnect', (reason) => resolve(reason)));

    // The upload-sized POST (90 KB; the body limit is 100 KB): the headers and half of the body go
    // out before SIGTERM, the rest after the server has stopped listening.
    const token = randomUUID();
    const big = Buffer.from(contactBody(token, 90 * 1024));
    const upload = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        `${url}/api/v1/contact/addContact`,
        { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': big.length } },
        (res) => {
          let body = '';
          res.on('data', (d: Buffer) => (body += d.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write(big.subarray(0, big.length / 2));
      void waitFor('the server to stop listening', async () => stopAt > 0 && !(await isListening(port)), 60_000).then(
        () => req.end(big.subarray(big.length / 2)),
        reject,
      );
    });
    // Wait until the server has read the first half, so the request is truly in flight.
    await new Promise((r) => setTimeout(r, 200));

    // The stream: four clients sending reads and contact messages back to back until refused.
    const client = async () => {
      for (;;) {
        const t = randomUUID();
        const contact = statuses.length % 2 === 0;
        try {
          const res = contact
            ? await fetch(`${url}/api/v1/contact/addContact`, {
                method: 'POST',
                headers: { 'content-type': 'application/json' },
                body: contactBody(t),
              })
            : await fetch(`${url}/api/v1/health`);
          statuses.push(res.status);
          await res.arrayBuffer();
          if (contact && res.ok) accepted.push(t);
        } catch {
          // Refused or reset: the listener is closed; a proxy sends this one to another instance.
          if (stopAt === 0) throw new Error('a request failed before SIGTERM');
          refused++;
          if (!(await isListening(port))) return;
        }
      }
    };
    const stream = Promise.all([client(), client(), client(), client()]);
    await waitFor('a few requests', () => statuses.length >= 20, 60_000, 10);
    stopAt = statuses.length;
    server.child.kill('SIGTERM');

    const [{ status: uploadStatus, body: uploadBody }] = await Promise.all([upload, stream]);
    const exit = await server.exited;
    socket.close();

    expect(uploadStatus, uploadBody).toBe(200);
    accepted.push(token);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(exit, server.output()).toEqual({ code: 0, signal: null });
    expect(server.output()).not.toMatch(/Connection is closed|Uncaught|unhandled/i);
    expect(await disconnectReason).toBe('transport close'); // not "io server disconnect": the client reconnects
    expect(statuses.length).toBeGreaterThan(stopAt);

    // No lost mail: every accepted message's notification went out; nothing is stuck or failed.
    const database = await openDatabase({ databaseUrl: db?.url, dataDir: dataDir ?? 'memory' });
    try {
      const rows = await database.query<{ text_body: string; state: string }>('select text_body, state from mail_outbox');
      for (const t of accepted) {
        const row = rows.find((r) => r.text_body.includes(t));
        expect(row, `mail for ${t}`).toBeDefined();
        expect(['sent', 'pending']).toContain(row!.state);
        if (row!.state === 'sent') expect(smtp.messages.some((m) => m.text.includes(t))).toBe(true);
      }
      expect(rows.filter((r) => r.state !== 'sent')).toEqual([]);
    } finally {
      await database.close();
    }
    console.log(
      `shutdown: ${statuses.length} answered (${statuses.length - stopAt} after SIGTERM), ${refused} refused, ${accepted.length} mails`,
    );
  }, 180_000);
});
