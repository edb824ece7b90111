import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';

export const inputClass =
  'w-full rounded-xl border border-line bg-field px-4 py-2.5 text-ink placeholder:text-placeholder ' +
  'focus:border-accent focus:outline-none focus-visible:outline-2 aria-[invalid=true]:border-danger';

interface FieldShellProps {
  id: string;
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  hideLabel?: boolean;
  children: ReactNode;
}

/** Label above, control, then the error (announced) or a hint below. */
export function FieldShell({ id, label, error, hint, hideLabel, children }: FieldShellProps) {
  return (
    <div className="flex flex-col gap-1.5">
      <label htmlFor={id} className={hideLabel ? 'sr-only' : 'text-sm font-medium text-ink'}>
        {label}
      </label>
      {children}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-xs text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

type TextFieldProps = InputHTMLAttributes<HTMLInputElement> & {
  label: ReactNode;
  error?: string | null;
  hint?: ReactNode;
  hideLabel?: boolean;
};

export function TextField({ label, error, hint, hideLabel, id, className = '', ...rest }: TextFieldProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  return (
    <FieldShell id={fieldId} label={label} error={error} hint={hint} hideLabel={hideLabel}>
      <input
        id={fieldId}
        className={`${inputClass} ${className}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${fieldId}-error` : hint ? `${fieldId}-hint` : undefined}
        {...rest}
      />
    </FieldShell>
  );
}

type TextAreaFieldProps = TextareaHTMLAttributes<HTMLTextAreaElement> & { label: ReactNode; error?: string | null; maxChars?: number };

/**
 * A multi-line field. With `maxChars` it never cuts what is typed or pasted (no native maxLength):
 * a counter appears near the limit and the field is marked invalid above it, as the server refuses
 * it with a 400 naming the limit (docs/decisions/212-text-limits.md).
 */
export function TextAreaField({ label, error, id, className = '', maxChars, ...rest }: TextAreaFieldProps) {
  const autoId = useId();
  const fieldId = id ?? autoId;
  const length = typeof rest.value === 'string' ? rest.value.length : 0;
  const over = maxChars !== undefined && length > maxChars;
  const shownError = error ?? (over ? tooLongMessage(maxChars) : null);
  const counterId = `${fieldId}-count`;
  return (
    <FieldShell id={fieldId} label={label} error={shownError}>
      <textarea
        id={fieldId}
        className={`${inputClass} resize-y ${className}`}
        aria-invalid={shownError ? true : undefined}
        aria-describedby={
          [shownError ? `${fieldId}-error` : '', maxChars !== undefined && nearLimit(length, maxChars) ? counterId : '']
            .filter(Boolean)
            .join(' ') || undefined
        }
        {...rest}
      />
      {maxChars !== undefined && <CharCount id={counterId} length={length} max={maxChars} />}
    </FieldShell>
  );
}

/** The counter shows from 80 % of the limit on. */
export const nearLimit = (length: number, max: number) => length >= Math.floor(max * 0.8);
export const tooLongMessage = (max: number) => `This can be at most ${max.toLocaleString('en')} characters; please shorten it.`;

/** "4,012 / 5,000" near a text's limit, in the danger colour above it; nothing below 80 %. */
export function CharCount({ id, length, max }: { id?: string; length: number; max: number }) {
  if (!nearLimit(length, max)) return null;
  const over = length > max;
  return (
    <p id={id} className={`self-end text-xs tabular-nums ${over ? 'font-medium text-danger' : 'text-muted'}`} aria-live="polite">
      {length.toLocaleString('en')} / {max.toLocaleString('en')}
      {over ? ` — ${(length - max).toLocaleString('en')} too many` : ''}
    </p>
  );
}
