import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.ts';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { users } from '../../db/schema/platform.ts';

// The cookieless visitor of decision 097: sha256(daily salt | IP | user agent), cut to 32 hex. The
// salt is random per UTC day, shared by every instance through `funnel_salts`, and deleted once it
// is older than yesterday — after that nobody (not even we) can link a hash to an address.

export const dayOf = (now: Date) => now.toISOString().slice(0, 10);
const previousDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/** A visitor who asked not to be tracked (Do Not Track or Global Privacy Control). */
export const optedOut = (req: Pick<FastifyRequest, 'headers'>) => req.headers.dnt === '1' || req.headers['sec-gpc'] === '1';

/** Text we keep from a visitor: printable, trimmed, at most `max` characters (shown escaped). */
export function cleanText(value: unknown, max = 100): string | null {
  if (typeof value !== 'string') return null;
  const s = value
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, max);
  return s || null;
}

export interface VisitorHasher {
  /** Today's salt, created on first use; older salts than yesterday's are deleted then. */
  saltFor(now: Date): Promise<string>;
  /** The salt of `day` if one exists (never creates one). */
  existingSalt(day: string): Promise<string | null>;
  hash(salt: string, ip: string, userAgent: string): string;
}

function createHasher(database: Database): VisitorHasher {
  const cache = new Map<string, string>();
  async function existingSalt(day: string) {
    const cached = cache.get(day);
    if (cached) return cached;
    const [row] = await database.query<{ salt: string }>(`select salt from funnel_salts where day = $1`, [day]);
    if (row) cache.set(day, row.salt);
    return row?.salt ?? null;
  }
  return {
    existingSalt,
    async saltFor(now) {
      const day = dayOf(now);
      const cached = cache.get(day);
      if (cached) return cached;
      await database.query(`insert into funnel_salts (day, salt) values ($1, $2) on conflict (day) do nothing`, [
        day,
        randomBytes(32).toString('hex'),
      ]);
      await database.query(`delete from funnel_salts where day < ($1::date - 1)`, [day]);
      for (const d of cache.keys()) if (d < previousDay(day)) cache.delete(d);
      const salt = await existingSalt(day);
      if (!salt) throw new Error('no funnel salt after insert');
      return salt;
    },
    hash: (salt, ip, userAgent) => createHash('sha256').update(`${salt}|${ip}|${userAgent}`).digest('hex').slice(0, 32),
  };
}

// One hasher per database (so every app built on it shares the salt cache); not a decorator.
const hashers = new WeakMap<Database, VisitorHasher>();
export function visitorHasher(database: Database): VisitorHasher {
  let h = hashers.get(database);
  if (!h) hashers.set(database, (h = createHasher(database)));
  return h;
}

/** Where a visitor came from: utm_* of the page view, or the referring site's host. */
export interface FirstTouch {
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  referrerHost: string | null;
}

/** The first-touch columns of leads, contact messages, users and orders (migration 0744). */
export const touchColumns = (t: FirstTouch | null | undefined) => ({
  firstUtmSource: t?.utmSource ?? null,
  firstUtmMedium: t?.utmMedium ?? null,
  firstUtmCampaign: t?.utmCampaign ?? null,
  firstReferrerHost: t?.referrerHost ?? null,
});

/**
 * The source of the visitor making this request: their earliest counted page view of today or
 * yesterday that carried a source (utm_* or a referring site). Same hash, so no cookie and nothing
 * from the browser; null for a visitor who opted out, came directly, or was never counted.
 */
export async function firstTouchOf(
  deps: AppDeps,
  req: Pick<FastifyRequest, 'headers' | 'ip'>,
  now = new Date(),
): Promise<FirstTouch | null> {
  if (!deps.config.FUNNEL_ENABLED || optedOut(req)) return null;
  try {
    const hasher = visitorHasher(deps.database);
    const ua = req.headers['user-agent'] ?? '';
    const today = dayOf(now);
    const keys: [string, string][] = [];
    for (const day of [previousDay(today), today]) {
      const salt = await hasher.existingSalt(day);
      if (salt) keys.push([day, hasher.hash(salt, req.ip, ua)]);
    }
    if (!keys.length) return null;
    const params = keys.flat();
    const where = keys.map((_, i) => `(day = $${2 * i + 1} and visitor = $${2 * i + 2})`).join(' or ');
    const [row] = await deps.database.query<{
      utm_source: string | null;
      utm_medium: string | null;
      utm_campaign: string | null;
      referrer_host: string | null;
    }>(
      `select utm_source, utm_medium, utm_campaign, referrer_host from page_views
        where (${where}) and (utm_source is not null or referrer_host is not null)
        order by day, id limit 1`,
      params,
    );
    return row
      ? {
          utmSource: row.utm_source,
          utmMedium: row.utm_medium,
          utmCampaign: row.utm_campaign,
          referrerHost: row.referrer_host,
        }
      : null;
  } catch (err) {
    // Attribution is a nicety: a failure never blocks a lead, a sign-up or an order.
    deps.log.warn({ err }, 'first-touch source not read');
    return null;
  }
}

/**
 * The source of a new order: the customer's own first touch (kept since sign-up), else that of the
 * visitor placing it (a customer who signed up directly and came back through a newsletter link).
 */
export async function firstTouchOfCustomer(
  deps: AppDeps,
  userId: string,
  req?: Pick<FastifyRequest, 'headers' | 'ip'>,
): Promise<FirstTouch | null> {
  const [u] = await deps.db
    .select({
      utmSource: users.firstUtmSource,
      utmMedium: users.firstUtmMedium,
      utmCampaign: users.firstUtmCampaign,
      referrerHost: users.firstReferrerHost,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (u && (u.utmSource || u.referrerHost)) return u;
  return req ? firstTouchOf(deps, req) : null;
}
