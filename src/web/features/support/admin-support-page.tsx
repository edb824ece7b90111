import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { SUPPORT_STATES, type AdminSupportItem, type SupportState } from '../../../contract/support.ts';
import { getAdminOrdersFiles } from '../../../contract/order-files.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { call } from '../../lib/call.ts';
import {
  Badge,
  Card,
  ErrorText,
  Loadable,
  Notice,
  PageHeader,
  Pagination,
  Table,
  td,
  wrapCell,
} from '../../components/back-office/admin-ui.tsx';
import { formatWhen } from '../../components/back-office/format.ts';
import { PersonLabel } from '../../components/back-office/person.tsx';
import { RequestThread } from './request-thread.tsx';
import { CATEGORY_LABELS, STATE_LABELS, formatDay } from './support-api.ts';
import { runOperation, useOperation } from '../../lib/use-operation.ts';
import { getAdminSupport, getAdminSupportByRequestId, postAdminSupportMessages, postAdminSupportState } from '../../../contract/support.ts';

// The founder's support queue: requests by state, oldest waiting first, with the
// time since the customer's last message and a flag past the first-response target; and one
// request with its thread, a reply box and the state buttons.

/** "3 h 20 min", "2 d 4 h", "5 min". */
export function formatWaiting(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const h = Math.floor(m / 60);
  const d = Math.floor(h / 24);
  if (d > 0) return `${d} d ${h % 24} h`;
  if (h > 0) return `${h} h ${m % 60} min`;
  return `${m} min`;
}

const FILTERS: { id: SupportState | 'waiting'; label: string }[] = [
  { id: 'waiting', label: 'Not closed' },
  ...SUPPORT_STATES.map((s) => ({ id: s, label: STATE_LABELS[s]! })),
];

export default function AdminSupportPage() {
  const { requestId } = useParams();
  return requestId ? <RequestView requestId={requestId} /> : <Queue />;
}

function Queue() {
  const [filter, setFilter] = useState<SupportState | 'waiting'>('waiting');
  const [page, setPage] = useState(1);
  const { data, error, loading } = useOperation(getAdminSupport, { query: { page, state: filter === 'waiting' ? undefined : filter } });
  return (
    <>
      <PageHeader title="Support" />
      <div className="mb-4 flex flex-wrap gap-1 rounded-2xl border border-line bg-card p-1" role="group" aria-label="Filter by state">
        {FILTERS.map((f) => (
          <button
            key={f.id}
            type="button"
            aria-pressed={filter === f.id}
            onClick={() => {
              setFilter(f.id);
              setPage(1);
            }}
            className={`min-h-11 rounded-xl px-3 text-sm font-semibold
            ${filter === f.id ? 'bg-accent-strong text-white' : 'text-muted hover:text-white'}`}
          >
            {f.label}
          </button>
        ))}
      </div>
      <Loadable loading={loading && !data} error={error}>
        {data && (
          <Card>
            <p className="mb-3 text-sm text-muted">Oldest waiting first. First-response target: {data.responseTargetHours} h.</p>
            {data.items.length === 0 ? (
              <p className="text-muted" data-testid="support-queue-empty">
                No requests here.
              </p>
            ) : (
              <Table label="Support requests" head={['Request', 'Customer', 'State', 'Waiting', 'Support until']}>
                {data.items.map((r) => (
                  <QueueRow key={r.id} item={r} />
                ))}
              </Table>
            )}
            <div className="mt-3">
              <Pagination info={data.pageInfo} onPage={setPage} />
            </div>
          </Card>
        )}
      </Loadable>
    </>
  );
}

function QueueRow({ item: r }: { item: AdminSupportItem }) {
  return (
    <tr data-testid="support-queue-row">
      <td className={`${td} ${wrapCell}`}>
        <Link to={`/admin/support/${r.id}`} className="font-semibold text-accent-soft hover:underline">
          {r.title}
        </Link>
        <p className="text-xs text-muted">
          {CATEGORY_LABELS[r.category]} · order{' '}
          <Link to={`/admin/orders/${encodeURIComponent(r.orderId)}`} className="underline">
            {r.orderId}
          </Link>
        </p>
      </td>
      <td className={`${td} ${wrapCell}`}>
        <PersonLabel name={r.customerName} email={r.customerEmail} />
      </td>
      <td className={td}>
        <Badge tone={r.state === 'open' ? 'accent' : r.state === 'resolved' ? 'good' : 'muted'}>{STATE_LABELS[r.state]}</Badge>
      </td>
      <td className={td}>
        {r.waitingSince ? formatWaiting(r.secondsSinceCustomerMessage) : '—'}
        {r.pastResponseTarget && (
          <span className="ml-2">
            <Badge tone="warn">Past target</Badge>
          </span>
        )}
      </td>
      <td className={td}>{r.supportUntil ? formatDay(r.supportUntil) : '—'}</td>
    </tr>
  );
}

