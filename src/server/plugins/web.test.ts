import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';
import { createWebFixture, FIXTURE_ASSET, fixtureRoutePatterns } from '../../../tests/helpers/web-fixture.ts';

// HTTP done right, configuration at serve time, the build served from memory.
let fixture: Awaited<ReturnType<typeof createWebFixture>>;
let t: TestApp;
let port: number;

/** A request over a real socket, with the path sent exactly as written (no URL normalisation). */
function raw(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (body: Buffer, encoding: string | string[] | undefined) =>
  (encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body).toString('utf8');

beforeAll(async () => {
  fixture = await createWebFixture();
  t = await buildTestApp({ WEB_DIST_DIR: fixture.dir, PUBLIC_URL: 'https://agency.example', BRAND_NAME: 'Acme & Sons' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as { port: number }).port;
});
afterAll(async () => {
  await t?.close();
  fixture?.remove();
});

describe('pages whatever the Accept-Encoding (10.4)', () => {
  const cases: [string | undefined, string | undefined][] = [
    [undefined, undefined],
    ['identity', undefined],
    ['*;q=0', undefined],
    ['gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['br, gzip;q=0', 'br'],
  ];
  for (const path of ['/', '/about', '/faqs']) {
    it(`GET ${path} answers 200 with the page for every Accept-Encoding`, async () => {
      let plain: string | undefined;
      for (const [accept, expected] of cases) {
        // Brotli of the pages is made on the thread pool after start: wait for it.
        await expect
          .poll(async () => (await raw(path, accept ? { 'accept-encoding': accept } : {})).headers['content-encoding'], { timeout: 20_000 })
          .toBe(expected);
        const res = await raw(path, accept ? { 'accept-encoding': accept } : {});
        expect(res.status, `${path} with ${accept}`).toBe(200);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers.vary).toBe('accept-encoding');
        const html = decode(res.body, res.headers['content-encoding']);
        plain ??= html;
        expect(html).toBe(plain);
        expect(html).toContain('<div id="root"><');
      }
    });
  }

  it('HEAD answers the headers of GET without a body, and 404 for an unknown page', async () => {
    const head = await raw('/about', {}, 'HEAD');
    const get = await raw('/about');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.headers.etag).toBe(get.headers.etag);
    expect(head.headers['content-length']).toBe(String(get.body.length));
    expect((await raw('/nope', {}, 'HEAD')).status).toBe(404);
  });
});

describe('routes and 404s (10.4)', () => {
  it('every path of the route table answers 200 (signed-in pages get the app shell)', async () => {
    const patterns = fixtureRoutePatterns();
    expect(patterns).toEqual(expect.arrayContaining(['/dashboard', '/status/:id', '/admin/*', '/login']));
    for (const pattern of patterns) {
      const path = pattern.replace(/:\w+\??/g, 'abc123').replace('*', 'orders');
      const res = await raw(path);
      expect(res.status, path).toBe(200);
      expect(res.headers['content-type'], path).toBe('text/html; charset=utf-8');
    }
    const shell = await raw('/dashboard');
    expect(shell.body.toString()).toContain('<div id="root"></div>');
    expect(shell.headers['cache-control']).toBe('no-cache');
  });

  it('an unknown page path answers 404 with the not-found page', async () => {
    for (const path of ['/nope', '/about/more', '/status', '/dashboard/x/y', '/prerendered/about']) {
      const res = await raw(path, { 'accept-encoding': 'gzip' });
      expect(res.status, path).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(decode(res.body, res.headers['content-encoding'])).toContain('WRONG TURN?');
    }
  });

  it('unknown /api paths stay a JSON 404, whatever the method', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/nope'],
      ['GET', '/api'],
      ['POST', '/api/v1/nope'],
      ['HEAD', '/api/v1/nope'],
      ['POST', '/nope'],
    ]) {
      const res = await t.app.inject({ method: method as 'GET', url: path });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(res.headers['content-type']).toContain('application/json');
      if (method !== 'HEAD') expect(res.json()).toMatchObject({ success: false, code: 'NOT_FOUND' });
    }
  });

  it('a missing file answers a short 404, not a page', async () => {
    const res = await raw('/assets/gone-Zz99Yy88.js');
    expect(res.status).toBe(404);
    expect(res.body.toString()).toBe('Not found');
  });
});

describe('validators and caching (10.4, 11.1)', () => {
  it('HTML has an ETag and answers 304 to If-None-Match, for any representation', async () => {
    const plain = await raw('/about');
    const gz = await raw('/about', { 'accept-encoding': 'gzip' });
    expect(plain.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(gz.headers.etag).not.toBe(plain.headers.etag);
    for (const [tag, accept] of [
      [plain.headers.etag, 'gzip'],
      [gz.headers.etag, ''],
      [`W/${String(plain.headers.etag)}`, 'br'],
      ['"other", ' + String(gz.headers.etag), 'gzip'],
    ]) {
      const res = await raw('/about', { 'if-none-match': String(tag), 'accept-encoding': String(accept) });
      expect(res.status, String(tag)).toBe(304);
      expect(res.body.length).toBe(0);
    }
    expect((await raw('/about', { 'if-none-match': '"stale"' })).status).toBe(200);
    expect(plain.headers['cache-control']).toBe('no-cache');
  });

  it('hashed assets are immutable, served precompressed, with ETag and 304', async () => {
    const res = await raw(FIXTURE_ASSET, { 'accept-encoding': 'br, gzip' });
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(decode(res.body, 'br')).toContain('export const answer');
    expect((await raw(FIXTURE_ASSET, { 'if-none-match': String(res.headers.etag) })).status).toBe(304);
    const svg = await raw('/favicon.svg');
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['cache-control']).toBe('public, max-age=300');
  });
});

