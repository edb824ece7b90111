import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { EMAIL_MAX, normalizeEmail } from '../../../domain/validation.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { sendCode, type CodePurpose } from './auth-api.ts';
import { FormError } from './auth-shell.tsx';
import type { AuthRouteState } from './auth-state.ts';

/**
 * The e-mail entry of /login and /signup. Login shows the spec's failure text; sign-up swallows
 * the failure and moves on to the code screen (spec §4 "Code screen", §8).
 */
export function EmailStep({ purpose, isPricing }: { purpose: CodePurpose; isPricing?: boolean }) {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const address = normalizeEmail(email);
    setSending(true);
    setError(null);
    const next: AuthRouteState = { email_pass: address, isPricing };
    try {
      await sendCode(purpose, address);
    } catch (err) {
      if (purpose === 'login') {
        setSending(false);
        // A wait (429) is said alone: "Please try again" beside "Please wait 11 seconds" contradicts it.
        setError(
          err instanceof ApiError && err.status === 429
            ? errorMessage(err)
            : `Failed to send request. Please try again. ${errorMessage(err)}`,
        );
        return;
      }
    }
    navigate(purpose === 'login' ? '/login/emailverify' : '/signup/emailverify', { state: next });
  }

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate={false}>
      <TextField
        label="Email Address"
        type="email"
        name="email"
        // On /login the browser may offer the account's passkeys in this field's autofill (decision 194).
        autoComplete={purpose === 'login' ? 'username webauthn' : 'email'}
        inputMode="email"
        required
        maxLength={EMAIL_MAX}
        placeholder="you@example.com"
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          setError(null);
        }}
      />
      <FormError>{error}</FormError>
      <Button type="submit" disabled={sending} className="min-h-11 w-full">
        {sending ? <Spinner label="Sending the code" /> : 'Continue'}
      </Button>
    </form>
  );
}
