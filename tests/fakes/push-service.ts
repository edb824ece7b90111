// A local push service that speaks the Web Push protocol, for the API and e2e tests
// (docs/decisions/343-web-push.md). It plays the browser's side too: it makes subscriptions (a P-256
// key pair and an auth secret, as a browser's PushManager does) and, when a push arrives at one:
//   - checks the VAPID header (RFC 8292): `Authorization: vapid t=<JWT>, k=<public key>`, the JWT's
//     ES256 signature verified with k, its `aud` the endpoint's origin, `exp` within 24 h, `sub` set;
//   - decrypts the body (RFC 8291 over RFC 8188 aes128gcm) with the subscription's private key and
//     auth secret — written here from the RFCs, not with the sender's library;
//   - answers 201, or 410 for a subscription the test marked gone (the sender must delete it).
// HTTPS on 127.0.0.1 with a self-signed certificate (the openssl binary); `ca` is for the sender's agent.
// An optional plain-HTTP control port lets another process (Playwright) make subscriptions and read
// what arrived: POST /subscriptions, GET /messages, POST /subscriptions/:id/gone.
import { createCipheriv, createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import { Agent, createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const b64u = (b: Buffer) => b.toString('base64url');
const unb64u = (s: string) => Buffer.from(s, 'base64url');

export interface FakeSubscription {
  id: string;
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

export interface ReceivedPush {
  subscriptionId: string;
  /** The decrypted payload (JSON when the sender sent JSON). */
  text: string;
  json: unknown;
  /** The request's Web Push headers. */
  headers: { ttl: string | undefined; urgency: string | undefined; topic: string | undefined; contentEncoding: string | undefined };
  vapid: { publicKey: string; sub: string; aud: string; exp: number };
  at: number;
}

interface Keys {
  ecdh: ReturnType<typeof createECDH>;
  publicKey: Buffer;
  auth: Buffer;
}

export interface FakePushService {
  origin: string;
  /** Trusts the service's certificate: hand it to the sender (buildApp's `pushAgent`). */
  agent: Agent;
  controlUrl: string | null;
  subscribe(): FakeSubscription;
  /** From now on the service answers 410 Gone for this subscription. */
  gone(id: string): void;
  received: ReceivedPush[];
  /** Errors of pushes it refused (bad JWT, bad encryption): the tests expect none. */
  refused: string[];
  waitFor(predicate: (p: ReceivedPush) => boolean, timeoutMs?: number): Promise<ReceivedPush>;
  close(): Promise<void>;
}

function selfSigned(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'push-cert-'));
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
        '2',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
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

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) => Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/** RFC 8291 §3.4 + RFC 8188 §2: one record, the last (padding delimiter 0x02). */
export function decryptAes128gcm(body: Buffer, keys: Keys): string {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20]!;
  const asPublic = body.subarray(21, 21 + idlen);
  const record = body.subarray(21 + idlen);
  if (idlen !== 65) throw new Error(`keyid must be the sender's 65-byte public key, got ${idlen} bytes`);
  if (record.length > rs) throw new Error('more than one record');
  const secret = keys.ecdh.computeSecret(asPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), keys.publicKey, asPublic]);
  const ikm = hkdf(keys.auth, secret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = plain.length - 1;
  while (end >= 0 && plain[end] === 0) end--;
  if (plain[end] !== 2) throw new Error('missing the last record delimiter (0x02)');
  return plain.subarray(0, end).toString('utf8');
}

/** The same encryption, the sender's side: lets a test check decryptAes128gcm against itself. */
export function encryptAes128gcm(text: string, target: { p256dh: string; auth: string }): Buffer {
  const sender = createECDH('prime256v1');
  const asPublic = sender.generateKeys();
  const uaPublic = unb64u(target.p256dh);
  const salt = randomBytes(16);
  const ikm = hkdf(
    unb64u(target.auth),
    sender.computeSecret(uaPublic),
    Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]),
    32,
  );
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  const sealed = Buffer.concat([cipher.update(Buffer.concat([Buffer.from(text), Buffer.from([2])])), cipher.final(), cipher.getAuthTag()]);
  const rs = Buffer.alloc(4);
  rs.writeUInt32BE(4096);
  return Buffer.concat([salt, rs, Buffer.from([65]), asPublic, sealed]);
}

