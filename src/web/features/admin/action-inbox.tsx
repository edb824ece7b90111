import { Link } from 'react-router';
import type { AgencyWaitingKind } from '../../../contract/actions.ts';
import { Card, ErrorText } from '../../components/back-office/admin-ui.tsx';
import { formatWhen } from '../../components/back-office/format.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { getAdminActions } from '../../../contract/actions.ts';
import { getAdminRatings } from '../../../contract/ratings.ts';

// The founder's inbox (docs/decisions/213-action-counts.md): what waits for the agency across
// orders, oldest first, each one click from the place to act.

const WHAT: Record<AgencyWaitingKind, (n: number) => string> = {
  brief_submitted: () => 'Brief submitted',
  customer_files: (n) => (n === 1 ? 'New file from the customer' : `${n} new files from the customer`),
  changes_requested: () => 'Changes requested in a design round',
  unread_messages: (n) => (n === 1 ? '1 unread message' : `${n} unread messages`),
  support_overdue: (n) => (n === 1 ? 'Support request past its response target' : `${n} support requests past their response target`),
  change_requested: (n) => (n === 1 ? 'Change request waiting for our quote' : `${n} change requests waiting for our quote`),
  // docs/decisions/330-agency-inbox-kinds.md
  support_open: (n) => (n === 1 ? 'Support request waiting for our answer' : `${n} support requests waiting for our answer`),
  pins: (n) => (n === 1 ? '1 pin to answer' : `${n} pins to answer`),
};
const TAB: Record<AgencyWaitingKind, string> = {
  brief_submitted: 'brief',
  customer_files: 'files',
  changes_requested: 'reviews',
  unread_messages: 'messages',
  support_overdue: 'support',
  change_requested: 'progress',
  support_open: 'support',
  pins: 'reviews',
};

export function ActionInbox() {
  const { data, error } = useOperation(getAdminActions, {});
  if (error) return <ErrorText>{error}</ErrorText>;
  if (!data) return null;
  return (
    <Card title={`Waiting for us${data.items.length ? ` (${data.items.length})` : ''}`}>
      {data.items.length === 0 ? (
        <p className="text-sm text-muted">Nothing is waiting for the agency.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line" data-testid="action-inbox">
          {data.items.map((item) => (
            <li key={`${item.kind}-${item.orderId}`}>
              <Link
                to={`/admin/orders/${encodeURIComponent(item.orderId)}?tab=${TAB[item.kind]}`}
                className="flex min-h-11 flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2 text-sm hover:text-white"
              >
                <span className="text-ink">
                  {WHAT[item.kind](item.count)} · <span className="font-mono break-all text-accent-soft">{item.orderId}</span>
                </span>
                <span className="text-xs text-muted">since {formatWhen(item.since)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/** The customers' ratings: the average of the last 90 days and the latest comments (docs/decisions/214-ratings.md). */
export function RatingsSummary() {
  const { data, error } = useOperation(getAdminRatings, {});
  if (error) return <ErrorText>{error}</ErrorText>;
  if (!data) return null;
  const comments = data.ratings.filter((r) => r.comment).slice(0, 5);
  return (
    <Card title="Ratings">
      <p className="text-sm text-ink" data-testid="ratings-average">
        {data.average90Days === null
          ? 'No ratings in the last 90 days.'
          : `${data.average90Days.toFixed(1)} / 5 on average over the last 90 days (${data.count90Days} rating${data.count90Days === 1 ? '' : 's'}).`}
      </p>
      {data.chat && (
        // The live chat's CSAT beside them (docs/decisions/347-chat-availability-canned-replies-csat.md).
        <p className="mt-1 text-sm text-ink" data-testid="chat-ratings-average">
          {data.chat.average30Days === null
            ? 'Live chat: no ratings in the last 30 days.'
            : `Live chat: ${data.chat.average30Days.toFixed(1)} / 5 over the last 30 days ` +
              `(${data.chat.count30Days} rating${data.chat.count30Days === 1 ? '' : 's'}).`}
        </p>
      )}
      {comments.length > 0 && (
        <ul className="mt-3 flex flex-col gap-2">
          {comments.map((r) => (
            <li key={r.id} className="rounded-xl border border-line p-3 text-sm">
              <p className="text-ink">
                <strong className={r.score <= 2 ? 'text-danger' : 'text-white'}>{r.score}/5</strong> ·{' '}
                {r.kind === 'order' ? 'the project' : 'a support request'} ·{' '}
                <Link to={`/admin/orders/${encodeURIComponent(r.orderId)}`} className="font-mono break-all text-accent-soft underline">
                  {r.orderId}
                </Link>
                {r.mayQuote && <span className="ml-2 text-xs text-success">may be quoted</span>}
              </p>
              <p className="mt-1 whitespace-pre-wrap wrap-anywhere text-muted">{r.comment}</p>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
