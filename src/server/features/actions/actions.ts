import type { AdminActionItem, AgencyWaitingKind, CustomerWaitingKind, OrderActions } from '../../../contract/actions.ts';
import { DELIVERY_STAGE, REMAINING_PAYMENT_STAGE, STAGES, STAGE_COUNT } from '../../../domain/tracker.ts';
import type { AppDeps } from '../../deps.ts';
import { unreadMessagesSql } from '../order-messages/unread.ts';

// What waits for whom (docs/decisions/213-action-counts.md). Counts only, read in one statement per
// side — separate from the order list's query, which is tuned for its own page.

type CustomerRow = {
  public_id: string;
  state: string;
  stages: number;
  brief_submitted: boolean;
  open_reviews: number;
  unread: number;
  remaining_paid: boolean;
  rated: boolean;
  quoted_changes: number;
};

/** The stage being worked on (the first not completed), or the last one once all are done. */
const stageNameOf = (completed: number) => STAGES[Math.min(completed, STAGE_COUNT - 1)]!;

export async function customerActions(deps: AppDeps, userId: string): Promise<{ orders: OrderActions[]; total: number }> {
  const rows = await deps.database.query<CustomerRow>(
    `select o.public_id, o.state,
            (select count(*)::int from order_stages s where s.order_id = o.id) as stages,
            exists (select 1 from order_briefs b where b.order_id = o.id and b.submitted_at is not null) as brief_submitted,
            (select count(*)::int from order_reviews r where r.order_id = o.id and r.state = 'open') as open_reviews,
            ${unreadMessagesSql('customer', 'o.id')} as unread,
            not exists (select 1 from installments i where i.order_id = o.id and i.kind = 'remaining' and i.state <> 'paid') as remaining_paid,
            exists (select 1 from ratings ra where ra.order_id = o.id and ra.kind = 'order') as rated,
            (select count(*)::int from order_changes c where c.order_id = o.id and c.state = 'quoted') as quoted_changes
       from orders o
      where o.user_id = $1 and o.state <> 'awaiting_advance'
      order by o.created_at desc`,
    [userId],
  );
  const orders = rows.map((r): OrderActions => {
    const stages = Number(r.stages);
    const delivered = r.state === 'delivered' || stages >= DELIVERY_STAGE;
    // A cancelled order waits for nothing (docs/decisions/321-cancel-and-refund.md); a reply is still read.
    const open = r.state !== 'cancelled';
    const counts: [CustomerWaitingKind, number][] = !open
      ? [['reply', Number(r.unread)]]
      : [
          // The brief is the customer's until it is submitted (it stays open after "UI Started" if it never came).
          ['brief', !r.brief_submitted && !delivered ? 1 : 0],
          ['review', Number(r.open_reviews)],
          ['reply', Number(r.unread)],
          // A quoted change waits for the customer to accept (pay) or decline it (docs/decisions/250-change-requests.md).
          ['change', Number(r.quoted_changes)],
          // The rest is due once "Launch Readiness" is done: delivery waits for it.
          ['payment', !r.remaining_paid && stages >= REMAINING_PAYMENT_STAGE - 1 ? 1 : 0],
          ['rating', delivered && !r.rated ? 1 : 0],
        ];
    return {
      orderId: r.public_id,
      stage: stages,
      stageName: stageNameOf(stages),
      waiting: counts.filter(([, n]) => n > 0).map(([kind, count]) => ({ kind, count })),
    };
  });
  const total = orders.reduce((sum, o) => sum + o.waiting.reduce((s, w) => s + w.count, 0), 0);
  return { orders, total };
}

type AgencyRow = { kind: AgencyWaitingKind; order_id: string; since: Date | string; count: number };

/**
 * Across orders, what waits for the agency, oldest first (docs/decisions/330-agency-inbox-kinds.md):
 * a submitted brief until someone on the agency side opens it; customer files (not the screenshots of
 * pins); customer pins until answered or resolved; a support request while the customer waits for
 * the agency (`waiting_since`, decision 170), `support_open` and, past SUPPORT_FIRST_RESPONSE_HOURS,
 * `support_overdue`.
 */
export async function agencyActions(deps: AppDeps, now = new Date()): Promise<AdminActionItem[]> {
  const overdueSince = new Date(now.getTime() - deps.config.SUPPORT_FIRST_RESPONSE_HOURS * 3_600_000);
  const rows = await deps.database.query<AgencyRow>(
    `select 'brief_submitted' as kind, o.public_id as order_id, b.submitted_at as since, 1 as count
       from order_briefs b join orders o on o.id = b.order_id
      where b.submitted_at is not null and b.agency_read_at is null and o.state not in ('awaiting_advance', 'cancelled')
     union all
     select 'customer_files', o.public_id, min(f.created_at), count(*)::int
       from order_files f join orders o on o.id = f.order_id
       left join order_file_reads fr on fr.order_id = o.id
      where f.uploaded_by = 'customer' and (fr.agency_read_at is null or f.created_at > fr.agency_read_at) and o.state <> 'cancelled'
        and not exists (select 1 from order_review_comments pin where pin.screenshot_file_id = f.id)
      group by o.public_id
     union all
     select 'pins', o.public_id, min(c.created_at), count(*)::int
       from order_review_comments c join order_reviews r on r.id = c.review_id join orders o on o.id = r.order_id
      where c.author = 'customer' and c.reply_to is null and c.resolved_at is null and o.state <> 'cancelled'
        and not exists (select 1 from order_review_comments answer where answer.reply_to = c.id and answer.author = 'agency')
      group by o.public_id
     union all
     select 'changes_requested', o.public_id, r.decided_at, 1
       from order_reviews r join orders o on o.id = r.order_id
      where r.state = 'changes_requested' and o.state <> 'cancelled'
        and not exists (select 1 from order_reviews later where later.order_id = r.order_id and later.kind = r.kind and later.round > r.round)
     union all
     select 'change_requested', o.public_id, min(c.created_at), count(*)::int
       from order_changes c join orders o on o.id = c.order_id
      where c.state = 'requested' and o.state <> 'cancelled'
      group by o.public_id
     union all
     select 'unread_messages', o.public_id,
            (select min(m.created_at) from order_messages m
              where m.order_id = o.id and m.sender = 'customer'
                and m.seq > coalesce((select rd.last_read_seq from order_message_reads rd where rd.order_id = o.id and rd.side = 'agency'), 0)),
            ${unreadMessagesSql('agency', 'o.id')}
       from orders o
      where o.state not in ('awaiting_advance', 'cancelled') and ${unreadMessagesSql('agency', 'o.id')} > 0
     union all
     select case when sr.waiting_since <= $1 then 'support_overdue' else 'support_open' end, o.public_id, min(sr.waiting_since), count(*)::int
       from support_requests sr join orders o on o.id = sr.order_id
      where sr.state in ('open', 'in_progress') and sr.waiting_since is not null and o.state <> 'cancelled'
      group by 1, o.public_id
     order by since asc, order_id asc`,
    [overdueSince],
  );
  return rows.map((r) => ({ kind: r.kind, orderId: r.order_id, since: new Date(r.since).toISOString(), count: Number(r.count) }));
}
