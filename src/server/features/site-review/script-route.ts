import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { notFound } from '../../lib/app-error.ts';

// GET /review.js (and its lazily loaded screenshot chunk): the script a staging site embeds with
// one <script async> tag (docs/operations.md). Built by scripts/build-review-script.mjs into the
// web build's review/ folder. Loaded cross-origin, so Cross-Origin-Resource-Policy: cross-origin;
// cacheable — review.js for 5 minutes (its address never changes), the hashed chunk for a year.

interface Asset {
  body: Buffer;
  etag: string;
  cache: string;
}

const CHUNK = /^review-shot-[A-Za-z0-9]{8}\.js$/;

function readAsset(path: string, cache: string): Asset | null {
  if (!existsSync(path)) return null;
  const body = readFileSync(path);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`, cache };
}

export function registerReviewScript(app: FastifyInstance, webDistDir: string) {
  const dir = join(webDistDir, 'review');
  const script = readAsset(join(dir, 'review.js'), 'public, max-age=300');
  const chunks = new Map<string, Asset | null>();
  const send = (request: FastifyRequest, reply: FastifyReply, asset: Asset | null) => {
    if (!asset) throw notFound('The review script is not built: run `npm run build`.');
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('access-control-allow-origin', '*')
      .header('cache-control', asset.cache)
      .header('etag', asset.etag);
    if (request.headers['if-none-match'] === asset.etag) return reply.status(304).send();
    return reply.send(asset.body);
  };
  app.get('/review.js', { schema: { hide: true } }, (request, reply) => send(request, reply, script));
  app.get<{ Params: { chunk: string } }>('/review/:chunk', { schema: { hide: true } }, (request, reply) => {
    const name = request.params.chunk;
    if (!CHUNK.test(name)) throw notFound('Not found.');
    if (!chunks.has(name)) chunks.set(name, readAsset(join(dir, name), 'public, max-age=31536000, immutable'));
    return send(request, reply, chunks.get(name)!);
  });
}
