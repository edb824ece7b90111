import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { BriefPatchBody, BriefResponse } from '../../../contract/brief.ts';
import { checkBriefAnswers, isAsked, type BriefAnswer, type BriefAnswers, type BriefQuestion } from '../../../domain/brief.ts';
import { formatTime, formatWhen } from '../../../domain/when.ts';
import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/api.ts';
import { PanelCard, PanelError, PanelLoading } from './panel-ui.tsx';
import { useQueryClient } from '@tanstack/react-query';
import { operationQuery, useOperation, useWrite } from '../../lib/use-operation.ts';
import { patchOrdersBrief } from '../../../contract/brief.ts';
import { briefRead, type Workspace } from './workspace-api.ts';

// The brief, rendered from the server's questions (a question added to
// src/domain/brief.ts appears here with no change). The customer's answers are saved as a draft a
// moment after they stop typing, submitted once with the button, and read-only once "UI Started"
// is completed (`locked`). The founder reads it (the admin route has no PUT).

const SAVE_AFTER_MS = 800;
type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'saved'; at: Date } | { kind: 'error'; message: string };

/** What the form holds: lists as one line per entry, so typing is free; the wire gets arrays. */
type FormValues = Record<string, string>;
const isList = (q: BriefQuestion) => q.kind === 'list' || q.kind === 'urls';
const toForm = (questions: BriefQuestion[], answers: BriefAnswers | undefined): FormValues =>
  Object.fromEntries(
    questions.map((q) => [q.id, ((v: BriefAnswer | undefined) => (Array.isArray(v) ? v.join('\n') : (v ?? '')))(answers?.[q.id])]),
  );
const toAnswers = (questions: BriefQuestion[], values: FormValues): BriefAnswers =>
  Object.fromEntries(questions.map((q) => [q.id, isList(q) ? (values[q.id] ?? '').split('\n') : (values[q.id] ?? '')]));

export default function BriefPanel({ ws }: { ws: Workspace }) {
  const read = briefRead(ws);
  // The form starts from this answer and then keeps its own state: never from a cached copy.
  const brief = useOperation(read.op, read.input, { fresh: true });
  if (brief.error) return <PanelError message={brief.error} />;
  if (!brief.data) return <PanelLoading label="Loading the brief" />;
  // A save's answer is the stored brief: kept as the read's (`set`, stable), so the tab opened again shows it.
  return <BriefForm ws={ws} initial={brief.data} keep={brief.set} />;
}

