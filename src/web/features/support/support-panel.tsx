import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import {
  SUPPORT_CATEGORIES,
  SUPPORT_ENDED,
  SUPPORT_LIMITS,
  type SupportCategory,
  type SupportOverviewResponse,
  type SupportRequestSummary,
} from '../../../contract/support.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextAreaField, TextField } from '../../components/ui/text-field.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { useOrderFiles } from '../workspace/index.ts';
import { PanelCard, PanelError, PanelLoading, formatShortWhen } from '../workspace/index.ts';
import { supportRead, type Workspace } from '../workspace/index.ts';
import { MaintenanceCharges } from './maintenance-charges.tsx';
import { PlanCard } from './plan-card.tsx';
import { RequestThread } from './request-thread.tsx';
import { RatingForm } from '../../components/rating-form.tsx';
import { useSupportLive } from './use-support-live.ts';
import { CATEGORY_LABELS, STATE_LABELS, customerSupport, formatDay } from './support-api.ts';
import { getOrdersSupportRequestsMessages } from '../../../contract/support.ts';
import { getOrdersRatings } from '../../../contract/ratings.ts';
import { getAdminOrdersById } from '../../../contract/admin-orders.ts';
import { SiteHealthPanel, useSiteCareReads } from '../site-care/index.ts';

// The order page's Support tab. The customer: until when the website is
// covered, the maintenance plan, their requests with threads, and a form to open one (refused
// with the plan's offer once support has ended — the form keeps its text). The founder: the same
// window and requests (answered in /admin/support) and the plan's charges.

export default function SupportPanel({ ws }: { ws: Workspace }) {
  const read = supportRead(ws);
  const overview = useOperation(read.op, read.input);
  // Beside the overview, not after it: the health block below reads these (the same queries).
  useSiteCareReads(ws);
  // A session that ended or lost its role is said as such.
  if (overview.denied && !overview.data) return <PanelError message={overview.error ?? ''} />;
  // Before delivery the routes answer 404 (decision 170): the tab then says when support starts.
  if (overview.status === 404 && !overview.data)
    return (
      <PanelCard>
        <h2 className="text-lg font-semibold text-white">Support</h2>
        <p className="mt-2 text-ink" data-testid="support-until">
          A year of support starts when the website is delivered; requests are opened here.
        </p>
      </PanelCard>
    );
  if (!overview.data) return overview.error ? <PanelError message={overview.error} /> : <PanelLoading label="Loading support" />;
  const data = overview.data;
  return (
    <div className="flex flex-col gap-5">
      <WindowCard data={data} />
      {/* The delivered site's health and care reports (docs/decisions/329-site-care-screens.md). */}
      <SiteHealthPanel ws={ws} />
      {ws.side === 'customer' ? (
        <>
          <PlanCard orderId={ws.orderId} plan={data.plan} offer={data.planOffer} covered={data.covered} onChange={overview.reload} />
          <CustomerRequests ws={ws} requests={data.requests} onChange={overview.reload} />
        </>
      ) : (
        <>
          <AgencyPlan orderId={ws.orderId} />
          <PanelCard>
            <h2 className="text-lg font-semibold text-white">Requests</h2>
            <RequestList requests={data.requests} link={(r) => `/admin/support/${r.id}`} />
          </PanelCard>
        </>
      )}
    </div>
  );
}

function WindowCard({ data }: { data: SupportOverviewResponse }) {
  return (
    <PanelCard>
      <h2 className="text-lg font-semibold text-white">Support</h2>
      <p className="mt-2 text-ink" data-testid="support-until">
        {!data.supportUntil
          ? 'Support starts when your website is delivered.'
          : data.covered
            ? `Support until ${formatDay(data.supportUntil)}`
            : `Support ended on ${formatDay(data.supportUntil)}`}
      </p>
      {data.covered && (
        <p className="mt-1 text-sm text-muted" data-testid="support-target">
          We answer within {data.responseTargetHours} h.
        </p>
      )}
    </PanelCard>
  );
}

/** The founder's view of the order's plan: state, next charge, charges with invoices (from the order detail). */
function AgencyPlan({ orderId }: { orderId: string }) {
  const detail = useOperation(getAdminOrdersById, { params: { id: orderId } });
  if (!detail.data) return detail.error ? <PanelError message={detail.error} /> : null;
  return (
    <PanelCard>
      <h2 className="text-lg font-semibold text-white">Maintenance plan</h2>
      <MaintenanceCharges maintenance={detail.data.maintenance} />
    </PanelCard>
  );
}

