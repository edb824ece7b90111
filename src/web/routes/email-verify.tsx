import { useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { ONE_TIME_CODE_LENGTH, onlyDigits } from '../../domain/validation.ts';
import { Button } from '../components/ui/button.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { TextField } from '../components/ui/text-field.tsx';
import { ApiError, errorMessage } from '../lib/api.ts';
import { useSession } from '../lib/session.tsx';
import { sendCode, verifyOtp } from '../features/auth/auth-api.ts';
import { AuthShell, FormError } from '../features/auth/auth-shell.tsx';
import { afterSignIn, forgetReturnTo, readAuthState, rememberDetailsState, type AuthRouteState } from '../features/auth/auth-state.ts';
import { useResendCountdown } from '../features/auth/use-resend-countdown.ts';

type ButtonState = 0 | 1 | 2; // spec §4: 0 Continue, 1 loading, 2 'Enter the code again'
const INVALID = 'Invalid OTP. Please try again.';

// Spec §2/§4 "Code screen" for /login/emailverify and /signup/emailverify.
export default function EmailVerifyPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const session = useSession();
  const purpose = location.pathname.startsWith('/signup') ? 'signup' : 'login';
  const { email_pass: email, isPricing } = readAuthState(location.state);
  const countdown = useResendCountdown(email);
  const [code, setCode] = useState('');
  const [state, setState] = useState<ButtonState>(0);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (!email) return <Navigate to={purpose === 'signup' ? '/signup' : '/login'} replace />;

  async function submit(e: FormEvent) {
    e.preventDefault();
    setState(1);
    setError(null);
    setNotice(null); // "A new code is on its way." is stale once this code is answered
    try {
      const res = await verifyOtp(email!, code);
      if (res.token) {
        const user = await session.login(res.token);
        navigate(afterSignIn(isPricing, user?.role), { replace: true });
        forgetReturnTo();
        return;
      }
      const next: AuthRouteState = {
        email_pass: email,
        signupTicket: res.signupTicket,
        isPricing,
        next: afterSignIn(isPricing),
        ...(res.invitedStaff ? { staff: true } : {}),
      };
      forgetReturnTo(); // carried on in `next`
      rememberDetailsState(next);
      navigate('/signup/enterDetails', { state: next, replace: true });
    } catch (err) {
      setState(2);
      setError(err instanceof ApiError && err.status === 400 ? (err.message === INVALID ? INVALID : err.message) : errorMessage(err));
    }
  }

  async function resend() {
    setNotice(null);
    setError(null);
    try {
      await sendCode(purpose, email!);
      countdown.restart();
      setNotice('A new code is on its way.');
    } catch (err) {
      setError(errorMessage(err));
      void countdown.resync();
    }
  }

  return (
    <AuthShell
      title="Check your e-mail"
      subtitle={
        <>
          We sent a 6-character code to <strong className="text-ink">{email}</strong>. It is valid for 10 minutes.
        </>
      }
    >
      <form onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="6-character code"
          name="otp"
          required
          autoFocus
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern={`\\d{${ONE_TIME_CODE_LENGTH}}`}
          maxLength={ONE_TIME_CODE_LENGTH}
          placeholder="123456"
          className="text-center text-2xl tracking-[0.5em] tabular-nums"
          value={code}
          onChange={(e) => {
            setCode(onlyDigits(e.target.value).slice(0, ONE_TIME_CODE_LENGTH));
            setState(0);
            setError(null);
          }}
        />
        <FormError>{error}</FormError>
        <Button type="submit" disabled={state === 1} data-state={state} className="min-h-11 w-full">
          {state === 0 && 'Continue'}
          {state === 1 && <Spinner label="Checking the code" />}
          {state === 2 && 'Enter the code again'}
        </Button>
      </form>
      <div className="flex min-h-11 items-center justify-center text-sm text-muted" aria-live="polite">
        {countdown.secondsLeft > 0 ? (
          <span>
            You can request a new code in <span className="tabular-nums text-ink">{countdown.secondsLeft}</span> s
          </span>
        ) : (
          <button
            type="button"
            onClick={resend}
            className="min-h-11 px-2 font-medium text-accent-soft underline underline-offset-4 hover:text-white"
          >
            Request a new code
          </button>
        )}
      </div>
      {notice && <p className="text-center text-sm text-success">{notice}</p>}
    </AuthShell>
  );
}
