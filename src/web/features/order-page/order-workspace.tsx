import { Suspense, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { Spinner } from '../../components/ui/spinner.tsx';
import { workspaceOf, type Side } from '../workspace/index.ts';
import { call } from '../../lib/call.ts';
import { postOrdersRating } from '../../../contract/ratings.ts';
import { refreshOrderActions, useOrderActions, WAITING_TAB } from '../../lib/order-actions.ts';
import { RatingForm } from '../../components/rating-form.tsx';
import { PanelCard } from '../workspace/index.ts';
import { PaymentsPanel } from '../statement/index.ts';
import { SupportPanel } from '../support/index.ts';
import { BriefPanel, FilesPanel, ReviewsPanel, MessagesPanel } from '../workspace/index.ts';

// The order page (the customer's /status/:id, the founder's /admin/orders/:id)
// as tabs — Progress (what the page showed before), Brief, Files, Reviews, Messages. The tab is in
// the address (?tab=files) so a notice e-mail or a reload lands on it. Each panel is its own
// chunk, loaded when its tab is first opened; none of it is imported by a public page's island.

// Support after delivery (requests, the window, the maintenance plan).
// The order's statement of account (docs/decisions/320-order-ledger.md).

const TABS = [
  { id: 'progress', label: 'Progress' },
  { id: 'brief', label: 'Brief' },
  { id: 'files', label: 'Files' },
  { id: 'reviews', label: 'Reviews' },
  { id: 'messages', label: 'Messages' },
  { id: 'support', label: 'Support' },
  { id: 'payments', label: 'Payments' },
] as const;
type TabId = (typeof TABS)[number]['id'];
export type WorkspaceTab = TabId;

/** Each tab but Progress is its own chunk. */
const PANELS = {
  brief: BriefPanel,
  files: FilesPanel,
  reviews: ReviewsPanel,
  messages: MessagesPanel,
  support: SupportPanel,
  payments: PaymentsPanel,
} as const satisfies Record<Exclude<TabId, 'progress'>, unknown>;

/**
 * Asks for the chunk of the tab named in the address (?tab=…) at the order page's first render,
 * beside its first read, instead of after it (docs/decisions/351-screens-in-series.md).
 */
export function usePreloadOrderTab(): void {
  const tab = useSearchParams()[0].get('tab');
  useState(() => (tab && tab in PANELS ? PANELS[tab as keyof typeof PANELS].preload() : undefined));
}

/** A tab's count of what waits for the reader there; the same badge on both sides' order pages. */
function TabBadge({ count, testId }: { count: number; testId: string }) {
  if (count <= 0) return null;
  return (
    <span className="absolute -top-1 right-0 rounded-full bg-amber-300 px-1.5 text-xs font-bold text-black sm:static" data-testid={testId}>
      {count}
      <span className="sr-only"> waiting for you</span>
    </span>
  );
}

/**
 * `agencyWaiting`: on the back office's page, what waits for the agency per tab (the order's share of
 * GET /admin/actions, docs/decisions/278-admin-order-tab-badges.md); the customer's page reads its own.
 * `onTabChange`: told after a tab is chosen (the back office reads its counts again).
 */
export function OrderWorkspace({
  side,
  orderId,
  progress,
  unreadMessages = 0,
  agencyWaiting,
  onTabChange,
}: {
  side: Side;
  orderId: string;
  progress: ReactNode;
  unreadMessages?: number;
  agencyWaiting?: Partial<Record<TabId, number>>;
  onTabChange?: (tab: TabId) => void;
}) {
  const [params, setParams] = useSearchParams();
  const asked = params.get('tab');
  // Back from the maintenance plan's checkout (?razorpay_subscription_id=…): the Support tab verifies it.
  const current: TabId = TABS.some((t) => t.id === asked)
    ? (asked as TabId)
    : params.has('razorpay_subscription_id')
      ? 'support'
      : 'progress';
  const ws = useMemo(() => workspaceOf(side, orderId), [side, orderId]);
  const Panel = current === 'progress' ? null : PANELS[current];
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  // Opening Messages reads the thread: its count is then old news.
  const [readMessages, setReadMessages] = useState(false);
  if (current === 'messages' && !readMessages) setReadMessages(true);
  // What waits for the customer, as badges on the tabs where it is done (docs/decisions/213-action-counts.md).
  const mine = useOrderActions(side === 'customer')?.orders.find((o) => o.orderId === orderId);
  const waitingOn = (tab: TabId) =>
    side === 'agency'
      ? (agencyWaiting?.[tab] ?? 0)
      : (mine?.waiting ?? []).filter((w) => w.kind !== 'reply' && WAITING_TAB[w.kind] === tab).reduce((n, w) => n + w.count, 0);
  const rating = mine?.waiting.some((w) => w.kind === 'rating') ?? false;

  const select = (id: TabId, focus = false) => {
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (id === 'progress') next.delete('tab');
        else next.set('tab', id);
        return next;
      },
      { replace: true, preventScrollReset: true },
    );
    if (focus) buttons.current[TABS.findIndex((t) => t.id === id)]?.focus();
    // What was done on the tab left may have cleared a count.
    if (side === 'customer') void refreshOrderActions();
    onTabChange?.(id);
  };
  // The tabs pattern of WAI-ARIA: arrows move between tabs, Home/End to the ends.
  const onKeyDown = (e: KeyboardEvent) => {
    const i = TABS.findIndex((t) => t.id === current);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: TABS.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    select(TABS[(to + TABS.length) % TABS.length]!.id, true);
  };

  return (
    <div className="flex min-w-0 flex-col gap-5">
      <div
        role="tablist"
        aria-label="Order workspace"
        className="grid grid-cols-3 gap-1 rounded-2xl border border-line bg-card p-1 sm:flex sm:flex-wrap"
        onKeyDown={onKeyDown}
      >
        {TABS.map((t, i) => {
          const selected = t.id === current;
          return (
            <button
              key={t.id}
              ref={(el) => {
                buttons.current[i] = el;
              }}
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-selected={selected}
              aria-controls={`panel-${t.id}`}
              tabIndex={selected ? 0 : -1}
              onClick={() => select(t.id)}
              className={`relative inline-flex min-h-11 flex-auto items-center justify-center gap-1.5 rounded-xl px-1.5 py-2 text-xs
              font-semibold whitespace-nowrap transition-colors sm:flex-none sm:px-4 sm:text-sm ${
                selected ? 'bg-accent-strong text-white' : 'text-muted hover:text-white'
              }`}
            >
              {t.label}
              {t.id === 'messages' && unreadMessages > 0 && !readMessages && (
                <span
                  className="absolute -top-1 right-0 rounded-full bg-danger px-1.5 text-xs font-bold text-white sm:static"
                  data-testid="tab-unread"
                >
                  {unreadMessages}
                  <span className="sr-only"> unread</span>
                </span>
              )}
              {t.id !== 'messages' && <TabBadge count={waitingOn(t.id)} testId={`tab-waiting-${t.id}`} />}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`panel-${current}`} aria-labelledby={`tab-${current}`} className="min-w-0">
        <Suspense fallback={<Spinner label="Loading" className="h-6 w-6 text-accent-soft" />}>
          {current === 'progress' && rating && <HowDidWeDo orderId={orderId} />}
          {current === 'progress' && progress}
          {Panel && <Panel ws={ws} />}
        </Suspense>
      </div>
    </div>
  );
}

/** Once the website is delivered, the order asks once how it went (docs/decisions/214-ratings.md). */
function HowDidWeDo({ orderId }: { orderId: string }) {
  return (
    <PanelCard className="mb-6">
      <h2 className="mb-3 text-lg font-semibold text-white">How did we do?</h2>
      <RatingForm
        legend="Rate your website project"
        quote
        // The counts are read again on the next tab change or focus: refreshing now would remove
        // this card before its "thank you" is read.
        onSubmit={async (body) => void (await call(postOrdersRating, { params: { orderId }, body }))}
      />
    </PanelCard>
  );
}