function RequestList({
  requests,
  link,
  onOpen,
  openId,
}: {
  requests: SupportRequestSummary[];
  link?(r: SupportRequestSummary): string;
  onOpen?(id: string): void;
  openId?: string | null;
}) {
  if (requests.length === 0) return <p className="mt-2 text-sm text-muted">No requests yet.</p>;
  return (
    <ul className="mt-3 flex flex-col divide-y divide-line" aria-label="Support requests">
      {requests.map((r) => (
        <li key={r.id} data-testid="support-request" className="flex flex-wrap items-center justify-between gap-2 py-3">
          <div className="min-w-0">
            {link ? (
              <Link to={link(r)} className="font-semibold wrap-anywhere text-accent-soft hover:underline">
                {r.title}
              </Link>
            ) : (
              <button
                type="button"
                className="text-left font-semibold wrap-anywhere text-accent-soft hover:underline"
                aria-expanded={openId === r.id}
                onClick={() => onOpen?.(r.id)}
              >
                {r.title}
              </button>
            )}
            <p className="text-xs text-muted">
              {CATEGORY_LABELS[r.category]} · last message {formatShortWhen(r.lastMessageAt)}
            </p>
          </div>
          <span className="rounded-full border border-line px-2.5 py-0.5 text-xs text-ink" data-testid="support-state">
            {STATE_LABELS[r.state]}
          </span>
        </li>
      ))}
    </ul>
  );
}

function CustomerRequests({ ws, requests, onChange }: { ws: Workspace; requests: SupportRequestSummary[]; onChange(): Promise<void> }) {
  const [openId, setOpenId] = useState<string | null>(null);
  const files = useOrderFiles(ws);
  // Live: an answer or a state change from the agency reloads the list and the open thread.
  const [tick, setTick] = useState(0);
  useSupportLive(ws.orderId, () => {
    setTick((t) => t + 1);
    void onChange();
  });
  const fileName = (id: string) => files.data?.find((f) => f.id === id)?.name ?? 'a file';
  return (
    <>
      <PanelCard>
        <h2 className="text-lg font-semibold text-white">Your requests</h2>
        <RequestList requests={requests} onOpen={(id) => setOpenId(openId === id ? null : id)} openId={openId} />
        {openId && (
          <CustomerThread key={openId} orderId={ws.orderId} requestId={openId} tick={tick} fileName={fileName} onChange={onChange} />
        )}
      </PanelCard>
      <NewRequestForm
        orderId={ws.orderId}
        files={files.data ?? []}
        onOpened={async (id) => {
          await onChange();
          setOpenId(id);
        }}
      />
    </>
  );
}

