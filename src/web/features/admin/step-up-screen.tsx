import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { PASSKEY_NAME_MAX } from '../../../contract/passkeys.ts';
import { BrandLogo } from '../../components/brand-logo.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { FormError } from '../auth/index.ts';
import { addPasskey, confirmWithPasskey, passkeyProblem, passkeysSupported } from '../auth/index.ts';
import { listPasskeys, stepUpVerify } from '../auth/index.ts';
import { PasskeyIcon } from '../auth/index.ts';
import { RecoveryCodes } from '../auth/index.ts';
import { isOwner } from '../../../domain/roles.ts';
import { useSession } from '../../lib/session.tsx';

type Step =
  | { kind: 'loading' }
  | { kind: 'failed'; message: string }
  | { kind: 'enrol' }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'confirm'; recovery: boolean }
  | { kind: 'recovered'; left: number };

/**
 * The back office's second factor (decision 194). An account without a passkey
 * adds one (the server counts that as the confirmation) and is shown its ten recovery codes once;
 * an account with one confirms with it, or with a recovery code.
 */
export function StepUpScreen({ onConfirmed }: { onConfirmed(): void }) {
  const [step, setStep] = useState<Step>({ kind: 'loading' });

  async function look() {
    setStep({ kind: 'loading' });
    try {
      const { passkeys } = await listPasskeys();
      setStep(passkeys.length === 0 ? { kind: 'enrol' } : { kind: 'confirm', recovery: false });
    } catch (err) {
      setStep({ kind: 'failed', message: errorMessage(err) });
    }
  }

  useEffect(() => {
    void look();
  }, []);

  switch (step.kind) {
    case 'loading':
      return (
        <Frame title="Checking your sign-in" stepKey="loading">
          <Spinner label="Checking your sign-in" className="h-6 w-6 text-accent-soft" />
        </Frame>
      );
    case 'failed':
      return (
        <Frame title="The back office could not check your sign-in" stepKey="failed">
          <FormError>{step.message}</FormError>
          <Button onClick={() => void look()} className="min-h-11 w-full">
            Try again
          </Button>
        </Frame>
      );
    case 'enrol':
      return <Enrol onAdded={(codes) => (codes?.length ? setStep({ kind: 'codes', codes }) : onConfirmed())} />;
    case 'codes':
      return (
        <Frame
          title="Save your recovery codes"
          stepKey="codes"
          lead="If your passkey is ever out of reach, each of these codes opens the back office once. This is the only time they are shown."
        >
          <RecoveryCodes codes={step.codes} onContinue={onConfirmed} continueLabel="Continue to the back office" />
        </Frame>
      );
    case 'confirm':
      return (
        <Confirm
          recovery={step.recovery}
          onRecovery={(recovery) => setStep({ kind: 'confirm', recovery })}
          onConfirmed={onConfirmed}
          onRecovered={(left) => setStep({ kind: 'recovered', left })}
        />
      );
    case 'recovered':
      return (
        <Frame
          title="Confirmed with a recovery code"
          stepKey="recovered"
          lead={
            `That code is now used up: ${step.left} ${step.left === 1 ? 'code is' : 'codes are'} left. If your passkey is lost, ` +
            `remove it and add a new one from your dashboard.`
          }
        >
          <Button onClick={onConfirmed} className="min-h-11 w-full">
            Continue to the back office
          </Button>
        </Frame>
      );
  }
}

function Enrol({ onAdded }: { onAdded(codes: string[] | undefined): void }) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const supported = passkeysSupported();
  // Staff have no money to guard (decision 191): their screen names what they do guard (decision 276).
  const owner = isOwner(useSession().user?.role);

  async function add(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await addPasskey(name);
      onAdded(res.recoveryCodes);
    } catch (err) {
      setError(passkeyProblem(err, err instanceof ApiError ? err.message : undefined));
      setBusy(false);
    }
  }

  return (
    <Frame
      title="Add a passkey to protect the back office"
      stepKey="enrol"
      lead={
        `${owner ? "Refunds, payouts and every customer's details" : "Customers' orders, messages and details"} sit behind this ` +
        `door, so an e-mail code alone no longer opens it. A passkey uses this device's screen lock or a security key: nothing ` +
        `to type, nothing to steal by e-mail.`
      }
    >
      {supported ? (
        <form onSubmit={add} className="flex flex-col gap-4">
          <TextField
            label="Name of this passkey (optional)"
            name="passkey-name"
            placeholder="e.g. Office laptop"
            maxLength={PASSKEY_NAME_MAX}
            autoComplete="off"
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <FormError>{error}</FormError>
          <Button type="submit" disabled={busy} className="min-h-11 w-full">
            {busy ? (
              <Spinner label="Adding the passkey" />
            ) : (
              <>
                <PasskeyIcon />
                Add a passkey
              </>
            )}
          </Button>
        </form>
      ) : (
        <FormError>
          This browser can't create passkeys. Open the back office in a current browser (Chrome, Safari, Edge or Firefox) to add one.
        </FormError>
      )}
    </Frame>
  );
}