function BriefForm({ ws, initial, keep }: { ws: Workspace; initial: BriefResponse; keep(update: () => BriefResponse): void }) {
  const questions = initial.questions as BriefQuestion[];
  const [values, setValues] = useState<FormValues>(() => toForm(questions, initial.brief?.answers));
  const [submittedAt, setSubmittedAt] = useState(initial.brief?.submittedAt ?? null);
  const [locked, setLocked] = useState(initial.locked);
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  const [submitError, setSubmitError] = useState<string | null>(null);
  // The required questions a submit found empty: marked until answered; the first gets focus.
  const [missing, setMissing] = useState<string[]>([]);
  const formRef = useRef<HTMLFormElement>(null);
  const [submitting, setSubmitting] = useState(false);
  const readOnly = ws.side === 'agency' || locked;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef<FormValues | null>(null);
  // The answers changed here and not yet saved: a save sends only these (PATCH), so another tab's
  // or device's answers are never overwritten (docs/decisions/270-brief-partial-saves.md).
  const dirty = useRef(new Set<string>());
  const latest = useRef(values);
  latest.current = values;
  const heading = useRef<HTMLHeadingElement>(null);
  // The save, a mutation: it also runs when the tab closes with a save pending (below).
  const { mutateAsync: patch } = useWrite(patchOrdersBrief);
  const client = useQueryClient();

  const put = useCallback(
    async (v: FormValues, submit: boolean) => {
      const ids = [...dirty.current];
      dirty.current.clear();
      const all = toAnswers(questions, v);
      const body: BriefPatchBody = {
        answers: Object.fromEntries(ids.map((id) => [id, all[id] ?? ''])),
        ...(submit ? { submit: true } : {}),
      };
      try {
        const saved = await patch({ params: { orderId: ws.orderId }, body });
        keep(() => saved);
        return saved;
      } catch (err) {
        // Not stored: these answers are still to be saved.
        for (const id of ids) dirty.current.add(id);
        throw err;
      }
    },
    [ws, questions, keep, patch],
  );

  const saveDraft = useCallback(
    async (v: FormValues) => {
      // The same check the server makes: a half-typed web address is not sent (it would be refused), it is said.
      const checked = checkBriefAnswers(toAnswers(questions, v), false);
      if (!checked.ok) return setSave({ kind: 'error', message: `Not saved yet: ${checked.message}` });
      setSave({ kind: 'saving' });
      try {
        await put(v, false);
        setSave({ kind: 'saved', at: new Date() });
      } catch (err) {
        setSave({ kind: 'error', message: `Not saved: ${errorMessage(err)}` });
      }
    },
    [put, questions],
  );

  // Leaving the tab or the page with a save pending: save it now rather than lose it.
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      if (pending.current) void saveDraft(pending.current);
    },
    [saveDraft],
  );

  // The brief changed in another tab or on another device: when this window comes back into
  // focus, read it again and take every answer that has no unsaved edit here and is not being typed in.
  useEffect(() => {
    if (ws.side !== 'customer') return;
    let busy = false;
    const refresh = async () => {
      if (busy || document.visibilityState === 'hidden') return;
      busy = true;
      try {
        // Through the read's own query, asked of the server whatever the cache holds (staleTime 0):
        // the other tab's answers are what this read is for. The cached brief is then the fresh one too.
        const read = briefRead(ws);
        const { queryKey, queryFn } = operationQuery(read.op, read.input);
        const fresh = await client.fetchQuery({ queryKey, queryFn, staleTime: 0 });
        const typing = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('[data-question]')?.dataset.question;
        const theirs = toForm(questions, fresh.brief?.answers);
        const next = { ...latest.current };
        for (const q of questions) if (!dirty.current.has(q.id) && q.id !== typing) next[q.id] = theirs[q.id] ?? '';
        setValues(next);
        setSubmittedAt((at) => at ?? fresh.brief?.submittedAt ?? null);
        setLocked(fresh.locked);
      } catch {
        // Offline for a moment: the next focus tries again; what is typed here is untouched.
      } finally {
        busy = false;
      }
    };
    const onVisible = () => void refresh();
    window.addEventListener('focus', onVisible);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.removeEventListener('focus', onVisible);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [ws, questions, client]);

  const change = (id: string, value: string) => {
    const next = { ...values, [id]: value };
    setValues(next);
    setSubmitError(null);
    setMissing((m) => m.filter((x) => x !== id));
    dirty.current.add(id);
    pending.current = next;
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      pending.current = null;
      void saveDraft(next);
    }, SAVE_AFTER_MS);
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    clearTimeout(timer.current);
    const unsaved = pending.current;
    pending.current = null;
    const checked = checkBriefAnswers(toAnswers(questions, values), true);
    if (!checked.ok) {
      // Not sent yet, but what was just typed is still saved as the draft.
      if (unsaved) void saveDraft(unsaved);
      setSubmitError(checked.message);
      setMissing(checked.missing ?? []);
      if (checked.missing?.[0]) focusQuestion(formRef.current, checked.missing[0]);
      return;
    }
    setSubmitting(true);
    try {
      // The answers changed here, and the submission: the server checks the whole merged brief.
      const res = await put(values, true);
      setSubmittedAt(res.brief?.submittedAt ?? new Date().toISOString());
      setSave({ kind: 'saved', at: new Date() });
      setSubmitError(null);
      heading.current?.focus();
    } catch (err) {
      setSubmitError(errorMessage(err));
    } finally {
      setSubmitting(false);
    }
  };

  const intro =
    ws.side === 'agency'
      ? submittedAt
        ? `Submitted ${formatWhen(submittedAt)}.`
        : initial.brief
          ? 'A draft: the customer has not submitted it yet.'
          : 'The customer has not started the brief yet.'
      : locked
        ? 'The design has started from this brief, so it can no longer be changed. Write in Messages if something changed.'
        : submittedAt
          ? `Sent ${formatWhen(submittedAt)}. You can still change it until the design starts; changes are saved as you type.`
          : 'Tell us about your business. Your answers are saved as you type; send the brief when it is complete.';

  return (
    <PanelCard>
      <form ref={formRef} onSubmit={submit} className="flex max-w-3xl flex-col gap-5" aria-labelledby="brief-heading" noValidate>
        <div className="flex flex-col gap-1">
          <h2 id="brief-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold text-white outline-none">
            Brief {submittedAt && <span className="ml-2 align-middle text-xs font-medium text-success">Submitted</span>}
          </h2>
          <p className="text-sm text-muted" data-testid="brief-state">
            {intro}
          </p>
        </div>
        {questions
          .filter((q) => isAsked(q, values))
          .map((q) => (
            <Question
              key={q.id}
              q={q}
              value={values[q.id] ?? ''}
              readOnly={readOnly}
              missing={missing.includes(q.id)}
              onChange={(v) => change(q.id, v)}
            />
          ))}
        {!readOnly && (
          <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
            {/* Once sent, every change is saved as typed: no second "send". */}
            {!submittedAt && (
              <Button type="submit" disabled={submitting} data-primary-action>
                {submitting ? 'Sending…' : 'Submit brief'}
              </Button>
            )}
            <p className="text-sm text-muted" role="status" data-testid="brief-save">
              {save.kind === 'saving' ? 'Saving…' : save.kind === 'saved' ? `Saved ${formatTime(save.at)}` : ''}
            </p>
          </div>
        )}
        {save.kind === 'error' && !readOnly && <p className="text-sm text-danger">{save.message}</p>}
        {submitError && <PanelError message={submitError} />}
      </form>
    </PanelCard>
  );
}

