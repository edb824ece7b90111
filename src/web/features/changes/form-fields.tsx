import { useId, type InputHTMLAttributes } from 'react';

// The labelled inputs of the back office's change and add-on forms (admin-changes.tsx,
// addons-page.tsx): one shape, so both forms read and behave alike.

const input = 'w-full rounded-xl border border-line bg-field px-3 py-2 text-ink disabled:opacity-60';

type FieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'> & {
  label: string;
  value: string;
  onChange(value: string): void;
  /** Classes of the label (a grid column span). */
  wrap?: string;
};

/** A text input under its label. */
export function Field({ label, value, onChange, wrap = '', ...rest }: FieldProps) {
  const id = useId();
  return (
    <label className={`flex flex-col gap-1 text-xs text-muted ${wrap}`} htmlFor={id}>
      {label}
      <input id={id} className={input} value={value} onChange={(e) => onChange(e.target.value)} {...rest} />
    </label>
  );
}

/** "Extra days": 0 to 90, CHANGE_LIMITS.maxExtraDays in src/contract/changes.ts (the server checks it; no zod in the bundle for a number). */
export const DaysField = (p: { value: string; onChange(value: string): void }) => (
  <Field label="Extra days" type="number" min={0} max={90} {...p} />
);

/** A multi-line text under its label. */
export function TextArea({ label, value, onChange }: { label: string; value: string; onChange(value: string): void }) {
  const id = useId();
  return (
    <label className="flex flex-col gap-1 text-xs text-muted" htmlFor={id}>
      {label}
      <textarea id={id} rows={3} className={input} value={value} onChange={(e) => onChange(e.target.value)} />
    </label>
  );
}
