import type { ReactNode } from 'react';
import { buttonClass } from './button.tsx';
import { Spinner } from './spinner.tsx';

/** Spec §4 form states: 0 idle, 1 sending (loading indicator), 2 done. */
export type FormStatus = 0 | 1 | 2;

interface StatusButtonProps {
  status: FormStatus;
  idleLabel: ReactNode;
  doneLabel: ReactNode;
  className?: string;
}

/**
 * The submit button of a form whose label follows its status; the done text is announced. On a
 * prerendered page it is enabled before hydration: the form works as plain HTML, and islands.ts
 * holds a submit until React is there (docs/decisions/074), so it never submits natively.
 */
export function StatusButton({ status, idleLabel, doneLabel, className = '' }: StatusButtonProps) {
  return (
    <button
      type="submit"
      disabled={status === 1}
      aria-live="polite"
      data-status={status}
      className={buttonClass('primary', `min-h-11 ${status === 2 ? 'bg-success-strong hover:bg-success-strong' : ''} ${className}`)}
    >
      {status === 0 && idleLabel}
      {status === 1 && <Spinner label="Sending" />}
      {status === 2 && doneLabel}
    </button>
  );
}
