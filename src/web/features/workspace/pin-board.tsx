import { useEffect, useId, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { OrderFile } from '../../../contract/order-files.ts';
import { REVIEW_LIMITS, type ReviewComment } from '../../../contract/reviews.ts';
import { Button } from '../../components/ui/button.tsx';
import { CharCount, inputClass } from '../../components/ui/text-field.tsx';
import { useImageUrl } from './use-file-url.ts';
import type { Workspace } from './workspace-api.ts';

// One design image of a review round, large, with its numbered pins. Where a pin
// sits is stored as fractions of the image's width and height, so it stays on the same spot at any
// size. A pin is dropped by a click or a tap on the spot, or from the keyboard: the image is
// focusable, the arrow keys move a crosshair (Shift: bigger steps) and Enter drops the pin there.
// The pins are buttons beside the image (not inside it), so no control is nested in another.

export interface NumberedPin {
  number: number;
  comment: ReviewComment;
}

const STEP = 0.02;
const BIG_STEP = 0.1;
const clamp = (v: number) => Math.min(1, Math.max(0, v));
const pct = (v: number) => `${(v * 100).toFixed(3)}%`;
const PHONE = '(max-width: 639px)';

/** A phone-sized screen: a design opens full size there, and pinning is a mode of its own. */
function usePhone(): boolean {
  const [phone, setPhone] = useState(() => typeof window !== 'undefined' && window.matchMedia?.(PHONE).matches);
  useEffect(() => {
    const query = window.matchMedia?.(PHONE);
    if (!query) return;
    const changed = () => setPhone(query.matches);
    query.addEventListener('change', changed);
    return () => query.removeEventListener('change', changed);
  }, []);
  return phone;
}

export function PinBoard({
  ws,
  file,
  index,
  pins,
  nextNumber,
  canPin,
  active,
  onActivate,
  onPin,
}: {
  ws: Workspace;
  file: OrderFile;
  index: number;
  pins: NumberedPin[];
  nextNumber: number;
  canPin: boolean;
  active: string | null;
  onActivate(commentId: string): void;
  /** Saves a pin; answers an error sentence or null. */
  onPin(x: number, y: number, text: string): Promise<string | null>;
}) {
  const url = useImageUrl(ws, file);
  const surface = useRef<HTMLDivElement>(null);
  const [cursor, setCursor] = useState<{ x: number; y: number } | null>(null);
  const [draft, setDraft] = useState<{ x: number; y: number } | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const commentId = useId();
  const helpId = useId();
  // On a phone the design is shown at its own size, to pan and pinch-zoom; a tap then pins nothing
  // until "Add a pin" turns pinning on (docs/decisions/219-review-and-tracker-polish.md).
  const phone = usePhone();
  const [pinMode, setPinMode] = useState(false);
  const viewing = phone && !pinMode && !draft;
  const pinnable = canPin && !viewing;

  const start = (x: number, y: number) => {
    setDraft({ x: clamp(x), y: clamp(y) });
    setError(null);
  };
  const onClick = (e: MouseEvent<HTMLDivElement>) => {
    if (!pinnable) return;
    const box = e.currentTarget.getBoundingClientRect();
    // A click from the keyboard (detail 0) is handled by onKeyDown; this is a pointer's spot.
    if (e.detail === 0 || box.width === 0 || box.height === 0) return;
    start((e.clientX - box.left) / box.width, (e.clientY - box.top) / box.height);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (!pinnable) return;
    const at = cursor ?? { x: 0.5, y: 0.5 };
    const step = e.shiftKey ? BIG_STEP : STEP;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-step, 0],
      ArrowRight: [step, 0],
      ArrowUp: [0, -step],
      ArrowDown: [0, step],
    };
    const move = moves[e.key];
    if (move) {
      e.preventDefault();
      setCursor({ x: clamp(at.x + move[0]), y: clamp(at.y + move[1]) });
    } else if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      start(at.x, at.y);
    }
  };
  const cancel = () => {
    setDraft(null);
    setText('');
    setError(null);
    setPinMode(false);
    surface.current?.focus();
  };
  const save = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!draft) return;
    if (!text.trim()) return setError('Write what to change at this spot.');
    setSaving(true);
    const failed = await onPin(draft.x, draft.y, text.trim());
    setSaving(false);
    if (failed) return setError(failed);
    setDraft(null);
    setText('');
    setCursor(null);
    setPinMode(false);
  };

  const name = `Design ${index + 1}: ${file.name}`;
  return (
    <figure className="flex min-w-0 flex-col gap-3" data-testid="pin-board">
      {phone && canPin && !draft && (
        <Button
          variant={pinMode ? 'primary' : 'secondary'}
          className="w-fit"
          aria-pressed={pinMode}
          aria-label={`Add a pin to design ${index + 1}`}
          onClick={() => setPinMode((on) => !on)}
        >
          {pinMode ? 'Add a pin: tap the design' : 'Add a pin'}
        </Button>
      )}
      <div
        className={`rounded-xl border border-line bg-field
          ${viewing ? 'max-h-[75vh] touch-pan-x touch-pan-y touch-pinch-zoom overflow-auto overscroll-contain' : 'overflow-hidden'}`}
        data-testid={viewing ? 'design-full-size' : undefined}
        tabIndex={viewing ? 0 : undefined}
        aria-label={viewing ? `${name}, full size: scroll or pinch to look around` : undefined}
        role={viewing ? 'region' : undefined}
      >
        <div className={`relative ${viewing ? 'w-max' : ''}`}>
          <div
            ref={surface}
            role={pinnable ? 'button' : 'img'}
            tabIndex={pinnable ? 0 : undefined}
            aria-label={pinnable ? `${name}. Click or tap a spot to pin a comment there.` : name}
            aria-describedby={pinnable ? helpId : undefined}
            className={`relative outline-none focus-visible:ring-2 focus-visible:ring-accent ${pinnable ? 'cursor-crosshair' : ''}`}
            onClick={onClick}
            onKeyDown={onKeyDown}
            onFocus={() => pinnable && setCursor((c) => c ?? { x: 0.5, y: 0.5 })}
            onBlur={() => setCursor(null)}
            data-testid="pin-surface"
            // Anywhere on it is a place to tap: the floating chat button steps aside while it lies over the image.
            data-primary-action={pinnable || undefined}
          >
            {url ? (
              <img src={url} alt="" className={`block h-auto select-none ${viewing ? 'max-w-none' : 'w-full'}`} draggable={false} />
            ) : (
              <div className="aspect-video w-full animate-pulse" />
            )}
            {cursor && !draft && (
              <span
                aria-hidden="true"
                className="pointer-events-none absolute h-8 w-8 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-dashed
                  border-white shadow-[0_0_0_2px_rgba(0,0,0,0.6)]"
                style={{ left: pct(cursor.x), top: pct(cursor.y) }}
              />
            )}
          </div>
          <div className="pointer-events-none absolute inset-0">
            {pins.map(({ number, comment }) => (
              <button
                key={comment.id}
                type="button"
                className={`pointer-events-auto absolute flex h-8 w-8 -translate-x-1/2 -translate-y-1/2 items-center justify-center
                rounded-full border-2 text-sm font-bold shadow-lg ${
                  comment.resolved ? 'border-white/70 bg-success text-page' : 'border-white bg-accent-strong text-white'
                }
                ${active === comment.id ? 'ring-4 ring-glow-yellow' : ''}`}
                style={{ left: pct(comment.x), top: pct(comment.y) }}
                onClick={() => onActivate(comment.id)}
                aria-label={`Pin ${number}${comment.resolved ? ' (resolved)' : ''}: ${comment.text}`}
                data-testid="pin"
              >
                {number}
              </button>
            ))}
            {draft && (
              <span
                aria-hidden="true"
                className="absolute flex h-8 w-8 -translate-x-1/2 -translate-y-1/2 items-center justify-center rounded-full border-2
                  border-dashed border-white bg-glow-yellow text-sm font-bold text-page shadow-lg"
                style={{ left: pct(draft.x), top: pct(draft.y) }}
              >
                {nextNumber}
              </span>
            )}
          </div>
        </div>
      </div>
      <figcaption className="flex flex-col gap-1 text-sm text-muted">
        <span className="wrap-anywhere">{name}</span>
        {pinnable && !draft && (
          <span id={helpId} className="text-xs">
            From the keyboard: focus the image, move the marker with the arrow keys (Shift for bigger steps) and press Enter.
          </span>
        )}
      </figcaption>
      {draft && (
        <form
          onSubmit={save}
          className="flex flex-col gap-2 rounded-xl border border-accent/60 bg-page/40 p-3"
          aria-label={`Pin ${nextNumber}`}
          data-primary-action
        >
          <label htmlFor={commentId} className="text-sm font-medium text-ink">
            Comment for pin {nextNumber}
          </label>
          <textarea
            id={commentId}
            autoFocus
            rows={3}
            className={`${inputClass} resize-y`}
            value={text}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={(e) => e.key === 'Escape' && cancel()}
            placeholder="e.g. this button, bigger"
          />
          <CharCount length={text.length} max={REVIEW_LIMITS.comment} />
          {error && (
            <p role="alert" className="text-sm text-danger">
              {error}
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={saving || text.length > REVIEW_LIMITS.comment}>
              {saving ? 'Saving…' : 'Save pin'}
            </Button>
            <Button variant="secondary" onClick={cancel}>
              Cancel
            </Button>
          </div>
        </form>
      )}
    </figure>
  );
}