function Confirm({
  recovery,
  onRecovery,
  onConfirmed,
  onRecovered,
}: {
  recovery: boolean;
  onRecovery(on: boolean): void;
  onConfirmed(): void;
  onRecovered(left: number): void;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [code, setCode] = useState('');

  async function withPasskey() {
    setBusy(true);
    setError(null);
    try {
      await confirmWithPasskey();
      onConfirmed();
    } catch (err) {
      setError(passkeyProblem(err, "That passkey doesn't belong to this account. Use another one, or a recovery code."));
      setBusy(false);
    }
  }

  async function withCode(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await stepUpVerify({ recoveryCode: code.trim() });
      onRecovered(res.recoveryCodesLeft ?? 0);
    } catch (err) {
      setError(
        err instanceof ApiError && (err.status === 400 || err.status === 401)
          ? 'That recovery code is not valid or was already used.'
          : errorMessage(err),
      );
      setBusy(false);
    }
  }

  return (
    <Frame
      title="Confirm it's you"
      stepKey={recovery ? 'confirm-code' : 'confirm'}
      lead={
        recovery
          ? 'Enter one of the recovery codes you saved when you added your passkey. Each one works once.'
          : 'The back office asks for your passkey once in a while, on top of the e-mail code.'
      }
    >
      {recovery ? (
        <form onSubmit={withCode} className="flex flex-col gap-4">
          <TextField
            label="Recovery code"
            name="recovery-code"
            required
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={40}
            className="font-mono tracking-wider"
            value={code}
            onChange={(e) => {
              setCode(e.target.value);
              setError(null);
            }}
          />
          <FormError>{error}</FormError>
          <Button type="submit" disabled={busy || code.trim().length < 8} className="min-h-11 w-full">
            {busy ? <Spinner label="Checking the code" /> : 'Confirm with this code'}
          </Button>
          <Button variant="ghost" onClick={() => onRecovery(false)} className="min-h-11 w-full">
            Use my passkey instead
          </Button>
        </form>
      ) : (
        <>
          <FormError>{error}</FormError>
          <Button onClick={() => void withPasskey()} disabled={busy} className="min-h-11 w-full">
            {busy ? (
              <Spinner label="Waiting for your passkey" />
            ) : (
              <>
                <PasskeyIcon />
                Confirm with my passkey
              </>
            )}
          </Button>
          <Button variant="secondary" onClick={() => onRecovery(true)} className="min-h-11 w-full">
            Use a recovery code
          </Button>
        </>
      )}
    </Frame>
  );
}

/** The step-up's full page: one card, its heading focused at every step (a screen reader hears where it is). */
function Frame({ title, lead, stepKey, children }: { title: string; lead?: string; stepKey: string; children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  // The back office mounts hidden while the session is checked (routes/admin.tsx): focus once shown too.
  const shown = !useSession().loading;
  useEffect(() => {
    if (shown) heading.current?.focus();
  }, [stepKey, shown]);
  return (
    <div className="flex min-h-screen flex-col items-center px-4 py-8 sm:justify-center" data-testid="step-up" data-step={stepKey}>
      <BrandLogo className="mb-8" />
      <section
        aria-labelledby={headingId}
        className="w-full max-w-md rounded-2xl border border-line bg-card p-6 shadow-2xl shadow-black/40 sm:p-8"
      >
        <p className="text-xs font-semibold uppercase tracking-wider text-accent-soft">Back office</p>
        <h1 ref={heading} id={headingId} tabIndex={-1} className="mt-1 text-2xl font-bold tracking-tight text-white focus:outline-none">
          {title}
        </h1>
        {lead && <p className="mt-2 text-sm text-muted">{lead}</p>}
        <div className="mt-6 flex flex-col gap-4">{children}</div>
      </section>
      <p className="mt-6 flex flex-wrap justify-center gap-x-6 text-sm text-muted">
        <Link to="/" className="inline-flex min-h-11 items-center underline-offset-4 hover:text-white hover:underline">
          View site
        </Link>
        <Link to="/logout" className="inline-flex min-h-11 items-center underline-offset-4 hover:text-white hover:underline">
          Sign out
        </Link>
      </p>
    </div>
  );
}