/**
 * Moves the person to a question the submit found empty: its field (a choice: its first option)
 * gets focus and is scrolled to the middle of the screen, clear of the sticky header and of the
 * floating Help & Support button at the bottom on a phone.
 */
function focusQuestion(form: HTMLFormElement | null, id: string) {
  const field = form?.querySelector<HTMLElement>(`[data-question="${id}"] input, [data-question="${id}"] textarea`);
  if (!field) return;
  field.focus({ preventScroll: true });
  field.scrollIntoView({ block: 'center', behavior: 'instant' });
}

const MISSING_TEXT = 'Please answer this question.';

function Question({
  q,
  value,
  readOnly,
  missing,
  onChange,
}: {
  q: BriefQuestion;
  value: string;
  readOnly: boolean;
  missing: boolean;
  onChange(v: string): void;
}) {
  const id = useId();
  const errorId = `${id}-missing`;
  const missingNote = missing && (
    <p id={errorId} className="text-sm text-danger" data-testid="brief-missing">
      {MISSING_TEXT}
    </p>
  );
  const label = (
    <>
      {q.label}
      {q.required && !readOnly && <span className="text-muted"> (required)</span>}
    </>
  );
  if (readOnly) {
    const shown = q.kind === 'choice' ? (q.options?.find((o) => o.value === value)?.label ?? value) : value;
    return (
      <div className="flex flex-col gap-1">
        <p className="text-sm font-medium text-ink">{q.label}</p>
        {isList(q) && value ? (
          <ul className="list-inside list-disc text-sm text-white">
            {value.split('\n').map((item, i) => (
              <li key={i} className="wrap-anywhere">
                {item}
              </li>
            ))}
          </ul>
        ) : (
          <p className="whitespace-pre-line wrap-anywhere text-sm text-white">{shown || <span className="text-muted">—</span>}</p>
        )}
      </div>
    );
  }
  if (q.kind === 'choice') {
    return (
      <fieldset className="flex flex-col gap-2" data-question={q.id} aria-describedby={missing ? errorId : undefined}>
        <legend className="mb-1 text-sm font-medium text-ink">{label}</legend>
        {q.options?.map((o) => (
          <label
            key={o.value}
            className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-line px-3 py-2 text-sm text-ink
              has-checked:border-accent"
          >
            <input
              type="radio"
              name={q.id}
              value={o.value}
              checked={value === o.value}
              onChange={() => onChange(o.value)}
              className="h-4 w-4 accent-accent"
            />
            {o.label}
          </label>
        ))}
        {missingNote}
      </fieldset>
    );
  }
  const hint = q.kind === 'urls' ? 'One address per line, e.g. example.com' : q.kind === 'list' ? 'One per line' : undefined;
  return (
    <div className="flex flex-col gap-1.5" data-question={q.id}>
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      {q.kind === 'text' ? (
        <input
          id={id}
          className={inputClass}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          maxLength={200}
          aria-required={q.required}
          aria-invalid={missing || undefined}
          aria-describedby={missing ? errorId : undefined}
          inputMode={q.followUpOf?.id === 'domain' ? 'url' : undefined}
        />
      ) : (
        <textarea
          id={id}
          className={`${inputClass} resize-y`}
          rows={q.kind === 'multiline' ? 4 : 3}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-required={q.required}
          aria-invalid={missing || undefined}
          aria-describedby={[hint ? `${id}-hint` : '', missing ? errorId : ''].filter(Boolean).join(' ') || undefined}
          inputMode={q.kind === 'urls' ? 'url' : undefined}
        />
      )}
      {missingNote}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
    </div>
  );
}
