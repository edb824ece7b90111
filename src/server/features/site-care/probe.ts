import http from 'node:http';
import https from 'node:https';
import tls from 'node:tls';
import { performance } from 'node:perf_hooks';
import type { LookupFunction } from 'node:net';
import type { CheckCause } from '../../db/schema/site-care.ts';
import { AddressRefused, pinnedAddress, urlProblem, type ResolvedAddress, type Resolve } from './address-policy.ts';

// The three probes of a watched site (docs/decisions/325-site-checks-in-the-job-pass.md): one
// HTTP(S) GET, the certificate's end date from the TLS handshake, and the domain's expiry from RDAP.
// Every connection goes to the address checked by address-policy.ts, pinned.

export const CHECK_TIMEOUT_MS = 10_000;
export const MAX_REDIRECTS = 5;
export const MAX_BODY_BYTES = 1024 * 1024;

export interface ProbeOptions {
  allowPrivate: boolean;
  resolve: Resolve;
  /** Which addresses count as public (default isPublicAddress); a test without a public network names its own. */
  isPublic?: (address: string) => boolean;
  userAgent: string;
  timeoutMs?: number;
}

export interface CheckOutcome {
  ok: boolean;
  /** The final answer's status; 0 when there was none. */
  status: number;
  /** From the start to the final answer's headers. */
  ttfbMs: number | null;
  totalMs: number;
  cause: CheckCause | null;
  error: string | null;
}

const CERT_ERRORS = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);

const pinnedLookup =
  (pinned: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all)
      (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [
        { address: pinned.address, family: pinned.family },
      ]);
    else callback(null, pinned.address, pinned.family);
  };

function causeOf(err: unknown, timedOut: boolean): { cause: CheckCause; error: string } {
  const e = err as NodeJS.ErrnoException;
  if (timedOut) return { cause: 'timeout', error: 'No complete answer within 10 s' };
  if (err instanceof AddressRefused) return { cause: 'address', error: err.message };
  if (e?.code && CERT_ERRORS.has(e.code)) return { cause: 'certificate', error: `Certificate: ${e.code}` };
  return { cause: 'connection', error: (e?.code ?? e?.message ?? 'connection failed').slice(0, 200) };
}

interface Answer {
  status: number;
  location: string | undefined;
  ttfb: number;
  body: Buffer;
}

/** One GET to a pinned address; reads at most MAX_BODY_BYTES of the body. */
function getOnce(url: URL, pinned: ResolvedAddress, start: number, signal: AbortSignal, userAgent: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, {
      method: 'GET',
      agent: false,
      lookup: pinnedLookup(pinned),
      signal,
      headers: { 'user-agent': userAgent, accept: 'text/html,*/*;q=0.8', 'accept-encoding': 'identity', connection: 'close' },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const ttfb = performance.now() - start;
      const status = res.statusCode ?? 0;
      const location = status >= 300 && status < 400 ? res.headers.location : undefined;
      if (location) {
        res.destroy();
        resolve({ status, location, ttfb, body: Buffer.alloc(0) });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        resolve({ status, location: undefined, ttfb, body: Buffer.concat(chunks, Math.min(size, MAX_BODY_BYTES)) });
      };
      res.on('data', (chunk: Buffer) => {
        if (done) return;
        chunks.push(chunk);
        size += chunk.length;
        if (size >= MAX_BODY_BYTES) {
          finish();
          res.destroy();
        }
      });
      res.on('end', finish);
      res.on('error', (err) => (done ? undefined : reject(err)));
      res.on('close', () => {
        if (!done) reject(new Error('ECONNRESET'));
      });
    });
    req.end();
  });
}

/**
 * One check of a watched URL: a GET with a 10 s timeout for the whole of it, at most 5 redirects
 * (each target checked like the first), at most 1 MB read. A failure is a status ≥ 500 or none, a
 * timeout, the expected text missing, or a certificate error (docs/decisions/326-site-incidents-and-mails.md).
 */
