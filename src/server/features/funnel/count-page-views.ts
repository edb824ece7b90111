import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import type { Database } from '../../db/client.ts';
import { cleanText, dayOf, optedOut, visitorHasher } from './visitors.ts';

export { cleanText, optedOut } from './visitors.ts';

// Public pages whose full loads are counted (client-side navigations are not: decision 097).
export const PUBLIC_PAGES = new Set([
  '/',
  '/about',
  '/pricing',
  '/contact',
  '/faqs',
  '/privacypolicy',
  '/termsandconditions',
  '/referAndEarn',
  '/getAllRecommendations',
]);
const PER_VISITOR_PER_DAY = 50;

export function referrerHost(referer: string | undefined, ownHost: string | undefined): string | null {
  if (!referer) return null;
  try {
    const host = new URL(referer).hostname.toLowerCase();
    return host && host !== ownHost ? cleanText(host) : null;
  } catch {
    return null;
  }
}

/** What the counter did since start: a test waits on `idle()` instead of sleeping. */
export interface PageViewCounter {
  counted: number;
  dropped: number;
  /** Resolves when every page view seen so far is stored or dropped. */
  idle(): Promise<void>;
}

const counters = new WeakMap<Database, PageViewCounter>();
/** The counter of the app built on `database` (tests read it; features never need it). */
export const pageViewCounterOf = (database: Database) => counters.get(database);

const isBot = (ua: string) => /bot|crawl|spider|lighthouse|headlesschrome\/.*ptst/i.test(ua);

/**
 * Counts full loads of public pages on the server (no script, no cookie). Registered at the root so
 * it sees the web plugin's responses: a 200, and a 304 (the browser revalidated the HTML with its
 * ETag — still a visit). The insert happens after the response is sent.
 */
export function registerPageViewCounter(app: FastifyInstance, deps: AppDeps) {
  if (!deps.config.FUNNEL_ENABLED) return;
  const hasher = visitorHasher(deps.database);
  let minute = 0;
  let inMinute = 0;
  const perVisitor = new Map<string, number>();
  let perVisitorDay = '';
  const pending = new Set<Promise<void>>();
  const counter: PageViewCounter = {
    counted: 0,
    dropped: 0,
    async idle() {
      while (pending.size) await Promise.allSettled([...pending]);
    },
  };
  counters.set(deps.database, counter);

  async function count(req: FastifyRequest, url: URL, ua: string, now: Date) {
    const day = dayOf(now);
    const visitor = hasher.hash(await hasher.saltFor(now), req.ip, ua);
    if (day !== perVisitorDay) {
      perVisitor.clear();
      perVisitorDay = day;
    }
    const seen = (perVisitor.get(visitor) ?? 0) + 1;
    perVisitor.set(visitor, seen);
    if (seen > PER_VISITOR_PER_DAY) {
      counter.dropped++;
      return;
    }
    const q = url.searchParams;
    await deps.database.query(
      `insert into page_views (day, visitor, path, utm_source, utm_medium, utm_campaign, referrer_host) values ($1, $2, $3, $4, $5, $6, $7)`,
      [
        day,
        visitor,
        url.pathname,
        cleanText(q.get('utm_source')),
        cleanText(q.get('utm_medium')),
        cleanText(q.get('utm_campaign')),
        referrerHost(req.headers.referer, req.hostname.split(':')[0]),
      ],
    );
    counter.counted++;
  }

  app.addHook('onResponse', async (req, reply) => {
    if (req.method !== 'GET' || (reply.statusCode !== 200 && reply.statusCode !== 304)) return;
    // Every response passes here (assets, API): the cheap path test first, the URL parse only for pages.
    const query = req.url.indexOf('?');
    if (!PUBLIC_PAGES.has(query === -1 ? req.url : req.url.slice(0, query))) return;
    const url = new URL(req.url, 'http://x');
    if (optedOut(req) || req.headers['sec-purpose']?.includes('prefetch')) return;
    const ua = req.headers['user-agent'] ?? '';
    if (isBot(ua)) return;
    // Floods: a global cap per minute per instance, and a cap per visitor per day.
    const now = new Date();
    const nowMinute = Math.floor(now.getTime() / 60000);
    if (nowMinute !== minute) {
      minute = nowMinute;
      inMinute = 0;
    }
    if (++inMinute > deps.config.FUNNEL_MAX_VIEWS_PER_MINUTE) {
      counter.dropped++;
      return;
    }
    const job: Promise<void> = count(req, url, ua, now)
      .catch((err) => {
        counter.dropped++;
        deps.log.warn({ err }, 'page view not counted');
      })
      .finally(() => pending.delete(job));
    pending.add(job);
    await job;
  });
}
