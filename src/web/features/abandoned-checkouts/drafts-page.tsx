import { Link } from 'react-router';
import type { CheckoutDraft } from '../../../contract/checkout-drafts.ts';
import { Badge, Card, Loadable, PageHeader, Table, td } from '../../components/back-office/admin-ui.tsx';
import { formatMinor, formatWhen } from '../../components/back-office/format.ts';
import { Email } from '../../components/back-office/person.tsx';
import { useOperation } from '../../lib/use-operation.ts';
import { getAdminCheckoutDrafts } from '../../../contract/checkout-drafts.ts';

/**
 * What became of a draft's follow-up. A customer who paid an order since needs none, and only the
 * latest draft is followed up: both say so instead of "not yet" (decision 128).
 */
function FollowUp({ draft: d }: { draft: CheckoutDraft }) {
  // An order paid since is what the owner needs first, whether or not the follow-up went out before it.
  if (d.paidOrderId) {
    return (
      <span className="flex flex-col items-start gap-1">
        <Badge tone="good">Paid since</Badge>
        <Link
          to={`/admin/orders/${encodeURIComponent(d.paidOrderId)}`}
          className="text-xs text-accent-soft underline underline-offset-2 hover:text-white"
        >
          Order {d.paidOrderId}
        </Link>
        {d.followedUpAt && <span className="text-xs text-muted">Follow-up sent {formatWhen(d.followedUpAt)}</span>}
      </span>
    );
  }
  if (d.followedUpAt) return <Badge tone="good">sent {formatWhen(d.followedUpAt)}</Badge>;
  if (d.followUp === 'newer_checkout') return <Badge>not needed: a newer checkout</Badge>;
  return <Badge>not yet</Badge>;
}

/** Back office: advance checkouts opened and not paid. */
export default function DraftsPage() {
  const { data, error, loading } = useOperation(getAdminCheckoutDrafts, {});
  return (
    <>
      <PageHeader title="Open checkouts" />
      <Loadable loading={loading} error={error}>
        {data && (
          <Card>
            <p className="mb-3 text-sm text-muted">
              Advance checkouts not paid. After {data.followUpHours} h the customer gets one friendly e-mail; after {data.retentionDays}{' '}
              days the draft is deleted. Customers never see drafts.
            </p>
            {data.drafts.length === 0 ? (
              <p className="text-sm text-muted">No open checkouts.</p>
            ) : (
              <Table label="Open checkouts" head={['Opened', 'Customer', 'Advance', 'Code', 'Follow-up']}>
                {data.drafts.map((d) => (
                  <tr key={d.orderId}>
                    <td className={`${td} min-w-[7rem]`}>{formatWhen(d.createdAt)}</td>
                    <td className={td}>
                      <Email value={d.email} />
                    </td>
                    <td className={`${td} whitespace-nowrap`}>{formatMinor(d.advance, d.currency)}</td>
                    <td className={`${td} font-mono text-xs`}>{d.couponCode ?? '—'}</td>
                    <td className={td} data-testid="draft-follow-up">
                      <FollowUp draft={d} />
                    </td>
                  </tr>
                ))}
              </Table>
            )}
          </Card>
        )}
      </Loadable>
    </>
  );
}
