import { useState, type FormEvent } from 'react';
import type { StepUpVerifyBody } from '../../../contract/passkeys.ts';
import { ONE_TIME_CODE_LENGTH, isValidOneTimeCode } from '../../../domain/validation.ts';
import { Button } from '../../components/ui/button.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { ApiError, errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { siteConfig } from '../../lib/site-config.ts';
import { useBusyAction } from '../../lib/use-busy-action.ts';
import { FormError } from '../auth/index.ts';
import type { DeletionBlocker } from '../../../contract/account.ts';
import { deleteAccount, sendDeletionCode } from './account-api.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { getUserDeleteAccount } from '../../../contract/account.ts';
import { OneTimeCodeField } from './one-time-code-field.tsx';
import { getAuthPasskeys, postAuthStepUpOptions, postAuthStepUpVerify } from '../../../contract/passkeys.ts';

type Step = 'explain' | 'code';

/** Said when the server refuses with 409 ORDER_IN_PROGRESS: what blocks it and what to do. */
export const ORDER_IN_PROGRESS_TEXT =
  'You have an order in progress: you paid for a website we have not delivered yet. We can delete your ' +
  'account once it is delivered — or write to us and we will sort it out together.';

/** What deletion erases and keeps; the years come from INVOICE_RETENTION_YEARS (public site config). */
export function DeletionTerms() {
  const years = siteConfig().invoiceRetentionYears;
  return (
    <div className="flex flex-col gap-3 text-sm text-muted">
      <p className="text-ink">Deleting your account cannot be undone. You are signed out on every device at once.</p>
      <div>
        <p className="font-semibold text-ink">We erase</p>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          <li>your name, e-mail address, phone number and address;</li>
          <li>your chats and messages, your sessions and passkeys, and your referral code;</li>
          <li>
            the files you uploaded to your orders — except a file in a design round you approved, of which we keep only its fingerprint (a
            hash) as the record of what you approved.
          </li>
        </ul>
      </div>
      <div>
        <p className="font-semibold text-ink">The law makes us keep</p>
        <ul className="mt-1 list-disc space-y-1 pl-5">
          <li>
            your invoices and payment records for {years} years, as tax law requires. The name and address on each invoice stay on that
            invoice only; everywhere else you become “Deleted customer”.
          </li>
        </ul>
      </div>
      <p>Want a copy first? Use “Download my data” before you delete.</p>
    </div>
  );
}

function describeFailure(err: unknown): string {
  if (err instanceof ApiError && err.code === 'ORDER_IN_PROGRESS') return ORDER_IN_PROGRESS_TEXT;
  // The browser's passkey prompt was dismissed or timed out.
  if (err instanceof DOMException) return 'The passkey was not used. You can try again, or confirm with a code instead.';
  return errorMessage(err);
}

/** Passkeys on this account and a browser that can use them: then a passkey may confirm instead of a code. */
function usePasskeyOption(): boolean {
  const canUse = typeof window !== 'undefined' && Boolean(window.PublicKeyCredential);
  // The same read as the dashboard's passkeys card: one cached answer.
  const { data } = useOperation(getAuthPasskeys, canUse ? {} : null);
  return (data?.passkeys.length ?? 0) > 0;
}

/**
 * What blocks the deletion now, read when the dialog opens — before any code is sent
 * (docs/decisions/275-account-deletion-up-front.md). null while it is read.
 */
function useBlockers(): { blockers: DeletionBlocker[] | null; failed: string | null } {
  // Fresh: what blocked the deletion a minute ago may be gone (an order delivered, a plan cancelled).
  const { data, error } = useOperation(getUserDeleteAccount, {}, { fresh: true });
  return { blockers: data?.blockers ?? null, failed: error };
}

const BLOCKER_TEXT: Record<DeletionBlocker['kind'], string> = {
  order_in_progress: ORDER_IN_PROGRESS_TEXT,
  maintenance_plan:
    'Your maintenance plan is still active. Cancel it on the order’s Support tab first (it stops at the ' +
    'end of the paid month); then you can delete your account.',
  owner: 'The owner’s account cannot be deleted here: hand the back office over first.',
};

/** Confirms this session with a passkey (the step-up endpoints), as the server asks for a deletion. */
async function confirmWithPasskey() {
  const { startAuthentication } = await import('@simplewebauthn/browser');
  const options = await call(postAuthStepUpOptions);
  const response = await startAuthentication({ optionsJSON: options as never });
  // The library's JSON type is the same object; the contract's type is looser (extra keys allowed).
  await call(postAuthStepUpVerify, { body: { response: response as unknown as StepUpVerifyBody['response'] } });
}

