import { z } from 'zod';
import { defineOperation } from './operation.ts';

// The conversion funnel in the back office (decision 097). Weeks start on Monday (UTC);
// a week's numbers count what happened in it. `source` is the first touch: the utm_source, else
// the referring site's host, else "(direct)" — typed by visitors, so it is always shown as text.

export const FUNNEL_STAGES = ['visitors', 'leads', 'contacts', 'signups', 'advancePaid', 'delivered'] as const;
export type FunnelStage = (typeof FUNNEL_STAGES)[number];
export const DIRECT_SOURCE = '(direct)';

export const funnelQuery = z.object({
  weeks: z.coerce.number().int().min(1).max(104).default(12),
});
export type FunnelQuery = z.input<typeof funnelQuery>;

export const funnelCounts = z.object({
  /** Distinct visitors per day, summed over the week (the daily hash cannot link two days). */
  visitors: z.number().int(),
  leads: z.number().int(),
  contacts: z.number().int(),
  signups: z.number().int(),
  advancePaid: z.number().int(),
  delivered: z.number().int(),
});
export type FunnelCounts = z.infer<typeof funnelCounts>;
/** Counts of one row, all zero unless given: the one way server, page and tests build them. */
export const funnelCountsOf = (given: Partial<FunnelCounts> = {}): FunnelCounts => ({
  ...(Object.fromEntries(FUNNEL_STAGES.map((k) => [k, 0])) as FunnelCounts),
  ...given,
});

export const funnelResponse = z.object({
  success: z.literal(true),
  generatedAt: z.string(),
  /** Monday of each week (YYYY-MM-DD), oldest first; always the full window. */
  weeks: z.array(z.string()),
  /** All sources together, one entry per week. */
  total: z.array(funnelCounts),
  /** One entry per source with any count in the window, biggest first. */
  sources: z.array(
    z.object({
      source: z.string(),
      perWeek: z.array(funnelCounts),
      total: funnelCounts,
    }),
  ),
});
export type FunnelResponse = z.infer<typeof funnelResponse>;

/** The four first-touch columns of a lead, contact message, user or order row (migration 0744). */
export interface FirstTouchColumns {
  firstUtmSource: string | null;
  firstUtmMedium: string | null;
  firstUtmCampaign: string | null;
  firstReferrerHost: string | null;
}

/**
 * The one display string of a first-touch source in the back office: the utm values that were
 * recorded, joined ("newsletter / email / spring-sale"), else the referring host ("via google.com"),
 * else null (nothing recorded: direct, opted out, or before counting). Visitors can type these
 * values, so they are only ever shown as text.
 */
export function sourceLabel(row: FirstTouchColumns): string | null {
  const utm = [row.firstUtmSource, row.firstUtmMedium, row.firstUtmCampaign].map((v) => v?.trim()).filter((v): v is string => !!v);
  if (utm.length) return utm.join(' / ');
  const host = row.firstReferrerHost?.trim();
  return host ? `via ${host}` : null;
}

// Operations (docs/decisions/280-contract-operations.md).

/** Visitors → leads and contact messages → sign-ups → advance paid → delivered, per week and first-touch source */
export const getAdminFunnel = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/funnel',
  query: funnelQuery,
  responses: { 200: funnelResponse },
});