describe('security headers (11.1: computed once, the same as @fastify/helmet sends)', () => {
  it('pages, assets, 404s and API answers carry them', async () => {
    for (const path of ['/about', FIXTURE_ASSET, '/nope', '/api/v1/health', '/api/v1/nope']) {
      const res = await raw(path);
      expect(res.headers['content-security-policy'], path).toContain("default-src 'self'");
      expect(res.headers['content-security-policy'], path).toContain("frame-ancestors 'self'");
      expect(res.headers['cross-origin-opener-policy'], path).toBe('same-origin-allow-popups');
      expect(res.headers['x-frame-options'], path).toBe('SAMEORIGIN');
      expect(res.headers['x-content-type-options'], path).toBe('nosniff');
      expect(res.headers['referrer-policy'], path).toBe('no-referrer');
      expect(res.headers['strict-transport-security'], path).toBeUndefined();
    }
  });
});

describe('bad input (10.4)', () => {
  it('path traversal and encoded dots never reach a file outside the build', async () => {
    const paths = [
      '/%2e%2e/',
      '/..%2f..%2fetc/passwd',
      '/assets/../package.json',
      '/../package.json',
      '/..%2fpackage.json',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%5c..%5csecret.txt',
      '/%00',
      '/%E0%A4%A',
    ];
    for (const path of paths) {
      const res = await raw(path);
      // A malformed escape is refused by Fastify's router with 400 before it reaches ours.
      expect([400, 404], path).toContain(res.status);
      expect(res.body.toString(), path).not.toContain('SECRET');
    }
  });

  it("dot-folders of the build are not served (Vite's manifest maps the sources)", async () => {
    for (const path of ['/.vite/manifest.json', '/.vite/', '/%2evite/manifest.json', '/.vite%2fmanifest.json']) {
      const res = await raw(path);
      expect(res.status, path).toBe(404);
      expect(res.body.toString(), path).not.toContain('SECRET');
    }
  });

  it('a file whose name needs percent-decoding is found; decoding never opens a way out', async () => {
    const res = await raw('/images/our%20team%20%C3%BC.svg');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.body.toString()).toContain('<title>team</title>');
    for (const path of [
      '/images/%2e%2e/%2e%2e/secret.txt',
      '/images/..%2f..%2fsecret.txt',
      '/images/our%20team%20%C3%BC.svg%00',
      '/images/our%2520team%2520%25C3%25BC.svg',
    ]) {
      const other = await raw(path);
      expect(other.status, path).toBe(404);
      expect(other.body.toString(), path).not.toContain('SECRET');
    }
  });

  it('another spelling of a page is redirected (301) to the page, query kept; unknown paths stay 404', async () => {
    for (const [path, location] of [
      ['/About', '/about'],
      ['/ABOUT/', '/about'],
      ['/FAQs?ref=mail', '/faqs?ref=mail'],
    ] as const) {
      const res = await raw(path);
      expect(res.status, path).toBe(301);
      expect(res.headers.location, path).toBe(location);
    }
    expect((await raw('/about')).status).toBe(200);
    expect((await raw('/Nope')).status).toBe(404);
  });

  it('a 10 KB header is handled: served, never a 5xx', async () => {
    const res = await raw('/about', { 'x-long': 'a'.repeat(10 * 1024) });
    expect(res.status).toBe(200);
    const huge = await raw('/about', { 'x-huge': 'a'.repeat(20 * 1024) });
    expect(huge.status).toBeLessThan(500);
  });
});

describe('configuration at serve time (10.3)', () => {
  it('PUBLIC_URL and the brand reach canonical, og:url, JSON-LD, robots.txt and sitemap.xml at start-up, served from memory', async () => {
    // The second app also shows that requests never read the disk: its build folder is gone.
    const other = await createWebFixture();
    for (const [url, brand] of [
      ['https://agency.example', 'Acme & Sons'],
      ['https://other.example/', 'Zed <Studio>'],
    ] as const) {
      const app =
        url === 'https://agency.example' ? t : await buildTestApp({ WEB_DIST_DIR: other.dir, PUBLIC_URL: url, BRAND_NAME: brand });
      if (app !== t) other.remove();
      try {
        const base = url.replace(/\/$/, '');
        const faqs = (await app.app.inject({ url: '/faqs' })).body;
        expect(faqs).toContain(`<link rel="canonical" href="${base}/faqs" />`);
        expect(faqs).toContain(`<meta property="og:url" content="${base}/faqs" />`);
        const ld = [...faqs.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
          (m) => JSON.parse(m[1]!) as { url?: string; name?: string },
        );
        expect(ld.find((x) => x.url)).toMatchObject({ url: `${base}/`, name: brand });
        const escaped = brand.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
        expect(faqs).toContain(`<meta property="og:site_name" content="${escaped}" />`);
        expect(faqs).not.toMatch(/@@|\+99000990009900|localhost:3000/);
        const site = /<script type="application\/json" id="site-config">(.*?)<\/script>/.exec(faqs);
        expect(JSON.parse(site![1]!)).toMatchObject({ brand });
        expect((await app.app.inject({ url: '/robots.txt' })).body).toContain(`Sitemap: ${base}/sitemap.xml`);
        const sitemap = (await app.app.inject({ url: '/sitemap.xml' })).body;
        expect(sitemap).toContain(`<loc>${base}/about</loc>`);
        expect(sitemap).not.toContain('@@');
        expect((await app.app.inject({ url: '/dashboard' })).body).toContain(`<title>${escaped}</title>`);
        expect((await app.app.inject({ url: FIXTURE_ASSET })).statusCode).toBe(200);
        expect((await app.app.inject({ url: '/nope' })).statusCode).toBe(404);
      } finally {
        if (app !== t) await app.close();
      }
    }
  }, 180_000);
});
