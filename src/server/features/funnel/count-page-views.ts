import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';

// Public pages whose full loads are counted (client-side navigations are not: decision 097).
const PUBLIC_PAGES = new Set(['/', '/about', '/pricing', '/contact', '/faqs', '/privacypolicy', '/termsandconditions', '/referAndEarn', '/getAllRecommendations']);
const PER_VISITOR_PER_DAY = 50;

/** Text we keep from a visitor: printable, trimmed, at most `max` characters (shown escaped). */
export function cleanText(value: unknown, max = 100): string | null {
  if (typeof value !== 'string') return null;
  const s = value.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, max);
  return s || null;
}

export function referrerHost(referer: string | undefined, ownHost: string | undefined): string | null {
  if (!referer) return null;
  try {
    const host = new URL(referer).hostname.toLowerCase();
    return host && host !== ownHost ? cleanText(host) : null;
  } catch {
    return null;
  }
}

/** A visitor who asked not to be tracked (Do Not Track or Global Privacy Control) is not counted. */
export const optedOut = (req: FastifyRequest) => req.headers.dnt === '1' || req.headers['sec-gpc'] === '1';

/**
 * Counts full loads of public pages on the server (no script, no cookie). Registered at the root so
 * it sees the web plugin's responses; the insert happens after the response is sent.
 */
export function registerPageViewCounter(app: FastifyInstance, deps: AppDeps) {
  if (!deps.config.FUNNEL_ENABLED) return;
  const salts = new Map<string, string>();
  let minute = 0;
  let inMinute = 0;
  const perVisitor = new Map<string, number>();
  let perVisitorDay = '';

  async function saltOf(day: string): Promise<string> {
    const cached = salts.get(day);
    if (cached) return cached;
    await deps.database.query(`insert into funnel_salts (day, salt) values ($1, $2) on conflict (day) do nothing`, [day, randomBytes(32).toString('hex')]);
    await deps.database.query(`delete from funnel_salts where day < ($1::date - 1)`, [day]);
    const [row] = await deps.database.query<{ salt: string }>(`select salt from funnel_salts where day = $1`, [day]);
    salts.clear();
    salts.set(day, row!.salt);
    return row!.salt;
  }

  app.addHook('onResponse', async (req, reply) => {
    if (req.method !== 'GET' || reply.statusCode !== 200) return;
    const url = new URL(req.url, 'http://x');
    if (!PUBLIC_PAGES.has(url.pathname)) return;
    if (optedOut(req) || req.headers['sec-purpose']?.includes('prefetch')) return;
    const ua = req.headers['user-agent'] ?? '';
    if (/bot|crawl|spider|lighthouse|headlesschrome\/.*ptst/i.test(ua)) return;
    // Floods: a global cap per minute per instance, and a cap per visitor per day.
    const nowMinute = Math.floor(Date.now() / 60000);
    if (nowMinute !== minute) {
      minute = nowMinute;
      inMinute = 0;
    }
    if (++inMinute > deps.config.FUNNEL_MAX_VIEWS_PER_MINUTE) return;
    const day = new Date().toISOString().slice(0, 10);
    try {
      const visitor = createHash('sha256').update(`${await saltOf(day)}|${req.ip}|${ua}`).digest('hex').slice(0, 32);
      if (day !== perVisitorDay) {
        perVisitor.clear();
        perVisitorDay = day;
      }
      const seen = (perVisitor.get(visitor) ?? 0) + 1;
      perVisitor.set(visitor, seen);
      if (seen > PER_VISITOR_PER_DAY) return;
      const q = url.searchParams;
      await deps.database.query(
        `insert into page_views (day, visitor, path, utm_source, utm_medium, utm_campaign, referrer_host) values ($1, $2, $3, $4, $5, $6, $7)`,
        [day, visitor, url.pathname, cleanText(q.get('utm_source')), cleanText(q.get('utm_medium')), cleanText(q.get('utm_campaign')), referrerHost(req.headers.referer, req.hostname.split(':')[0])],
      );
    } catch (err) {
      deps.log.warn({ err }, 'page view not counted');
    }
  });
}
