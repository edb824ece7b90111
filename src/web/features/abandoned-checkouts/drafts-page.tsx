import type { CheckoutDraftsResponse } from '../../../contract/checkout-drafts.ts';
import { Badge, Card, Loadable, PageHeader, Table, td } from '../admin/admin-ui.tsx';
import { formatMinor, formatWhen } from '../admin/format.ts';
import { useAdminData } from '../admin/use-admin-data.ts';

/** Back office: advance checkouts opened and not paid (issue 14.3). */
export default function DraftsPage() {
  const { data, error, loading } = useAdminData<CheckoutDraftsResponse>('checkout-drafts');
  return (
    <>
      <PageHeader title="Open checkouts" />
      <Loadable loading={loading} error={error}>
        {data && (
          <Card>
            <p className="mb-3 text-sm text-muted">
              Advance checkouts not paid. After {data.followUpHours} h the customer gets one friendly e-mail; after {data.retentionDays} days the draft is
              deleted. Customers never see drafts.
            </p>
            {data.drafts.length === 0 ? (
              <p className="text-sm text-muted">No open checkouts.</p>
            ) : (
              <Table label="Open checkouts" head={['Opened', 'Customer', 'Advance', 'Code', 'Follow-up']}>
                {data.drafts.map((d) => (
                  <tr key={d.orderId}>
                    <td className={`${td} whitespace-nowrap`}>{formatWhen(d.createdAt)}</td>
                    <td className={`${td} break-all`}>{d.email}</td>
                    <td className={`${td} whitespace-nowrap`}>{formatMinor(d.advance, d.currency)}</td>
                    <td className={`${td} font-mono text-xs`}>{d.couponCode ?? '—'}</td>
                    <td className={td}>{d.followedUpAt ? <Badge tone="good">sent {formatWhen(d.followedUpAt)}</Badge> : <Badge>not yet</Badge>}</td>
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
