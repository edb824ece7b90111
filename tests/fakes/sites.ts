import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';

// Local servers for site care's tests (docs/decisions/325-site-checks-in-the-job-pass.md):
//   startFakeSite  — a website that answers, fails (500), hangs, redirects, or answers slowly;
//   startFakeHttpsSite — the same over TLS with a self-signed certificate made by the openssl
//                   binary for the days asked (its validTo is what the daily look reads);
//   startFakeRdap  — an RDAP server: GET /domain/{name} → { events: [{ eventAction: "expiration" }] }.

export type SiteMode = 'ok' | 'error' | 'hang' | 'redirect' | 'slow';

export interface FakeSite {
  url: string;
  port: number;
  state: { mode: SiteMode; body: string; redirectTo: string; slowMs: number; requests: number; maxDelayMs: number };
  close(): Promise<void>;
}

function handler(state: FakeSite['state']) {
  return (_req: IncomingMessage, res: ServerResponse) => {
    state.requests++;
    const answer = () => {
      switch (state.mode) {
        case 'hang':
          return; // never answers: the check's timeout decides
        case 'error':
          res.writeHead(503, { 'content-type': 'text/plain' }).end('Service Unavailable');
          return;
        case 'redirect':
          res.writeHead(302, { location: state.redirectTo }).end();
          return;
        default:
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(state.body);
      }
    };
    // `maxDelayMs`: a random delay up to it (the bench's "answers with random delays").
    const delay = state.mode === 'slow' ? state.slowMs : state.maxDelayMs ? Math.random() * state.maxDelayMs : 0;
    if (delay) setTimeout(answer, delay);
    else answer();
  };
}

async function listen(server: Server, port = 0): Promise<number> {
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

const closeAll = (server: Server) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export async function startFakeSite(opts: { port?: number; host?: string; body?: string } = {}): Promise<FakeSite> {
  const state: FakeSite['state'] = {
    mode: 'ok',
    body: opts.body ?? '<!doctype html><title>Shop</title><h1>Welcome to the shop</h1>',
    redirectTo: '',
    slowMs: 1000,
    requests: 0,
    maxDelayMs: 0,
  };
  const server = createServer(handler(state));
  server.keepAliveTimeout = 1000;
  const port = await listen(server, opts.port);
  return { url: `http://${opts.host ?? '127.0.0.1'}:${port}/`, port, state, close: () => closeAll(server) };
}

/** A self-signed certificate for `host`, valid `days` days from now (the openssl binary). */
export function selfSignedCertificate(host: string, days: number): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'site-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        String(days),
        '-subj',
        `/CN=${host}`,
        '-addext',
        `subjectAltName=DNS:${host}`,
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startFakeHttpsSite(opts: { host: string; validDays: number }): Promise<FakeSite> {
  const state: FakeSite['state'] = { mode: 'ok', body: '<h1>Secure shop</h1>', redirectTo: '', slowMs: 1000, requests: 0, maxDelayMs: 0 };
  const server = createHttpsServer(selfSignedCertificate(opts.host, opts.validDays), handler(state));
  const port = await listen(server as unknown as Server);
  return { url: `https://${opts.host}:${port}/`, port, state, close: () => closeAll(server as unknown as Server) };
}

export interface FakeRdap {
  url: string;
  /** domain name → expiry; any other name is a 404 like a registry's. */
  domains: Map<string, Date>;
  requests: string[];
  close(): Promise<void>;
}

export async function startFakeRdap(port = 0): Promise<FakeRdap> {
  const domains = new Map<string, Date>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const match = /^\/domain\/([^/?]+)$/.exec(req.url ?? '');
    requests.push(req.url ?? '');
    const name = match ? decodeURIComponent(match[1]!).toLowerCase() : '';
    const expires = domains.get(name);
    if (!expires) {
      res.writeHead(404, { 'content-type': 'application/rdap+json' }).end(JSON.stringify({ errorCode: 404, title: 'Not Found' }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/rdap+json' }).end(
      JSON.stringify({
        objectClassName: 'domain',
        ldhName: name,
        events: [
          { eventAction: 'registration', eventDate: '2020-01-01T00:00:00Z' },
          { eventAction: 'expiration', eventDate: expires.toISOString() },
          { eventAction: 'last update of RDAP database', eventDate: new Date().toISOString() },
        ],
      }),
    );
  });
  const actual = await listen(server, port);
  return { url: `http://127.0.0.1:${actual}`, domains, requests, close: () => closeAll(server) };
}