function RequestView({ requestId }: { requestId: string }) {
  const { data, error, loading, reload } = useOperation(getAdminSupportByRequestId, { params: { requestId } });
  const files = useOperation(getAdminOrdersFiles, data ? { params: { orderId: data.item.orderId } } : null);
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [changing, setChanging] = useState(false);
  const setState = async (state: SupportState) => {
    // One change at a time: a double click sends one request (docs/decisions/210-idempotency-key.md).
    if (changing) return;
    setChanging(true);
    const { error: err } = await runOperation(postAdminSupportState, { params: { requestId }, body: { state } }).finally(() =>
      setChanging(false),
    );
    setActionError(err);
    setNotice(err ? null : `Marked ${STATE_LABELS[state]!.toLowerCase()}.`);
    if (!err) await reload();
  };
  return (
    <>
      <PageHeader title="Support request">
        <Link to="/admin/support" className="text-sm text-accent-soft hover:underline">
          All requests
        </Link>
      </PageHeader>
      <Loadable loading={loading && !data} error={error}>
        {data && (
          <div className="flex flex-col gap-6">
            {notice && <Notice>{notice}</Notice>}
            {actionError && <ErrorText>{actionError}</ErrorText>}
            <Card title={data.request.title}>
              <p className="text-sm text-muted">
                {CATEGORY_LABELS[data.request.category]} · order{' '}
                <Link to={`/admin/orders/${encodeURIComponent(data.item.orderId)}`} className="text-accent-soft underline">
                  {data.item.orderId}
                </Link>{' '}
                · <PersonLabel name={data.item.customerName} email={data.item.customerEmail} /> · opened{' '}
                {formatWhen(data.request.createdAt)}
              </p>
              <p className="mt-2 text-sm text-ink">
                State: <strong data-testid="admin-support-state">{STATE_LABELS[data.request.state]}</strong>
                {data.item.pastResponseTarget && (
                  <span className="ml-2">
                    <Badge tone="warn">Past the first-response target</Badge>
                  </span>
                )}
              </p>
              <div className="mt-3 flex flex-wrap gap-2">
                {/* A button that would change nothing (the current state) is not offered. */}
                {(['in_progress', 'resolved', 'closed'] as const)
                  .filter((s) => s !== data.request.state)
                  .map((s) => (
                    <Button key={s} variant="secondary" disabled={changing} onClick={() => void setState(s)}>
                      Mark {STATE_LABELS[s]!.toLowerCase()}
                    </Button>
                  ))}
                {/* A request for more work is quoted as a change on its order (docs/decisions/250-change-requests.md). */}
                {data.request.category === 'change' && (
                  <Link
                    to={`/admin/orders/${encodeURIComponent(data.item.orderId)}`}
                    state={{ changeDraft: { title: data.request.title, description: data.request.description } }}
                    className={buttonClass('primary')}
                    data-testid="quote-as-change"
                  >
                    Quote this as a change
                  </Link>
                )}
              </div>
            </Card>
            <Card title="Thread">
              <RequestThread
                messages={[
                  {
                    id: 'opening',
                    sender: 'customer',
                    text: data.request.description,
                    fileIds: data.request.fileIds,
                    createdAt: data.request.createdAt,
                    authorName: null,
                    mine: false,
                  },
                  ...data.messages,
                ]}
                reader="agency"
                fileName={(id) => files.data?.files.find((f) => f.id === id)?.name ?? 'a file'}
                canWrite={data.request.state !== 'closed'}
                onSend={async (text) => {
                  await call(postAdminSupportMessages, { params: { requestId }, body: { text } });
                  await reload();
                }}
              />
            </Card>
          </div>
        )}
      </Loadable>
    </>
  );
}
