import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Badge, Card, ErrorText, Loadable, Notice, PageHeader, Table, td } from '../../components/back-office/admin-ui.tsx';
import { formatMinor, formatWhen } from '../../components/back-office/format.ts';
import { supportLine } from '../support/index.ts';
import { DeletedPerson, Email, isDeletedPerson, RoleBadge } from '../../components/back-office/person.tsx';
import { DELETED_CUSTOMER_NAME } from '../../../domain/deleted-account.ts';
import { runOperation, useOperation } from '../../lib/use-operation.ts';
import { getAdminCustomersById, postAdminCustomersSessionsRevoke } from '../../../contract/admin-customers.ts';

export default function CustomerPage() {
  const { id = '' } = useParams();
  const { data, error, loading, reload } = useOperation(getAdminCustomersById, { params: { id } });
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  // A deleted account keeps its orders and invoices here; its placeholder address is not shown.
  const deleted = isDeletedPerson(data?.customer.email);

  async function endSessions() {
    if (!window.confirm('Sign this customer out on every device?')) return;
    const { data: r, error: err } = await runOperation(postAdminCustomersSessionsRevoke, { params: { id } });
    setActionError(err);
    setNotice(r ? `Ended ${r.revoked} ${r.revoked === 1 ? 'session' : 'sessions'}.` : null);
    await reload();
  }

  return (
    <>
      <PageHeader title={deleted ? DELETED_CUSTOMER_NAME : data?.customer.name || data?.customer.email || 'Customer'}>
        <Link to="/admin/customers" className="text-sm text-accent-soft hover:underline">
          All customers
        </Link>
      </PageHeader>
      <Loadable loading={loading && !data} error={error}>
        {data && (
          <div className="flex flex-col gap-6">
            {notice && <Notice>{notice}</Notice>}
            {actionError && <ErrorText>{actionError}</ErrorText>}
            <div className="grid gap-6 lg:grid-cols-2">
              <Card title="Profile">
                <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
                  <dt className="text-muted">E-mail</dt>
                  <dd>{deleted ? <DeletedPerson /> : <Email value={data.customer.email} />}</dd>
                  <dt className="text-muted">Name</dt>
                  <dd>{data.customer.name ?? '—'}</dd>
                  <dt className="text-muted">Phone</dt>
                  <dd>
                    {data.customer.phoneNumber
                      ? `+${(data.customer.phoneCode ?? '').replace(/^\+/, '')} ${data.customer.phoneNumber}`
                      : '—'}
                  </dd>
                  <dt className="text-muted">Address</dt>
                  <dd className="whitespace-pre-wrap">{data.customer.address ?? '—'}</dd>
                  <dt className="text-muted">Since</dt>
                  <dd>{formatWhen(data.customer.createdAt)}</dd>
                  {data.customer.source && (
                    <>
                      <dt className="text-muted">Source</dt>
                      <dd className="break-all">{data.customer.source}</dd>
                    </>
                  )}
                  <dt className="text-muted">Role</dt>
                  <dd>
                    <RoleBadge role={data.customer.role} />
                  </dd>
                  <dt className="text-muted">Sign-in methods</dt>
                  <dd className="flex flex-wrap gap-1">
                    {data.signInMethods.map((m) => (
                      <Badge key={m}>
                        {m === 'email' ? 'E-mail code' : m === 'google' ? 'Google' : m === 'microsoft' ? 'Microsoft' : m}
                      </Badge>
                    ))}
                  </dd>
                </dl>
              </Card>
              <Card title="Sessions">
                {data.sessions.length === 0 ? (
                  <p className="text-muted">Not signed in anywhere.</p>
                ) : (
                  <ul className="mb-4 flex flex-col gap-2 text-sm">
                    {data.sessions.map((s) => (
                      <li key={s.id} className="rounded-lg border border-line p-2">
                        <div className="break-all">{s.userAgent ?? 'Unknown device'}</div>
                        <div className="text-xs text-muted">
                          Since {formatWhen(s.createdAt)} · last seen {formatWhen(s.lastSeenAt)}
                        </div>
                      </li>
                    ))}
                  </ul>
                )}
                <Button variant="secondary" onClick={endSessions} disabled={data.sessions.length === 0}>
                  End all sessions
                </Button>
              </Card>
            </div>
            <Card title="Orders">
              {data.orders.length === 0 ? (
                <p className="text-muted">No orders.</p>
              ) : (
                <Table label="Orders of this customer" head={['Order', 'Date', 'Total', 'Stage', 'Support']}>
                  {data.orders.map((o) => (
                    <tr key={o.id}>
                      <td className={td}>
                        <Link to={`/admin/orders/${encodeURIComponent(o.id)}`} className="font-mono text-accent-soft hover:underline">
                          {o.id}
                        </Link>
                      </td>
                      <td className={td}>{formatWhen(o.createdAt)}</td>
                      <td className={td}>{formatMinor(o.totalMinor, o.currency)}</td>
                      <td className={td}>{o.completedStages}/15</td>
                      <td className={td} data-testid="order-support">
                        {supportLine(o.supportUntil) ?? '—'}
                      </td>
                    </tr>
                  ))}
                </Table>
              )}
            </Card>
            <Card title="Conversations">
              {data.conversations.length === 0 ? (
                <p className="text-muted">No chats.</p>
              ) : (
                <ul className="flex flex-col gap-2 text-sm">
                  {data.conversations.map((c) => (
                    <li key={c.id} className="flex flex-wrap items-center gap-2">
                      <Badge tone={c.state === 'closed' ? 'muted' : 'good'}>{c.state}</Badge>
                      <span>
                        {c.messages} messages · started {formatWhen(c.createdAt)}
                      </span>
                      {c.state !== 'closed' && (
                        <Link to="/adminChat" className="text-accent-soft hover:underline">
                          Open the chat console
                        </Link>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </div>
        )}
      </Loadable>
    </>
  );
}