/**
 * "Delete my account": what is erased and what is kept, what blocks the deletion now (read first, so
 * no code is sent in vain), then a deletion code mailed to the account's address — or a passkey,
 * when the account has one. A late 409 ORDER_IN_PROGRESS is explained; on success `onDeleted` signs
 * out here and leaves the dashboard.
 */
export function DeleteAccountDialog({ email, onDeleted, onClose }: { email: string; onDeleted: () => Promise<void>; onClose: () => void }) {
  const [step, setStep] = useState<Step>('explain');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const { busy, error, setError, run } = useBusyAction(describeFailure);
  const passkeyOption = usePasskeyOption();
  const { blockers, failed } = useBlockers();
  const blocked = (blockers?.length ?? 0) > 0;

  const requestCode = () =>
    run(async () => {
      await sendDeletionCode();
      setCode('');
      setStep('code');
    });

  const deleteWithCode = (e: FormEvent) => {
    e.preventDefault();
    if (!isValidOneTimeCode(code)) return setCodeError(`The code has ${ONE_TIME_CODE_LENGTH} digits.`);
    void run(async () => {
      await deleteAccount(code.trim());
      await onDeleted();
    });
  };

  // A session a passkey confirmed minutes ago (a passkey sign-in) needs no second touch.
  const deleteWithPasskey = () =>
    run(async () => {
      try {
        await deleteAccount();
      } catch (err) {
        if (!(err instanceof ApiError && err.code === 'CONFIRMATION_REQUIRED')) throw err;
        await confirmWithPasskey();
        await deleteAccount();
      }
      await onDeleted();
    });

  return (
    <ModalDialog
      title="Delete my account"
      onClose={onClose}
      busy={busy}
      testId="delete-account-dialog"
      step={blockers === null ? 'checking' : blocked ? 'blocked' : step}
    >
      <div className="flex flex-col gap-5">
        <DeletionTerms />
        {blockers === null && !failed ? (
          <Spinner label="Checking whether your account can be deleted now" className="h-5 w-5 text-accent-soft" />
        ) : blocked ? (
          <div
            role="alert"
            data-testid="delete-account-blockers"
            className="rounded-xl border border-amber-300/60 bg-amber-300/10 p-3 text-sm text-ink"
          >
            <p className="font-semibold">Your account cannot be deleted yet:</p>
            <ul className="mt-1 list-disc space-y-1 pl-5">
              {blockers!.map((b) => (
                <li key={b.kind}>{BLOCKER_TEXT[b.kind]}</li>
              ))}
            </ul>
          </div>
        ) : step === 'explain' ? (
          <div className="flex flex-col gap-2">
            <p className="text-sm text-muted">
              To make sure it is you, we send a code for deleting your account to <span className="break-all text-ink">{email}</span>.
            </p>
            <Button data-autofocus disabled={busy} className="min-h-11" onClick={() => void requestCode()}>
              {busy ? <Spinner label="Sending the code" /> : 'Send me a code'}
            </Button>
          </div>
        ) : (
          <form onSubmit={deleteWithCode} noValidate className="flex flex-col gap-3">
            <p role="status" className="text-sm text-muted">
              We sent a code to <span className="break-all font-semibold text-ink">{email}</span>.
            </p>
            <OneTimeCodeField
              value={code}
              error={codeError}
              onChange={(digits) => {
                setCode(digits);
                setCodeError(null);
                setError(null);
              }}
            />
            <Button type="submit" disabled={busy} className="min-h-11 !bg-red-700 hover:!bg-red-800">
              {busy ? <Spinner label="Deleting your account" /> : 'Delete my account for good'}
            </Button>
            <Button variant="ghost" disabled={busy} className="min-h-11" onClick={() => void requestCode()}>
              Send a new code
            </Button>
          </form>
        )}
        {passkeyOption && blockers !== null && !blocked && (
          <Button variant="secondary" disabled={busy} className="min-h-11" onClick={() => void deleteWithPasskey()}>
            Confirm with a passkey and delete
          </Button>
        )}
        <FormError>{error ?? failed}</FormError>
        <Button variant="ghost" disabled={busy} className="min-h-11" onClick={onClose} data-autofocus={blocked || undefined}>
          Keep my account
        </Button>
      </div>
    </ModalDialog>
  );
}
