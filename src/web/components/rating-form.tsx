import { useId, useState, type FormEvent } from 'react';
import { RATING_COMMENT_MAX } from '../../contract/ratings.ts';
import { fieldError } from '../lib/api.ts';
import { useBusyAction } from '../lib/use-busy-action.ts';
import { Button } from './ui/button.tsx';
import { TextAreaField } from './ui/text-field.tsx';

const LABELS = ['', 'Poor', 'Fair', 'Good', 'Very good', 'Excellent'];

/**
 * 1–5 and an optional comment (docs/decisions/214-ratings.md), for a support request and for the
 * delivered order; `quote` adds the permission to quote the comment. Sent once: the button is
 * disabled while in flight and the form is replaced by `thanks` after.
 */
export function RatingForm({
  legend,
  quote = false,
  onSubmit,
}: {
  legend: string;
  quote?: boolean;
  onSubmit(body: { score: number; comment?: string; mayQuote?: boolean }): Promise<void>;
}) {
  const [score, setScore] = useState(0);
  const [comment, setComment] = useState('');
  const [mayQuote, setMayQuote] = useState(false);
  const [sent, setSent] = useState(false);
  const [lastError, setLastError] = useState<unknown>(null);
  const { busy, error, run } = useBusyAction();
  const name = useId();

  if (sent)
    return (
      <p className="text-sm text-success" role="status">
        Thank you for your rating.
      </p>
    );

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!score || busy) return;
    void run(async () => {
      try {
        await onSubmit({ score, ...(comment.trim() ? { comment: comment.trim() } : {}), ...(quote ? { mayQuote } : {}) });
        setSent(true);
      } catch (err) {
        setLastError(err);
        throw err;
      }
    });
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-3" data-testid="rating-form">
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-ink">{legend}</legend>
        <div className="flex flex-wrap gap-2">
          {[1, 2, 3, 4, 5].map((n) => (
            <label
              key={n}
              className={`inline-flex min-h-11 min-w-11 cursor-pointer items-center justify-center rounded-xl border px-3 text-sm
              font-semibold ${score === n ? 'border-accent bg-accent-strong text-white' : 'border-line text-ink hover:border-accent'}`}
            >
              <input type="radio" name={name} value={n} checked={score === n} onChange={() => setScore(n)} className="sr-only" />
              {n}
              <span className="sr-only"> — {LABELS[n]}</span>
            </label>
          ))}
        </div>
        <p className="text-xs text-muted">1 is poor, 5 is excellent.</p>
      </fieldset>
      <TextAreaField
        label="Comment (optional)"
        rows={3}
        value={comment}
        maxChars={RATING_COMMENT_MAX}
        error={fieldError(lastError, 'comment')}
        onChange={(e) => setComment(e.target.value)}
      />
      {quote && (
        <label className="flex min-h-11 items-center gap-3 text-sm text-ink">
          <input type="checkbox" className="h-4 w-4 accent-accent" checked={mayQuote} onChange={(e) => setMayQuote(e.target.checked)} />
          You may quote my comment on your website
        </label>
      )}
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      <Button type="submit" className="min-h-11 self-start" disabled={!score || busy || comment.length > RATING_COMMENT_MAX}>
        {busy ? 'Sending…' : 'Send rating'}
      </Button>
    </form>
  );
}
