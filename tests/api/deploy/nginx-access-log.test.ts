import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Decision 091 at the edge: deploy/nginx.conf's access log must not hold the OIDC `code` and
// `state` (or any query value) — nginx's default "combined" format logs the whole request line.
// The real file runs here in front of a stand-in upstream (no app build needed).

const nginxBin = ['/usr/sbin/nginx', '/usr/bin/nginx'].find(existsSync);
const ROOT = resolve(import.meta.dirname, '../../..');

let work = '';
let upstream: Server;
let nginx: ChildProcess | undefined;
let port = 0;

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as AddressInfo).port;
      s.close(() => done(p));
    });
  });

function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<number>((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', fail);
    req.end();
  });
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined, ms = 15_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await Promise.resolve(probe()).catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(!nginxBin)('deploy/nginx.conf access log', () => {
  beforeAll(async () => {
    upstream = createServer((_req, res) => res.end('ok')).listen(0, '127.0.0.1');
    await new Promise((r) => upstream.once('listening', r));
    const up = (upstream.address() as AddressInfo).port;
    port = await freePort();
    work = mkdtempSync(join(tmpdir(), 'nginx-log-'));
    chmodSync(work, 0o777);
    const accessLog = join(work, 'access.log');
    const site = readFileSync(join(ROOT, 'deploy/nginx.conf'), 'utf8')
      .replace('server 127.0.0.1:3001', `server 127.0.0.1:${up}`)
      .replace('server 127.0.0.1:3002', `server 127.0.0.1:${up}`)
      .replace(/^\s*listen \[::\]:80;\n/m, '')
      .replace(/^(\s*)listen 80;/m, `$1listen 127.0.0.1:${port};`)
      // Only the file moves; the format named in the file is what is tested.
      .replace(/access_log \/var\/log\/nginx\/webagency\.access\.log /, `access_log ${accessLog} `);
    expect(site, 'the access_log line of deploy/nginx.conf').toContain(`access_log ${accessLog} webagency;`);
    writeFileSync(join(work, 'site.conf'), site);
    const temp = (n: string) => `${n}_temp_path ${join(work, n)};`;
    writeFileSync(
      join(work, 'nginx.conf'),
      `daemon off;\nworker_processes 1;\npid ${join(work, 'nginx.pid')};\nerror_log ${join(work, 'error.log')} warn;\n` +
        `events { worker_connections ` +
        `64; }\nhttp {\n  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}\n  include ${join(work, 'site.conf')};\n}\n`,
    );
    const args = ['-p', work, '-e', join(work, 'error.log'), '-c', join(work, 'nginx.conf')];
    const check = spawnSync(nginxBin!, ['-t', ...args], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    nginx = spawn(nginxBin!, args, { stdio: 'ignore' });
    await until('nginx to answer', async () => ((await get('/')) === 200 ? true : undefined));
  });

  afterAll(async () => {
    if (nginx?.pid) {
      const exited = new Promise((r) => nginx!.once('exit', r));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await new Promise((r) => upstream?.close(r));
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('logs the path with the query redacted, in the request line and the Referer', async () => {
    expect(await get('/api/v1/auth/oidc/google/callback?code=SECRETCODE123&state=SECRETSTATE456')).toBe(200);
    expect(await get('/account/orders?token=TOKEN789', { referer: 'https://example.com/login/callback?code=REFCODE999&state=x' })).toBe(
      200,
    );
    expect(await get('/pricing')).toBe(200);
    const log = await until('three access log lines', () => {
      const text = readFileSync(join(work, 'access.log'), 'utf8');
      return text.trim().split('\n').length >= 3 ? text : undefined;
    });
    expect(log).toContain('"GET /api/v1/auth/oidc/google/callback?[redacted] HTTP/1.1" 200');
    expect(log).toContain('"GET /account/orders?[redacted] HTTP/1.1" 200');
    expect(log).toContain('"https://example.com/login/callback?[redacted]"');
    expect(log).toContain('"GET /pricing HTTP/1.1" 200');
    expect(log).not.toMatch(/SECRETCODE123|SECRETSTATE456|TOKEN789|REFCODE999/);
  });
});
