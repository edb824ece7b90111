// Content negotiation and conditional requests for resources held in memory (src/server/plugins/web.ts).
import { createHash } from 'node:crypto';

export type Coding = 'br' | 'gzip' | 'identity';

/** A response body prepared once: the plain bytes and the compressed variants that are smaller. */
export interface Resource {
  type: string;
  cacheControl: string;
  /** Strong validator of the plain bytes; an encoded variant answers with a suffixed one. */
  etag: string;
  identity: Buffer;
  gzip?: Buffer;
  br?: Buffer;
}

export const etagOf = (body: Buffer | string) => `"${createHash('sha1').update(body).digest('base64url').slice(0, 22)}"`;

/** The ETag of one representation: encodings of one resource are different representations. */
export const representationEtag = (etag: string, coding: Coding) =>
  coding === 'identity' ? etag : `${etag.slice(0, -1)}-${coding === 'br' ? 'br' : 'gz'}"`;

interface Accepts {
  br: number;
  gzip: number;
}
const acceptCache = new Map<string, Accepts>();

/** q-values of br and gzip in an Accept-Encoding header ('*' covers codings it does not name). */
function parseAcceptEncoding(header: string): Accepts {
  let cached = acceptCache.get(header);
  if (cached) return cached;
  const q: Record<string, number> = {};
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const value = qParam ? Number(qParam.slice(2)) : 1;
    q[name === 'x-gzip' ? 'gzip' : name] = Number.isFinite(value) ? value : 0;
  }
  cached = { br: q.br ?? q['*'] ?? 0, gzip: q.gzip ?? q['*'] ?? 0 };
  // Clients send few distinct headers; the bound keeps odd ones from growing the map.
  if (acceptCache.size < 200) acceptCache.set(header, cached);
  return cached;
}

/**
 * The coding to send: the client's preferred one among the variants we hold, else the plain bytes.
 * Identity is always the fallback, even when the header refuses it (`*;q=0`): a page beats a 406
 * for the crawlers and uptime checks that send such headers.
 */
export function pickCoding(header: string | undefined, resource: Resource): Coding {
  if (!header || (!resource.br && !resource.gzip)) return 'identity';
  const accepts = parseAcceptEncoding(header);
  const br = resource.br && accepts.br > 0 ? accepts.br : 0;
  const gzip = resource.gzip && accepts.gzip > 0 ? accepts.gzip : 0;
  if (br === 0 && gzip === 0) return 'identity';
  return br >= gzip ? 'br' : 'gzip';
}

/** If-None-Match against a resource (weak comparison, RFC 9110 §13.1.2: any representation). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const base = etag.slice(1, -1);
  return ifNoneMatch.split(',').some((raw) => {
    const tag = raw.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag || tag === `"${base}-br"` || tag === `"${base}-gz"`;
  });
}
