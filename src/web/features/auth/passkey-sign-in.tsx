import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { useSession } from '../../lib/session.tsx';
import { FormError } from './auth-shell.tsx';
import { afterSignIn, forgetReturnTo } from './auth-state.ts';

// /login's passkey sign-in (decision 194): a button, and the browser's passkey
// autofill on the e-mail field. The WebAuthn code is a separate chunk, fetched after the page is
// up, so /login's first load carries none of it.
const ceremonies = () => import('./passkey-ceremonies.ts');

/** Whether the browser can offer passkeys in the e-mail field's autofill (asked without the library). */
async function autofillAvailable() {
  const pkc = typeof window === 'undefined' ? undefined : window.PublicKeyCredential;
  return Boolean(pkc?.isConditionalMediationAvailable && (await pkc.isConditionalMediationAvailable().catch(() => false)));
}

/**
 * WebAuthn refuses an IP address as relying party (a site reached as http://127.0.0.1 cannot use
 * passkeys at all), so there the page offers none rather than an error on every visit.
 */
function passkeysPossibleHere() {
  if (typeof window === 'undefined' || !('PublicKeyCredential' in window)) return false;
  const host = window.location.hostname;
  return !/^\d{1,3}(\.\d{1,3}){3}$/.test(host) && !host.includes(':') && !host.startsWith('[');
}

export function PasskeySignIn({ isPricing }: { isPricing?: boolean }) {
  const session = useSession();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [supported, setSupported] = useState(true);
  const left = useRef(false);

  async function finish(token: string) {
    setBusy(true);
    const user = await session.login(token);
    navigate(afterSignIn(isPricing, user?.role), { replace: true });
    forgetReturnTo();
  }

  /** The autofill prompt: runs quietly while the page is open; a pick from the list signs in. */
  async function listen() {
    if (left.current || !passkeysPossibleHere() || !(await autofillAvailable())) return;
    const c = await ceremonies();
    try {
      const res = await c.signInWithPasskey(true);
      if (res && !left.current) await finish(res.token);
    } catch (err) {
      // Replaced by the button or ended because the visitor left: nothing to say.
      if (!c.wasAbortedByPage(err) && !left.current) setError(c.passkeyProblem(err));
    }
  }

  useEffect(() => {
    left.current = false;
    setSupported(passkeysPossibleHere());
    void listen();
    return () => {
      left.current = true;
      // Leaving /login ends the pending autofill prompt (only if its code was ever loaded).
      void ceremonies().then((c) => c.cancelPasskeyPrompt());
    };
    // Once per visit of the page.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  async function withButton() {
    setError(null);
    setBusy(true);
    const c = await ceremonies();
    try {
      // Starting a new prompt ends the autofill one (one WebAuthn request at a time).
      const res = await c.signInWithPasskey(false);
      if (res) return await finish(res.token);
    } catch (err) {
      setError(c.passkeyProblem(err));
    }
    setBusy(false);
    void listen(); // the autofill prompt was ended by the button: offer it again
  }

  if (!supported) return null;
  return (
    <div className="flex flex-col gap-3">
      <Button
        variant="secondary"
        onClick={() => void withButton()}
        disabled={busy}
        className="min-h-11 w-full"
        data-testid="passkey-sign-in"
      >
        {busy ? (
          <Spinner label="Signing in with a passkey" />
        ) : (
          <>
            <PasskeyIcon />
            Sign in with a passkey
          </>
        )}
      </Button>
      <FormError>{error}</FormError>
    </div>
  );
}

/** A key over a person: the passkey mark, drawn here (no icon set). */
export function PasskeyIcon({ className = 'h-5 w-5' }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 24 24"
      className={className}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <circle cx="9" cy="7" r="3.5" />
      <path d="M2.5 20v-1.5A5.5 5.5 0 0 1 8 13h2.5" />
      <circle cx="17" cy="13.5" r="2.5" />
      <path d="M17 16v5l1.5-1.2M17 19h1.5" />
    </svg>
  );
}
