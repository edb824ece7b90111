import { STAGE_COUNT, STAGES, stagesDone } from '../../../domain/tracker.ts';
import { useNewStagesFrom } from './use-new-stages.ts';
import { formatWhen } from '../../../domain/when.ts';

/** Stages per row from 768 px: 15 in one row left 60 px a stage and spilled out of the card. */
const PER_ROW = 5;

/** Between two newly completed stages' animations. */
const STAGGER_MS = 150;

/**
 * The 15-stage tracker (spec §4). `lastCompleted` is the wire's completed_steps — the index of the
 * last completed stage — so stages 0…lastCompleted are ticked and the bar and label read
 * (lastCompleted + 1)/15, at once; only stages completed since this browser's last visit animate
 * (docs/decisions/336-tracker-and-phone-country.md). Horizontal from 768 px (Tailwind's md): rows of five, left to right,
 * wide enough for the labels and the founder's notes; vertical below.
 */
export function OrderTracker({
  orderId,
  lastCompleted,
  completedAt,
  notes,
}: {
  orderId: string;
  lastCompleted: number;
  /** Each stage's completion (ISO) or null: shown in the viewer's zone (docs/decisions/335-one-rule-for-times.md). */
  completedAt: (string | null)[];
  notes: (string | null)[];
}) {
  const done = stagesDone(lastCompleted);
  const from = useNewStagesFrom(done, orderId);
  return (
    <div className="flex min-w-0 flex-col gap-6">
      <div>
        <div className="mb-2 flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 text-sm">
          <span className="font-semibold text-white" data-testid="tracker-count" data-target={done} aria-live="polite">
            {done}/{STAGE_COUNT} Completed
          </span>
          <span className="text-xs text-muted sm:text-sm">{done < STAGE_COUNT ? `Next: ${STAGES[done]}` : 'All done'}</span>
        </div>
        <div
          className="h-2.5 overflow-hidden rounded-full bg-line"
          role="progressbar"
          aria-label="Order progress"
          aria-valuemin={0}
          aria-valuemax={STAGE_COUNT}
          aria-valuenow={done}
        >
          <div
            className={`h-full rounded-full bg-accent ${from < done ? 'animate-bar-grow motion-reduce:animate-none' : ''}`}
            data-testid="tracker-bar"
            style={{ width: `${(done / STAGE_COUNT) * 100}%`, ['--from' as string]: `${(from / STAGE_COUNT) * 100}%` }}
          />
        </div>
      </div>
      <ol className="flex flex-col md:grid md:grid-cols-5 md:gap-x-2 md:gap-y-6" data-testid="tracker">
        {STAGES.map((name, i) => {
          const isDone = i < done;
          const isNext = i === done;
          const isNew = isDone && i >= from;
          const endsRow = (i + 1) % PER_ROW === 0;
          return (
            <li
              key={name}
              className="relative flex min-w-0 gap-3 pb-5 md:flex-col md:items-center md:gap-2 md:pb-0 md:text-center"
              data-done={isDone}
              data-new={isNew || undefined}
              data-testid="stage"
            >
              {i < STAGE_COUNT - 1 && (
                <span
                  aria-hidden="true"
                  className={`absolute left-[15px] top-8 h-[calc(100%-2rem)] w-0.5 md:left-[calc(50%+18px)] md:top-[15px] md:h-0.5
                  md:w-[calc(100%-28px)] ${endsRow ? 'md:hidden' : ''} ${i < done - 1 ? 'bg-accent' : 'bg-line'}`}
                />
              )}
              <span
                className={`relative z-10 flex h-8 w-8 shrink-0 items-center justify-center rounded-full border-2 text-xs font-bold ${
                  isDone
                    ? 'border-accent bg-accent-strong text-white'
                    : isNext
                      ? 'border-accent text-accent-soft'
                      : 'border-line bg-page text-muted'
                } ${isNew ? 'animate-stage-in motion-reduce:animate-none' : ''}`}
                style={isNew ? { animationDelay: `${(i - from) * STAGGER_MS}ms` } : undefined}
              >
                {isDone ? (
                  <svg viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor" aria-hidden="true">
                    <path
                      fillRule="evenodd"
                      d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z"
                      clipRule="evenodd"
                    />
                  </svg>
                ) : (
                  i + 1
                )}
              </span>
              <div className="min-w-0 break-words md:w-full md:px-1">
                <p className={`text-sm font-semibold md:text-xs lg:text-sm ${isDone ? 'text-white' : 'text-ink'}`}>
                  {name}
                  <span className="sr-only">{isDone ? ' — completed' : ' — to be completed'}</span>
                </p>
                <p className="text-xs text-muted">{isDone && completedAt[i] ? formatWhen(completedAt[i]) : 'To be completed'}</p>
                {isDone && notes[i] && (
                  <p className="mt-1 text-xs text-accent-soft" data-testid="stage-note">
                    {notes[i]}
                  </p>
                )}
              </div>
            </li>
          );
        })}
      </ol>
    </div>
  );
}
