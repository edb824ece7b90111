import { useId, useState } from 'react';
import type { OrderFile } from '../../../contract/order-files.ts';
import {
  deleteOrdersReviewsCommentsByCommentId,
  patchOrdersReviewsCommentsByCommentId,
  postAdminOrdersReviewsComments,
  postAdminOrdersReviewsCommentsResolve,
  postOrdersReviewsComments,
  postOrdersReviewsDecision,
  REVIEW_LIMITS,
  type Review,
} from '../../../contract/reviews.ts';
import { formatWhen } from '../../../domain/when.ts';
import { Button } from '../../components/ui/button.tsx';
import { CharCount, inputClass } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { downloadOperation } from '../../lib/call-file.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { FileThumb } from './file-thumb.tsx';
import { useOrderFiles } from './order-files.ts';
import { OpenRoundForm } from './open-round-form.tsx';
import { PanelCard, PanelError, PanelLoading } from './panel-ui.tsx';
import { PinBoard, type NumberedPin } from './pin-board.tsx';
import { LIVE_SITE_HINT, LiveSiteButton, SitePinDetails } from './site-pin.tsx';
import { isInlineImage } from './use-file-url.ts';
import { useReviewLive } from './use-review-live.ts';
import { ORDER_FILE, REVIEWS, type Workspace } from './workspace-api.ts';

// Design review rounds. The customer sees the round's images large, pins comments
// on them and decides (Approve / Request changes); the founder opens rounds, answers and resolves
// pins. Newest round first and open; earlier rounds folded below.

export const KIND_LABEL = { ui: 'UI design', final: 'Final website' } as const;
const STATE_LABEL = { open: 'Waiting for your decision', approved: 'Approved', changes_requested: 'Changes requested' } as const;
const STATE_LABEL_AGENCY = { ...STATE_LABEL, open: 'Waiting for the customer' } as const;

export default function ReviewsPanel({ ws }: { ws: Workspace }) {
  const reviews = useOperation(REVIEWS[ws.side], { params: { orderId: ws.orderId } });
  const files = useOrderFiles(ws);
  const [notice, setNotice] = useState<string | null>(null);
  // A round decided, pinned or opened in another tab (or by the other side) is read again at once.
  useReviewLive(ws.orderId, reviews.reload);

  if (reviews.error || files.error) return <PanelError message={(reviews.error ?? files.error)!} />;
  if (!reviews.data || !files.data) return <PanelLoading label="Loading the reviews" />;
  const rounds = [...reviews.data.reviews].reverse();
  const byId = new Map(files.data.map((f) => [f.id, f]));
  const replace = (r: Review) => reviews.set((all) => all && { ...all, reviews: all.reviews.map((x) => (x.id === r.id ? r : x)) });

  return (
    <div className="flex flex-col gap-5">
      <p role="status" className="text-sm text-success empty:hidden">
        {notice ?? ''}
      </p>
      {ws.side === 'agency' && (
        <OpenRoundForm
          ws={ws}
          files={files.data}
          reviews={reviews.data.reviews}
          onOpened={async (r) => {
            setNotice(`Opened ${KIND_LABEL[r.kind]} round ${r.round}.`);
            await reviews.reload();
          }}
        />
      )}
      {rounds.length === 0 ? (
        <PanelCard>
          <h2 className="text-xl font-semibold text-white">Design reviews</h2>
          <p className="mt-2 text-sm text-muted">
            {ws.side === 'customer' ? 'When your design is ready, it appears here for your comments and approval.' : 'No review round yet.'}
          </p>
        </PanelCard>
      ) : (
        rounds.map((r, i) =>
          i === 0 ? (
            <Round key={r.id} ws={ws} review={r} files={byId} onChange={replace} onDecided={setNotice} reload={reviews.reload} />
          ) : (
            <details key={r.id} className="group rounded-2xl border border-line bg-card">
              <summary className="flex min-h-11 cursor-pointer items-center justify-between gap-3 px-4 py-3 text-sm text-ink sm:px-6">
                <span className="wrap-anywhere">
                  {KIND_LABEL[r.kind]} · round {r.round}: {r.title}
                </span>
                <StateBadge review={r} side={ws.side} />
              </summary>
              <div className="border-t border-line">
                <Round ws={ws} review={r} files={byId} onChange={replace} onDecided={setNotice} reload={reviews.reload} bare />
              </div>
            </details>
          ),
        )
      )}
    </div>
  );
}

