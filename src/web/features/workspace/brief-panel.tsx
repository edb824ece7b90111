import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { BriefPutBody, BriefResponse } from '../../../contract/brief.ts';
import { checkBriefAnswers, type BriefAnswer, type BriefAnswers, type BriefQuestion } from '../../../domain/brief.ts';
import { formatStageDate } from '../../../domain/tracker.ts';
import { Button } from '../../components/ui/button.tsx';
import { inputClass } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/api.ts';
import { PanelCard, PanelError, PanelLoading } from './panel-ui.tsx';
import { useLoad } from './use-load.ts';
import { call, type Workspace } from './workspace-api.ts';

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
  Object.fromEntries(questions.map((q) => [q.id, ((v: BriefAnswer | undefined) => (Array.isArray(v) ? v.join('\n') : (v ?? '')))(answers?.[q.id])]));
const toAnswers = (questions: BriefQuestion[], values: FormValues): BriefAnswers =>
  Object.fromEntries(questions.map((q) => [q.id, isList(q) ? (values[q.id] ?? '').split('\n') : (values[q.id] ?? '')]));

export default function BriefPanel({ ws }: { ws: Workspace }) {
  const load = useCallback(() => call<BriefResponse>(ws, 'GET', 'brief'), [ws]);
  const brief = useLoad(load);
  if (brief.error) return <PanelError message={brief.error} />;
  if (!brief.data) return <PanelLoading label="Loading the brief" />;
  return <BriefForm ws={ws} initial={brief.data} />;
}

function BriefForm({ ws, initial }: { ws: Workspace; initial: BriefResponse }) {
  const questions = initial.questions as BriefQuestion[];
  const [values, setValues] = useState<FormValues>(() => toForm(questions, initial.brief?.answers));
  const [submittedAt, setSubmittedAt] = useState(initial.brief?.submittedAt ?? null);
  const [save, setSave] = useState<SaveState>({ kind: 'idle' });
  const [submitError, setSubmitError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const readOnly = ws.side === 'agency' || initial.locked;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const pending = useRef<FormValues | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const put = useCallback(
    async (v: FormValues, submit: boolean) => {
      const body: BriefPutBody = { answers: toAnswers(questions, v), ...(submit ? { submit: true } : {}) };
      const res = await call<BriefResponse>(ws, 'PUT', 'brief', body);
      return res;
    },
    [ws, questions],
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

  const change = (id: string, value: string) => {
    const next = { ...values, [id]: value };
    setValues(next);
    setSubmitError(null);
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
    pending.current = null;
    const checked = checkBriefAnswers(toAnswers(questions, values), true);
    if (!checked.ok) return setSubmitError(checked.message);
    setSubmitting(true);
    try {
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
        ? `Submitted ${formatStageDate(submittedAt)} UTC.`
        : initial.brief
          ? 'A draft: the customer has not submitted it yet.'
          : 'The customer has not started the brief yet.'
      : initial.locked
        ? 'The design has started from this brief, so it can no longer be changed. Write in Messages if something changed.'
        : submittedAt
          ? `Sent ${formatStageDate(submittedAt)} UTC. You can still change it until the design starts; changes are saved as you type.`
          : 'Tell us about your business. Your answers are saved as you type; send the brief when it is complete.';

  return (
    <PanelCard>
      <form onSubmit={submit} className="flex max-w-3xl flex-col gap-5" aria-labelledby="brief-heading" noValidate>
        <div className="flex flex-col gap-1">
          <h2 id="brief-heading" ref={heading} tabIndex={-1} className="text-xl font-semibold text-white outline-none">
            Brief {submittedAt && <span className="ml-2 align-middle text-xs font-medium text-success">Submitted</span>}
          </h2>
          <p className="text-sm text-muted" data-testid="brief-state">
            {intro}
          </p>
        </div>
        {questions.map((q) => (
          <Question key={q.id} q={q} value={values[q.id] ?? ''} readOnly={readOnly} onChange={(v) => change(q.id, v)} />
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
              {save.kind === 'saving' ? 'Saving…' : save.kind === 'saved' ? `Saved ${save.at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}` : ''}
            </p>
          </div>
        )}
        {save.kind === 'error' && !readOnly && <p className="text-sm text-danger">{save.message}</p>}
        {submitError && <PanelError message={submitError} />}
      </form>
    </PanelCard>
  );
}

function Question({ q, value, readOnly, onChange }: { q: BriefQuestion; value: string; readOnly: boolean; onChange(v: string): void }) {
  const id = useId();
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
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-1 text-sm font-medium text-ink">{label}</legend>
        {q.options?.map((o) => (
          <label key={o.value} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-xl border border-line px-3 py-2 text-sm text-ink has-checked:border-accent">
            <input type="radio" name={q.id} value={o.value} checked={value === o.value} onChange={() => onChange(o.value)} className="h-4 w-4 accent-accent" />
            {o.label}
          </label>
        ))}
      </fieldset>
    );
  }
  const hint = q.kind === 'urls' ? 'One address per line, e.g. example.com' : q.kind === 'list' ? 'One per line' : undefined;
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-ink">
        {label}
      </label>
      {q.kind === 'text' ? (
        <input id={id} className={inputClass} value={value} onChange={(e) => onChange(e.target.value)} maxLength={200} aria-required={q.required} />
      ) : (
        <textarea
          id={id}
          className={`${inputClass} resize-y`}
          rows={q.kind === 'multiline' ? 4 : 3}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          aria-required={q.required}
          aria-describedby={hint ? `${id}-hint` : undefined}
          inputMode={q.kind === 'urls' ? 'url' : undefined}
        />
      )}
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      )}
    </div>
  );
}