export async function checkUrl(raw: string, expectText: string | null, opts: ProbeOptions): Promise<CheckOutcome> {
  const start = performance.now();
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, opts.timeoutMs ?? CHECK_TIMEOUT_MS);
  const elapsed = () => Math.round(performance.now() - start);
  try {
    let url = new URL(raw);
    for (let hop = 0; ; hop++) {
      const problem = urlProblem(url.href);
      if (problem) return { ok: false, status: 0, ttfbMs: null, totalMs: elapsed(), cause: 'address', error: problem };
      const pinned = await pinnedAddress(url.hostname, opts);
      if (timedOut) throw new Error('timeout');
      const answer = await getOnce(url, pinned, start, controller.signal, opts.userAgent);
      if (answer.location && hop < MAX_REDIRECTS) {
        url = new URL(answer.location, url);
        continue;
      }
      const ttfbMs = Math.round(answer.ttfb);
      if (answer.status >= 500 || answer.status === 0)
        return { ok: false, status: answer.status, ttfbMs, totalMs: elapsed(), cause: 'status', error: `HTTP ${answer.status}` };
      if (expectText && !answer.body.toString('utf8').includes(expectText))
        return { ok: false, status: answer.status, ttfbMs, totalMs: elapsed(), cause: 'text', error: 'The expected text is missing' };
      return { ok: true, status: answer.status, ttfbMs, totalMs: elapsed(), cause: null, error: null };
    }
  } catch (err) {
    return { ok: false, status: 0, ttfbMs: null, totalMs: elapsed(), ...causeOf(err, timedOut) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The end date of the certificate the site presents (SNI: the URL's host), read from the TLS
 * handshake whether or not the certificate is trusted: its expiry is what is watched here; a bad
 * one already fails the HTTP check. null for an http URL.
 */
export async function certificateValidTo(raw: string, opts: ProbeOptions): Promise<Date | null> {
  const url = new URL(raw);
  if (url.protocol !== 'https:') return null;
  const pinned = await pinnedAddress(url.hostname, opts);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    const socket = tls.connect({
      host: pinned.address,
      port: Number(url.port || 443),
      servername: /^[\d.:]+$/.test(host) ? undefined : host,
      rejectUnauthorized: false,
      timeout: opts.timeoutMs ?? CHECK_TIMEOUT_MS,
    });
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      socket.destroy();
      const at = cert?.valid_to ? new Date(cert.valid_to) : null;
      if (!at || Number.isNaN(at.getTime())) reject(new Error('no certificate'));
      else resolve(at);
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error('TLS handshake timed out'));
    });
    socket.once('error', reject);
  });
}

/** The names RDAP is asked for, from the host down to its last two labels (www.shop.example.in → shop.example.in → example.in). */
export function rdapNames(hostname: string): string[] {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (/^[\d.]+$/.test(host) || host.includes(':') || !host.includes('.')) return [];
  const labels = host.split('.');
  const names: string[] = [];
  for (let i = 0; i <= labels.length - 2; i++) names.push(labels.slice(i).join('.'));
  return names;
}

/**
 * The domain's expiry from RDAP: `GET {base}/domain/{name}`, the event whose eventAction is
 * "expiration". The host is tried first, then each parent down to two labels (a 404 means "not a
 * registered name"). null when no name has one (an IP address, a registry that publishes none).
 */
export async function domainExpiry(
  hostname: string,
  base: string,
  timeoutMs = CHECK_TIMEOUT_MS,
): Promise<{ name: string; expiresAt: Date } | null> {
  for (const name of rdapNames(hostname)) {
    const res = await fetch(`${base}/domain/${encodeURIComponent(name)}`, {
      headers: { accept: 'application/rdap+json, application/json' },
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'follow',
    });
    if (res.status === 404) {
      await res.body?.cancel();
      continue;
    }
    if (!res.ok) throw new Error(`RDAP answered ${res.status} for ${name}`);
    const body = (await res.json()) as { events?: { eventAction?: string; eventDate?: string }[] };
    const expiration = body.events?.find((e) => e.eventAction === 'expiration')?.eventDate;
    const at = expiration ? new Date(expiration) : null;
    return at && !Number.isNaN(at.getTime()) ? { name, expiresAt: at } : null;
  }
  return null;
}