/** RFC 8292: checks the header and answers the JWT's claims and the sender's public key. */
export function verifyVapid(authorization: string | undefined, origin: string, now = Date.now()): ReceivedPush['vapid'] {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? '');
  if (!m) throw new Error(`Authorization is not "vapid t=…, k=…": ${authorization ?? '(none)'}`);
  const [, jwt, k] = m as unknown as [string, string, string];
  const [h, p, sig] = jwt.split('.');
  if (!h || !p || !sig) throw new Error('the JWT has not three parts');
  const header = JSON.parse(unb64u(h).toString()) as { alg?: string };
  if (header.alg !== 'ES256') throw new Error(`JWT alg ${header.alg}`);
  const raw = unb64u(k);
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: b64u(raw.subarray(1, 33)), y: b64u(raw.subarray(33)) }, format: 'jwk' });
  if (!verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, unb64u(sig)))
    throw new Error('the JWT signature does not verify with k');
  const claims = JSON.parse(unb64u(p).toString()) as { aud?: string; exp?: number; sub?: string };
  if (claims.aud !== origin) throw new Error(`aud ${claims.aud} is not ${origin}`);
  if (typeof claims.exp !== 'number' || claims.exp * 1000 < now || claims.exp * 1000 > now + 24 * 3600_000 + 60_000)
    throw new Error(`exp ${claims.exp} is not within 24 h`);
  if (!claims.sub || !/^(mailto:|https:)/.test(claims.sub)) throw new Error(`sub ${claims.sub}`);
  return { publicKey: k, sub: claims.sub, aud: claims.aud, exp: claims.exp };
}

const readBody = (req: IncomingMessage) =>
  new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

export async function startFakePushService(opts: { controlPort?: number } = {}): Promise<FakePushService> {
  const subscriptions = new Map<string, Keys>();
  const goneIds = new Set<string>();
  const received: ReceivedPush[] = [];
  const refused: string[] = [];
  const waiters: { predicate: (p: ReceivedPush) => boolean; resolve: (p: ReceivedPush) => void }[] = [];
  const { key, cert } = selfSigned();

  const server = createHttpsServer({ key, cert }, (req, res) => {
    void (async () => {
      const body = await readBody(req);
      const id = /^\/push\/([A-Za-z0-9_-]+)$/.exec(req.url ?? '')?.[1];
      const keys = id ? subscriptions.get(id) : undefined;
      if (req.method !== 'POST' || !id || !keys) return res.writeHead(404).end();
      if (goneIds.has(id)) return res.writeHead(410).end();
      try {
        if (req.headers['content-encoding'] !== 'aes128gcm') throw new Error(`Content-Encoding ${req.headers['content-encoding']}`);
        if (!req.headers.ttl) throw new Error('no TTL header');
        const vapid = verifyVapid(req.headers.authorization, origin);
        const text = decryptAes128gcm(body, keys);
        let json: unknown = null;
        try {
          json = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        const push: ReceivedPush = {
          subscriptionId: id,
          text,
          json,
          headers: {
            ttl: req.headers.ttl as string,
            urgency: req.headers.urgency as string | undefined,
            topic: req.headers.topic as string | undefined,
            contentEncoding: req.headers['content-encoding'],
          },
          vapid,
          at: Date.now(),
        };
        received.push(push);
        for (const w of [...waiters]) {
          if (!w.predicate(push)) continue;
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(push);
        }
        res.writeHead(201, { location: `${origin}/messages/${received.length}` }).end();
      } catch (err) {
        refused.push((err as Error).message);
        res.writeHead(400, { 'content-type': 'text/plain' }).end((err as Error).message);
      }
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `https://127.0.0.1:${(server.address() as { port: number }).port}`;

  const subscribe = (): FakeSubscription => {
    const ecdh = createECDH('prime256v1');
    const publicKey = ecdh.generateKeys();
    const auth = randomBytes(16);
    const id = b64u(randomBytes(12));
    subscriptions.set(id, { ecdh, publicKey, auth });
    return { id, endpoint: `${origin}/push/${id}`, keys: { p256dh: b64u(publicKey), auth: b64u(auth) } };
  };

  let control: Server | null = null;
  if (opts.controlPort !== undefined) {
    control = createHttpServer((req, res) => {
      const json = (status: number, value: unknown) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
      const goneMatch = /^\/subscriptions\/([A-Za-z0-9_-]+)\/gone$/.exec(req.url ?? '');
      if (req.method === 'POST' && req.url === '/subscriptions') return json(201, subscribe());
      if (req.method === 'GET' && req.url === '/messages') return json(200, { received, refused });
      if (req.method === 'POST' && goneMatch) {
        goneIds.add(goneMatch[1]!);
        return json(200, { ok: true });
      }
      return json(404, { error: 'unknown' });
    });
    await new Promise<void>((r) => control!.listen(opts.controlPort, '127.0.0.1', r));
  }

  return {
    origin,
    agent: new Agent({ ca: cert, keepAlive: false }),
    controlUrl: control ? `http://127.0.0.1:${(control.address() as { port: number }).port}` : null,
    subscribe,
    gone: (id) => void goneIds.add(id),
    received,
    refused,
    waitFor(predicate, timeoutMs = 5000) {
      const found = received.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const waiter = { predicate, resolve };
        waiters.push(waiter);
        setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i < 0) return;
          waiters.splice(i, 1);
          reject(new Error(`no matching push within ${timeoutMs} ms (refused: ${refused.join('; ') || 'none'})`));
        }, timeoutMs).unref();
      });
    },
    async close() {
      await new Promise<void>((r) => server.close(() => r()));
      if (control) await new Promise<void>((r) => control!.close(() => r()));
    },
  };
}
