import { useState, type FormEvent } from 'react';
import { EMAIL_MAX, ONE_TIME_CODE_LENGTH, isValidEmail, isValidOneTimeCode, normalizeEmail } from '../../../domain/validation.ts';
import { Button } from '../../components/ui/button.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { useBusyAction } from '../../lib/use-busy-action.ts';
import { confirmEmailChange, requestEmailChange } from './account-api.ts';
import { OneTimeCodeField } from './one-time-code-field.tsx';

type Step = { at: 'address' } | { at: 'code'; email: string } | { at: 'done'; email: string };

/**
 * "Change e-mail": the new address, then the code mailed to it (proof that it is theirs), then done.
 * The sign-in address changes only once the code is confirmed; `onChanged` reloads the session so
 * the dashboard shows the new address at once.
 */
export function EmailChangeDialog({
  current,
  onChanged,
  onClose,
}: {
  current: string;
  onChanged: () => Promise<void>;
  onClose: () => void;
}) {
  const [step, setStep] = useState<Step>({ at: 'address' });
  const [email, setEmail] = useState('');
  const [code, setCode] = useState('');
  const { busy, error, setError, run } = useBusyAction();

  const sendCode = (e: FormEvent) => {
    e.preventDefault();
    const next = normalizeEmail(email);
    if (!isValidEmail(next)) return setError('Please enter a valid e-mail address.');
    if (next === normalizeEmail(current)) return setError('That is already your e-mail address.');
    void run(async () => {
      await requestEmailChange(next);
      setCode('');
      setStep({ at: 'code', email: next });
    });
  };

  const confirm = (e: FormEvent) => {
    e.preventDefault();
    if (step.at !== 'code') return;
    if (!isValidOneTimeCode(code)) return setError(`The code has ${ONE_TIME_CODE_LENGTH} digits.`);
    void run(async () => {
      await confirmEmailChange(code.trim());
      await onChanged();
      setStep({ at: 'done', email: step.email });
    });
  };

  return (
    <ModalDialog title="Change e-mail" onClose={onClose} busy={busy} testId="email-change-dialog" step={step.at}>
      {step.at === 'address' && (
        <form onSubmit={sendCode} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-muted">
            You sign in with <span className="break-all text-ink">{current}</span>. We will send a code to the new address to make sure it
            is yours.
          </p>
          <TextField
            label="New e-mail address"
            type="email"
            autoComplete="email"
            maxLength={EMAIL_MAX}
            value={email}
            error={error}
            onChange={(e) => {
              setEmail(e.target.value);
              setError(null);
            }}
          />
          <Button type="submit" disabled={busy} className="min-h-11">
            {busy ? <Spinner label="Sending the code" /> : 'Send code'}
          </Button>
        </form>
      )}
      {step.at === 'code' && (
        <form onSubmit={confirm} noValidate className="flex flex-col gap-4">
          <p className="text-sm text-muted" role="status">
            We sent a code to <span className="break-all font-semibold text-ink">{step.email}</span>. Enter it here; it is valid for a few
            minutes.
          </p>
          <OneTimeCodeField
            value={code}
            error={error}
            onChange={(digits) => {
              setCode(digits);
              setError(null);
            }}
          />
          <Button type="submit" disabled={busy} className="min-h-11">
            {busy ? <Spinner label="Confirming" /> : 'Confirm new e-mail'}
          </Button>
          <Button variant="ghost" disabled={busy} className="min-h-11" onClick={() => setStep({ at: 'address' })}>
            Use a different address
          </Button>
        </form>
      )}
      {step.at === 'done' && (
        <div className="flex flex-col gap-4">
          <p role="status" className="text-sm text-ink">
            Done: you now sign in with <span className="break-all font-semibold">{step.email}</span>.
          </p>
          <Button data-autofocus onClick={onClose} className="min-h-11">
            Close
          </Button>
        </div>
      )}
    </ModalDialog>
  );
}
