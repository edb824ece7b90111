import { useState, type FormEvent } from 'react';
import { NOTE_MAX } from '../../../domain/admin.ts';
import { DELIVERY_STAGE, REMAINING_PAYMENT_STAGE, STAGES, isPaymentStage } from '../../../domain/tracker.ts';
import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/text-field.tsx';
import { Card } from '../../components/back-office/admin-ui.tsx';
import { formatWhen } from '../../components/back-office/format.ts';
import { BRIEF_LOCK_STAGE } from '../../../domain/brief.ts';
import { runOperation } from '../../lib/use-operation.ts';
import { postAdminOrdersStagesNext, postAdminOrdersStagesUndo } from '../../../contract/admin-orders.ts';

interface Props {
  orderId: string;
  stages: { stage: number; completedAt: string | null; note: string | null }[];
  completed: number;
  remainingPaid: boolean;
  hasDeliveryLink: boolean;
  /** The brief is not submitted yet: "UI Started" asks first (docs/decisions/215-brief-lock.md). */
  briefPending?: boolean;
  /** A cancelled order's stages no longer move (docs/decisions/321-cancel-and-refund.md): no controls. */
  cancelled?: boolean;
  onDone(message: string | null, error: string | null): Promise<void>;
}

/** The 15 stages with their dates and notes, "complete next" with a note, "undo last" with a reason. */
export function StageTracker({
  orderId,
  stages,
  completed,
  remainingPaid,
  hasDeliveryLink,
  briefPending = false,
  cancelled = false,
  onDone,
}: Props) {
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  // "UI Started" before the brief is in: the server asks, the founder confirms (docs/decisions/215-brief-lock.md).
  const [askBrief, setAskBrief] = useState(false);
  const next = STAGES[completed];
  // The server refuses these too (src/domain/tracker.ts); here they are explained up front.
  const blocked =
    completed + 1 === REMAINING_PAYMENT_STAGE && !remainingPaid
      ? "Stage 14 is completed by the customer's remaining payment."
      : completed + 1 === DELIVERY_STAGE && !hasDeliveryLink
        ? 'Save the delivery link below first.'
        : null;
  const canUndo = completed > 1 && !isPaymentStage(completed);

  async function complete(e: FormEvent | null, startWithoutBrief = false) {
    e?.preventDefault();
    if (busy) return;
    if (completed + 1 === BRIEF_LOCK_STAGE && briefPending && !startWithoutBrief) return setAskBrief(true);
    setAskBrief(false);
    setBusy(true);
    const { error } = await runOperation(postAdminOrdersStagesNext, { params: { id: orderId }, body: note.trim() ? { note } : {} });
    setBusy(false);
    if (!error) setNote('');
    await onDone(`"${next}" completed. The customer has been e-mailed.`, error);
  }

  async function undo(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const { error } = await runOperation(postAdminOrdersStagesUndo, { params: { id: orderId }, body: { reason } });
    setBusy(false);
    if (!error) setReason('');
    await onDone(`"${STAGES[completed - 1]}" taken back.`, error);
  }

  return (
    <Card title={`Tracker — ${completed}/15 completed`}>
      <ol className="mb-6 flex flex-col gap-2" aria-label="Stages">
        {stages.map((s) => (
          <li
            key={s.stage}
            data-testid={`stage-${s.stage}`}
            className={`rounded-lg border p-2 text-sm ${s.completedAt ? 'border-success/40' : 'border-line'}`}
          >
            <div className="flex flex-wrap items-baseline justify-between gap-2">
              <span className={s.completedAt ? 'font-semibold text-white' : 'text-muted'}>
                <span aria-hidden="true">{s.completedAt ? '✓ ' : '○ '}</span>
                {s.stage}. {STAGES[s.stage - 1]}
              </span>
              <span className="text-xs text-muted">{s.completedAt ? formatWhen(s.completedAt) : 'To be completed'}</span>
            </div>
            {s.note && <p className="mt-1 whitespace-pre-wrap break-words text-ink">{s.note}</p>}
          </li>
        ))}
      </ol>
      {cancelled ? (
        <p className="text-sm text-muted">This order is cancelled: its stages no longer move.</p>
      ) : (
        <div className="grid gap-6 lg:grid-cols-2">
          {next ? (
            <form onSubmit={complete} className="flex flex-col gap-2" aria-label="Complete next stage">
              <label htmlFor="stage-note" className="text-sm font-medium text-ink">
                Note for the customer on “{next}” (optional)
              </label>
              <textarea
                id="stage-note"
                className={inputClass}
                rows={3}
                value={note}
                onChange={(e) => setNote(e.target.value)}
                aria-describedby="stage-note-count"
              />
              <span id="stage-note-count" className={`text-xs ${note.length > NOTE_MAX ? 'text-danger' : 'text-muted'}`}>
                {note.length}/{NOTE_MAX} · shown on the customer's tracker and sent by e-mail
              </span>
              {blocked && <p className="text-sm text-glow-yellow">{blocked}</p>}
              {askBrief ? (
                <div
                  role="alertdialog"
                  aria-label="Start without the brief?"
                  className="flex flex-col gap-2 rounded-xl border border-amber-300/60 p-3"
                >
                  <p className="text-sm text-ink">
                    The brief is not in yet — start anyway? The customer can still send it, and it stays “Brief pending” until then.
                  </p>
                  <div className="flex flex-wrap gap-2">
                    <Button disabled={busy} onClick={() => void complete(null, true)}>
                      Start anyway
                    </Button>
                    <Button variant="secondary" onClick={() => setAskBrief(false)}>
                      Wait for the brief
                    </Button>
                  </div>
                </div>
              ) : (
                <Button type="submit" disabled={busy || blocked !== null || note.length > NOTE_MAX}>
                  Complete “{next}”
                </Button>
              )}
            </form>
          ) : (
            <p className="text-success">All 15 stages are complete.</p>
          )}
          {!canUndo && completed > 1 && (
            <p className="text-sm text-muted">“{STAGES[completed - 1]}” was completed by a payment and cannot be undone.</p>
          )}
          {canUndo && (
            <form onSubmit={undo} className="flex flex-col gap-2" aria-label="Undo last stage">
              <label htmlFor="undo-reason" className="text-sm font-medium text-ink">
                Reason to undo “{STAGES[completed - 1]}”
              </label>
              <input
                id="undo-reason"
                className={inputClass}
                required
                maxLength={NOTE_MAX}
                value={reason}
                onChange={(e) => setReason(e.target.value)}
              />
              <Button type="submit" variant="secondary" disabled={busy || !reason.trim()}>
                Undo last stage
              </Button>
            </form>
          )}
        </div>
      )}
    </Card>
  );
}
