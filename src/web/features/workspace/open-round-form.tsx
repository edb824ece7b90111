import { useId, useState } from 'react';
import type { OrderFile } from '../../../contract/order-files.ts';
import { REVIEW_LIMITS, openReviewBody, postAdminOrdersReviews, type Review, type ReviewKind } from '../../../contract/reviews.ts';
import { Button } from '../../components/ui/button.tsx';
import { TextAreaField, TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { FileThumb } from './file-thumb.tsx';
import { PanelCard, PanelError } from './panel-ui.tsx';
import type { Workspace } from './workspace-api.ts';

// The founder opens the next review round: kind, title, note, the order's images
// and PDFs to review (uploaded in Files first), and optionally a preview link. Checked with the
// contract's own schema before it is sent; the server checks again.

const reviewable = (f: OrderFile) => f.contentType.startsWith('image/') || f.contentType === 'application/pdf';

export function OpenRoundForm({
  ws,
  files,
  reviews,
  onOpened,
}: {
  ws: Workspace;
  files: OrderFile[];
  reviews: Review[];
  onOpened(r: Review): Promise<void>;
}) {
  const [shown, setShown] = useState(false);
  const [kind, setKind] = useState<ReviewKind>('ui');
  const [title, setTitle] = useState('');
  const [note, setNote] = useState('');
  const [previewUrl, setPreviewUrl] = useState('');
  const [chosen, setChosen] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const id = useId();
  const candidates = files.filter(reviewable);
  const nextRound = (k: ReviewKind) => reviews.filter((r) => r.kind === k).length + 1;
  const openOfKind = reviews.find((r) => r.kind === kind && r.state === 'open');

  if (!shown) {
    return (
      <div>
        <Button onClick={() => setShown(true)}>Open a review round</Button>
      </div>
    );
  }

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = openReviewBody.safeParse({
      kind,
      title: title.trim() || `${kind === 'ui' ? 'UI design' : 'Final website'} — round ${nextRound(kind)}`,
      ...(note.trim() ? { note } : {}),
      fileIds: chosen,
      ...(previewUrl.trim() ? { previewUrl } : {}),
    });
    if (!parsed.success) return setError(parsed.error.issues[0]?.message ?? 'Check the form.');
    setBusy(true);
    setError(null);
    try {
      const { review } = await call(postAdminOrdersReviews, { params: { orderId: ws.orderId }, body: parsed.data });
      setShown(false);
      setTitle('');
      setNote('');
      setPreviewUrl('');
      setChosen([]);
      await onOpened(review);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PanelCard>
      <form onSubmit={submit} className="flex flex-col gap-4" aria-labelledby={`${id}-h`} noValidate>
        <h2 id={`${id}-h`} className="text-xl font-semibold text-white">
          Open a review round
        </h2>
        <fieldset className="flex flex-wrap gap-2">
          <legend className="mb-1 text-sm font-medium text-ink">Kind</legend>
          {(['ui', 'final'] as const).map((k) => (
            <label
              key={k}
              className="flex min-h-11 cursor-pointer items-center gap-2 rounded-xl border border-line px-3 py-2 text-sm text-ink
                has-checked:border-accent"
            >
              <input type="radio" name={`${id}-kind`} checked={kind === k} onChange={() => setKind(k)} className="h-4 w-4 accent-accent" />
              {k === 'ui' ? 'UI design' : 'Final website'} (round {nextRound(k)})
            </label>
          ))}
        </fieldset>
        {openOfKind && (
          <p className="text-sm text-glow-yellow">Round {openOfKind.round} of this kind is still open: the customer decides it first.</p>
        )}
        <TextField
          label="Title"
          value={title}
          maxLength={REVIEW_LIMITS.title}
          onChange={(e) => setTitle(e.target.value)}
          placeholder={`${kind === 'ui' ? 'UI design' : 'Final website'} — round ${nextRound(kind)}`}
        />
        <TextAreaField
          label="Note to the customer (optional)"
          rows={3}
          value={note}
          maxChars={REVIEW_LIMITS.note}
          onChange={(e) => setNote(e.target.value)}
        />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium text-ink">Designs to review (images or PDFs of the order)</legend>
          {candidates.length === 0 ? (
            <p className="text-sm text-muted">Upload the designs in Files first.</p>
          ) : (
            candidates.map((f) => (
              <label
                key={f.id}
                className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-line px-3 py-2 text-sm text-ink
                  has-checked:border-accent"
              >
                <input
                  type="checkbox"
                  checked={chosen.includes(f.id)}
                  onChange={(e) => setChosen((c) => (e.target.checked ? [...c, f.id] : c.filter((x) => x !== f.id)))}
                  className="h-4 w-4 shrink-0 accent-accent"
                />
                <FileThumb ws={ws} file={f} className="h-10 w-10" />
                <span className="min-w-0 wrap-anywhere">{f.name}</span>
              </label>
            ))
          )}
        </fieldset>
        <TextField
          label="Preview link (optional; with no designs chosen, the round reviews the live site)"
          type="url"
          inputMode="url"
          value={previewUrl}
          maxLength={REVIEW_LIMITS.previewUrl}
          onChange={(e) => setPreviewUrl(e.target.value)}
          placeholder="https://preview.example.com"
        />
        {error && <PanelError message={error} />}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy}>
            {busy ? 'Opening…' : 'Open the round'}
          </Button>
          <Button variant="secondary" onClick={() => setShown(false)}>
            Cancel
          </Button>
        </div>
      </form>
    </PanelCard>
  );
}