function CustomerThread({
  orderId,
  requestId,
  tick,
  fileName,
  onChange,
}: {
  orderId: string;
  requestId: string;
  tick: number;
  fileName(id: string): string;
  onChange(): Promise<void>;
}) {
  const thread = useOperation(getOrdersSupportRequestsMessages, { params: { orderId, requestId } });
  const ratings = useOperation(getOrdersRatings, { params: { orderId } });
  // `tick` moves with every live event of the order: read the thread again (not at mount: the read has just started).
  const { reload } = thread;
  const mountTick = useRef(tick);
  useEffect(() => {
    if (tick !== mountTick.current) void reload();
  }, [tick, reload]);
  const [error, setError] = useState<string | null>(null);
  const [resolving, setResolving] = useState(false);
  if (!thread.data) return thread.error ? <PanelError message={thread.error} /> : <PanelLoading label="Loading the request" />;
  const { request, messages } = thread.data;
  const all = [
    {
      id: 'opening',
      sender: 'customer' as const,
      text: request.description,
      fileIds: request.fileIds,
      createdAt: request.createdAt,
      authorName: null,
      mine: true,
    },
    ...messages,
  ];
  return (
    <section className="mt-4 flex flex-col gap-3 border-t border-line pt-4" aria-label={`Request: ${request.title}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 className="font-semibold wrap-anywhere text-white">{request.title}</h3>
        {(request.state === 'open' || request.state === 'in_progress') && (
          <Button
            variant="secondary"
            disabled={resolving}
            onClick={async () => {
              // Disabled while in flight: a double click resolves once (docs/decisions/210-idempotency-key.md).
              setResolving(true);
              try {
                await customerSupport.resolve(orderId, requestId);
                await Promise.all([thread.reload(), onChange()]);
              } catch (err) {
                setError(errorMessage(err));
              } finally {
                setResolving(false);
              }
            }}
          >
            {resolving ? 'Saving…' : 'Mark resolved'}
          </Button>
        )}
        {request.state === 'resolved' && (
          <Button
            variant="secondary"
            onClick={async () => {
              try {
                await customerSupport.reopen(orderId, requestId);
                await Promise.all([thread.reload(), onChange()]);
              } catch (err) {
                setError(errorMessage(err));
              }
            }}
          >
            Reopen
          </Button>
        )}
      </div>
      {error && <PanelError message={error} />}
      {(request.state === 'resolved' || request.state === 'closed') &&
        ratings.data &&
        !ratings.data.ratings.some((r) => r.supportRequestId === requestId) && (
          <div className="rounded-xl border border-line p-3">
            <RatingForm
              legend="How was our help with this request?"
              onSubmit={async (body) => void (await customerSupport.rate(orderId, requestId, body))}
            />
          </div>
        )}
      <RequestThread
        messages={all}
        reader="customer"
        fileName={fileName}
        canWrite={request.state !== 'closed'}
        onSend={async (text) => {
          await customerSupport.write(orderId, requestId, text);
          await Promise.all([thread.reload(), onChange()]);
        }}
      />
    </section>
  );
}

function NewRequestForm({
  orderId,
  files,
  onOpened,
}: {
  orderId: string;
  files: { id: string; name: string }[];
  onOpened(id: string): Promise<void>;
}) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [category, setCategory] = useState<SupportCategory | ''>('');
  const [fileIds, setFileIds] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const alertRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (ended) alertRef.current?.focus();
  }, [ended]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!title.trim() || !description.trim() || !category) return setError('Give a title, a description and a category.');
    setBusy(true);
    try {
      const { request } = await customerSupport.open(orderId, { title, description, category, ...(fileIds.length ? { fileIds } : {}) });
      setTitle('');
      setDescription('');
      setCategory('');
      setFileIds([]);
      setError(null);
      setEnded(null);
      await onOpened(request.id);
    } catch (err) {
      // 402: support has ended — the offer is shown, and what was typed stays in the form.
      if (err instanceof ApiError && err.code === SUPPORT_ENDED) {
        setEnded(err.message);
        setError(null);
      } else setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PanelCard>
      <h2 className="text-lg font-semibold text-white">New request</h2>
      <form onSubmit={submit} className="mt-3 flex flex-col gap-4" aria-label="New support request" data-primary-action>
        <TextField label="Title" value={title} maxLength={SUPPORT_LIMITS.title} onChange={(e) => setTitle(e.target.value)} />
        <TextAreaField
          label="Description"
          rows={4}
          value={description}
          maxLength={SUPPORT_LIMITS.description}
          onChange={(e) => setDescription(e.target.value)}
        />
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium text-ink">Category</legend>
          <div className="flex flex-wrap gap-4">
            {SUPPORT_CATEGORIES.map((c) => (
              <label key={c} className="inline-flex min-h-11 items-center gap-2 text-ink">
                <input
                  type="radio"
                  name="support-category"
                  value={c}
                  checked={category === c}
                  onChange={() => setCategory(c)}
                  className="h-4 w-4 accent-accent"
                />
                {CATEGORY_LABELS[c]}
              </label>
            ))}
          </div>
        </fieldset>
        {files.length > 0 && (
          <fieldset className="flex flex-col gap-2">
            <legend className="text-sm font-medium text-ink">Files of the order (optional)</legend>
            {files.map((f) => (
              <label key={f.id} className="inline-flex min-h-11 items-center gap-2 text-sm wrap-anywhere text-ink">
                <input
                  type="checkbox"
                  checked={fileIds.includes(f.id)}
                  onChange={(e) => setFileIds((ids) => (e.target.checked ? [...ids, f.id] : ids.filter((x) => x !== f.id)))}
                  className="h-4 w-4 shrink-0 accent-accent"
                />
                {f.name}
              </label>
            ))}
          </fieldset>
        )}
        {ended && (
          <div
            ref={alertRef}
            tabIndex={-1}
            role="alert"
            className="rounded-xl border border-accent/50 bg-accent/10 px-4 py-3 text-sm text-ink outline-none"
            data-testid="support-ended"
          >
            {ended}
          </div>
        )}
        {error && <PanelError message={error} />}
        <Button type="submit" disabled={busy} className="self-start">
          Send request
        </Button>
      </form>
    </PanelCard>
  );
}