function StateBadge({ review, side }: { review: Review; side: Workspace['side'] }) {
  const tone =
    review.state === 'approved'
      ? 'border-success/50 text-success'
      : review.state === 'open'
        ? 'border-glow-yellow/60 text-glow-yellow'
        : 'border-accent text-accent-soft';
  return (
    <span className={`inline-block shrink-0 rounded-full border px-2 py-0.5 text-xs font-medium ${tone}`} data-testid="review-state">
      {(side === 'agency' ? STATE_LABEL_AGENCY : STATE_LABEL)[review.state]}
    </span>
  );
}

/** Pins (comments that answer nothing) numbered in the order they were dropped, over all the round's files. */
function numberPins(review: Review): NumberedPin[] {
  return review.comments
    .filter((c) => !c.replyTo)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt))
    .map((comment, i) => ({ number: i + 1, comment }));
}

function Round({
  ws,
  review,
  files,
  onChange,
  onDecided,
  reload,
  bare = false,
}: {
  ws: Workspace;
  review: Review;
  files: Map<string, OrderFile>;
  onChange(r: Review): void;
  onDecided(message: string): void;
  reload(): Promise<void>;
  bare?: boolean;
}) {
  const [active, setActive] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const pins = numberPins(review);
  const open = review.state === 'open';
  const params = { orderId: ws.orderId, reviewId: review.id };

  const pin = async (fileId: string, x: number, y: number, text: string) => {
    try {
      const { comment } = await call(postOrdersReviewsComments, { params, body: { fileId, x, y, text } });
      onChange({ ...review, comments: [...review.comments, comment] });
      setActive(comment.id);
      return null;
    } catch (err) {
      return errorMessage(err);
    }
  };
  const act = async (run: () => Promise<unknown>) => {
    setError(null);
    try {
      await run();
      await reload();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const body = (
    <div className="flex flex-col gap-6">
      <div className="flex flex-col gap-2">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-xl font-semibold wrap-anywhere text-white">
            {KIND_LABEL[review.kind]} · round {review.round}
          </h2>
          <StateBadge review={review} side={ws.side} />
        </div>
        <p className="font-medium wrap-anywhere text-ink">{review.title}</p>
        {review.note && <p className="whitespace-pre-line wrap-anywhere text-sm text-muted">{review.note}</p>}
        {review.previewUrl && (
          <a
            href={review.previewUrl}
            target="_blank"
            rel="noopener noreferrer nofollow"
            className="w-fit text-sm break-all text-accent-soft underline"
          >
            Open the preview ↗
          </a>
        )}
        {review.decidedAt && (
          <p className="text-sm text-muted" data-testid="review-decided">
            {review.state === 'approved' ? 'Approved' : 'Changes requested'} {formatWhen(review.decidedAt)}
            {review.decisionComment && (
              <span className="mt-1 block whitespace-pre-line wrap-anywhere text-ink">“{review.decisionComment}”</span>
            )}
          </p>
        )}
        {ws.side === 'customer' && open && (
          <p className="text-sm text-ink">
            {review.fileIds.length
              ? 'Click anywhere on a design to pin a comment there (on a phone: “Add a pin”, then tap the spot), then approve it or ask for changes below.'
              : LIVE_SITE_HINT}
          </p>
        )}
        <LiveSiteButton ws={ws} review={review} />
      </div>
      {review.fileIds.map((id, i) => {
        const file = files.get(id);
        if (!file) return null;
        const filePins = pins.filter((p) => p.comment.fileId === id);
        if (!isInlineImage(file)) return <DownloadCard key={id} ws={ws} file={file} index={i} />;
        return (
          <PinBoard
            key={id}
            ws={ws}
            file={file}
            index={i}
            pins={filePins}
            nextNumber={pins.length + 1}
            canPin={ws.side === 'customer' && open}
            active={active}
            onActivate={setActive}
            onPin={(x, y, text) => pin(id, x, y, text)}
          />
        );
      })}
      {pins.length > 0 && <PinList ws={ws} review={review} pins={pins} active={active} act={act} />}
      {error && <PanelError message={error} />}
      {ws.side === 'customer' && open && (
        <DecisionForm
          ws={ws}
          review={review}
          hasPins={pins.some((p) => p.comment.author === 'customer')}
          onDecided={onDecided}
          reload={reload}
        />
      )}
    </div>
  );
  return bare ? <div className="p-4 sm:p-6">{body}</div> : <PanelCard>{body}</PanelCard>;
}

function DownloadCard({ ws, file, index }: { ws: Workspace; file: OrderFile; index: number }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-wrap items-center gap-3 rounded-xl border border-line p-3">
      <FileThumb ws={ws} file={file} />
      <div className="min-w-0 flex-1 basis-40">
        <p className="text-sm wrap-anywhere text-ink">
          Design {index + 1}: {file.name}
        </p>
        {/* Pins work on images only (docs/decisions/219-review-and-tracker-polish.md): said, not promised. */}
        <p className="text-xs text-muted" data-testid="pdf-no-pins">
          Pins work on images. Download this file to look at it, and say what to change in your comment below.
        </p>
      </div>
      <Button
        variant="secondary"
        onClick={async () =>
          setError(await downloadOperation(ORDER_FILE[ws.side], { params: { orderId: ws.orderId, fileId: file.id } }, file.name))
        }
      >
        Download
      </Button>
      {error && <PanelError message={error} />}
    </div>
  );
}

function PinList({
  ws,
  review,
  pins,
  active,
  act,
}: {
  ws: Workspace;
  review: Review;
  pins: NumberedPin[];
  active: string | null;
  act(run: () => Promise<unknown>): Promise<void>;
}) {
  const params = { orderId: ws.orderId, reviewId: review.id };
  return (
    <section aria-label="Pinned comments" className="flex flex-col gap-2">
      <h3 className="text-sm font-semibold text-white">Pinned comments</h3>
      <ol className="flex flex-col gap-2">
        {pins.map(({ number, comment }) => {
          const replies = review.comments.filter((c) => c.replyTo === comment.id);
          return (
            <li
              key={comment.id}
              className={`flex flex-col gap-2 rounded-xl border p-3 ${active === comment.id ? 'border-glow-yellow/70' : 'border-line'}`}
              data-testid="pin-comment"
            >
              <div className="flex items-start gap-3">
                <span
                  className={`flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-xs font-bold
                  ${comment.resolved ? 'bg-success text-page' : 'bg-accent-strong text-white'}`}
                  aria-hidden="true"
                >
                  {number}
                </span>
                <div className="min-w-0 flex-1">
                  <p className="whitespace-pre-line wrap-anywhere text-sm text-white">
                    <span className="sr-only">Pin {number}: </span>
                    {comment.text}
                  </p>
                  <p className="text-xs text-muted">
                    {comment.author === ws.side ? 'You' : comment.author === 'agency' ? 'The agency' : 'The customer'} ·{' '}
                    {formatWhen(comment.createdAt)}
                    {comment.resolved && <span className="text-success"> · Resolved</span>}
                  </p>
                </div>
              </div>
              {comment.pageUrl && <SitePinDetails ws={ws} review={review} comment={comment} number={number} />}
              {replies.map((r) => (
                <p key={r.id} className="ml-10 whitespace-pre-line wrap-anywhere rounded-lg bg-field px-3 py-2 text-sm text-ink">
                  <span className="text-xs text-muted">
                    {r.author === ws.side ? 'You' : r.author === 'agency' ? 'The agency' : 'The customer'}:{' '}
                  </span>
                  {r.text}
                </p>
              ))}
              {ws.side === 'customer' &&
                review.state === 'open' &&
                comment.author === 'customer' &&
                !comment.resolved &&
                replies.length === 0 && (
                  <OwnPinActions
                    number={number}
                    text={comment.text}
                    onEdit={(text) =>
                      act(() =>
                        call(patchOrdersReviewsCommentsByCommentId, { params: { ...params, commentId: comment.id }, body: { text } }),
                      )
                    }
                    onDelete={() =>
                      act(() => call(deleteOrdersReviewsCommentsByCommentId, { params: { ...params, commentId: comment.id } }))
                    }
                  />
                )}
              {ws.side === 'agency' && (
                <AgencyActions
                  number={number}
                  resolved={comment.resolved}
                  onResolve={() => act(() => call(postAdminOrdersReviewsCommentsResolve, { params: { ...params, commentId: comment.id } }))}
                  onReply={(text) =>
                    act(() =>
                      call(postAdminOrdersReviewsComments, {
                        params,
                        body: {
                          ...(comment.fileId ? { fileId: comment.fileId } : {}),
                          x: comment.x,
                          y: comment.y,
                          text,
                          replyTo: comment.id,
                        },
                      }),
                    )
                  }
                />
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/**
 * The customer's own pin, until the agency answers it (docs/decisions/219-review-and-tracker-polish.md):
 * correct its text, or take it back after a confirmation.
 */
function OwnPinActions({
  number,
  text,
  onEdit,
  onDelete,
}: {
  number: number;
  text: string;
  onEdit(text: string): Promise<void>;
  onDelete(): Promise<void>;
}) {
  const [mode, setMode] = useState<'idle' | 'editing' | 'deleting'>('idle');
  const [draft, setDraft] = useState(text);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    await work();
    setBusy(false);
    setMode('idle');
  };
  if (mode === 'editing') {
    return (
      <form
        className="ml-10 flex flex-col gap-2"
        onSubmit={(e) => {
          e.preventDefault();
          if (draft.trim()) void run(() => onEdit(draft.trim()));
        }}
      >
        <label htmlFor={id} className="text-sm font-medium text-ink">
          Pin {number}
        </label>
        <textarea
          id={id}
          rows={2}
          autoFocus
          maxLength={REVIEW_LIMITS.comment}
          className={`${inputClass} resize-y`}
          value={draft}
          onChange={(e) => setDraft(e.target.value)}
        />
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy || !draft.trim()} className="px-3 py-1.5">
            Save
          </Button>
          <Button variant="ghost" className="px-3" onClick={() => setMode('idle')}>
            Cancel
          </Button>
        </div>
      </form>
    );
  }
  if (mode === 'deleting') {
    return (
      <div role="group" aria-label={`Delete pin ${number}?`} className="ml-10 flex flex-wrap items-center gap-2">
        <span className="text-sm text-ink">Delete this pin?</span>
        <Button variant="secondary" disabled={busy} className="px-3 py-1.5" onClick={() => void run(onDelete)}>
          Yes, delete
        </Button>
        <Button variant="ghost" className="px-3" onClick={() => setMode('idle')}>
          Keep it
        </Button>
      </div>
    );
  }
  return (
    <div className="ml-10 flex flex-wrap gap-2">
      <Button
        variant="secondary"
        className="px-3 py-1.5"
        aria-label={`Edit pin ${number}`}
        onClick={() => {
          setDraft(text);
          setMode('editing');
        }}
      >
        Edit
      </Button>
      <Button variant="secondary" className="px-3 py-1.5" aria-label={`Delete pin ${number}`} onClick={() => setMode('deleting')}>
        Delete
      </Button>
    </div>
  );
}

function AgencyActions({
  number,
  resolved,
  onResolve,
  onReply,
}: {
  number: number;
  resolved: boolean;
  onResolve(): Promise<void>;
  onReply(text: string): Promise<void>;
}) {
  const [replying, setReplying] = useState(false);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const id = useId();
  if (replying) {
    return (
      <form
        className="ml-10 flex flex-col gap-2"
        onSubmit={async (e) => {
          e.preventDefault();
          if (!text.trim() || sending || text.length > REVIEW_LIMITS.comment) return;
          // Disabled while in flight: a double click answers once (docs/decisions/210-idempotency-key.md).
          setSending(true);
          try {
            await onReply(text.trim());
            setReplying(false);
            setText('');
          } finally {
            setSending(false);
          }
        }}
      >
        <label htmlFor={id} className="text-xs text-muted">
          Answer to pin {number}
        </label>
        <textarea id={id} autoFocus rows={2} className={`${inputClass} resize-y`} value={text} onChange={(e) => setText(e.target.value)} />
        <CharCount length={text.length} max={REVIEW_LIMITS.comment} />
        <div className="flex gap-2">
          <Button type="submit" className="px-3" disabled={sending || text.length > REVIEW_LIMITS.comment}>
            {sending ? 'Sending…' : 'Send answer'}
          </Button>
          <Button variant="ghost" className="px-3" onClick={() => setReplying(false)}>
            Cancel
          </Button>
        </div>
      </form>
    );
  }
  return (
    <div className="ml-10 flex flex-wrap gap-2">
      <Button variant="secondary" className="px-3 py-1.5" onClick={() => setReplying(true)} aria-label={`Answer pin ${number}`}>
        Answer
      </Button>
      {!resolved && (
        <Button variant="secondary" className="px-3 py-1.5" onClick={() => void onResolve()} aria-label={`Resolve pin ${number}`}>
          Resolve
        </Button>
      )}
    </div>
  );
}

function DecisionForm({
  ws,
  review,
  hasPins,
  onDecided,
  reload,
}: {
  ws: Workspace;
  review: Review;
  hasPins: boolean;
  onDecided(m: string): void;
  reload(): Promise<void>;
}) {
  const [comment, setComment] = useState('');
  const [confirming, setConfirming] = useState<'approve' | 'request_changes' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();

  const decide = async (decision: 'approve' | 'request_changes') => {
    if (decision === 'request_changes' && !comment.trim() && !hasPins)
      return setError('Say what to change: pin a comment on the design or write it here.');
    setBusy(true);
    setError(null);
    try {
      await call(postOrdersReviewsDecision, {
        params: { orderId: ws.orderId, reviewId: review.id },
        body: { decision, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      });
      onDecided(
        decision === 'approve'
          ? `You approved ${KIND_LABEL[review.kind]} round ${review.round}. Thank you!`
          : 'Thanks — we will send a new round with your changes.',
      );
      await reload();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setConfirming(null);
    }
  };

  return (
    <section aria-labelledby={`${id}-h`} className="flex flex-col gap-3 rounded-xl border border-line p-4" data-primary-action>
      <h3 id={`${id}-h`} className="font-semibold text-white">
        Your decision
      </h3>
      <label htmlFor={id} className="text-sm font-medium text-ink">
        Comment (needed to ask for changes without pins; optional to approve)
      </label>
      <textarea id={id} rows={3} className={`${inputClass} resize-y`} value={comment} onChange={(e) => setComment(e.target.value)} />
      <CharCount length={comment.length} max={REVIEW_LIMITS.comment} />
      {error && <PanelError message={error} />}
      {confirming === 'approve' ? (
        <div role="group" aria-label="Confirm the approval" className="flex flex-col gap-2 rounded-xl border border-success/40 p-3">
          <p className="text-sm text-ink">
            {review.kind === 'ui'
              ? 'Approve this design? We then build your website, and your estimated delivery date is set from today.'
              : 'Approve the final website? We then prepare the delivery.'}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button disabled={busy} onClick={() => void decide('approve')}>
              Yes, approve
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Not yet
            </Button>
          </div>
        </div>
      ) : confirming === 'request_changes' ? (
        // Asked like Approve: a decision closes the round for pins, so it is not one click away.
        <div
          role="group"
          aria-label="Confirm the request for changes"
          className="flex flex-col gap-2 rounded-xl border border-accent/60 p-3"
        >
          <p className="text-sm text-ink">
            Send your pins and comment and ask for changes? The round then closes: we answer your pins and send a new round.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button disabled={busy} onClick={() => void decide('request_changes')}>
              Yes, request changes
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(null)}>
              Not yet
            </Button>
          </div>
        </div>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row">
          <Button disabled={busy} onClick={() => setConfirming('approve')}>
            Approve
          </Button>
          <Button
            variant="secondary"
            disabled={busy}
            onClick={() => {
              if (!comment.trim() && !hasPins) return setError('Say what to change: pin a comment on the design or write it here.');
              setError(null);
              setConfirming('request_changes');
            }}
          >
            Request changes
          </Button>
        </div>
      )}
    </section>
  );
}
