import { useId, useState, type FormEvent } from 'react';
import { getAuthPasskeys, PASSKEY_NAME_MAX } from '../../../contract/passkeys.ts';
import { isBackOffice } from '../../../domain/roles.ts';
import { formatWhen } from '../../../domain/when.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/api.ts';
import { useSession } from '../../lib/session.tsx';
import { useOperation } from '../../lib/use-operation.ts';
import { FormError } from './auth-shell.tsx';
import { removePasskey } from './passkey-api.ts';
import { addPasskey, passkeyProblem, passkeysSupported } from './passkey-ceremonies.ts';
import { PasskeyIcon } from './passkey-sign-in.tsx';
import { RecoveryCodes } from './recovery-codes.tsx';

/**
 * The dashboard's "Passkeys" card (decision 194): the account's passkeys with when
 * each was added and last used, add one (named or not), remove one after a confirmation; a
 * back-office account also sees how many recovery codes it has left, and its first passkey's codes
 * once.
 */
export function PasskeysCard() {
  const session = useSession();
  const headingId = useId();
  const loaded = useOperation(getAuthPasskeys, {});
  const list = loaded.data;
  // A failed add's or removal's message; a failed (re)load's shows when there is none.
  const [actionError, setError] = useState<string | null>(null);
  const error = actionError ?? loaded.error;
  const [name, setName] = useState('');
  const [adding, setAdding] = useState(false);
  const [confirming, setConfirming] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const backOffice = isBackOffice(session.user?.role);

  async function add(e: FormEvent) {
    e.preventDefault();
    setAdding(true);
    setError(null);
    setNotice(null);
    try {
      const res = await addPasskey(name);
      setName('');
      setNotice(`Passkey "${res.passkey.name}" added. Next time, sign in with it.`);
      if (res.recoveryCodes?.length) setCodes(res.recoveryCodes);
      await loaded.reload();
    } catch (err) {
      setError(passkeyProblem(err, errorMessage(err)));
    } finally {
      setAdding(false);
    }
  }

  async function remove(id: string) {
    setRemoving(id);
    setError(null);
    setNotice(null);
    try {
      await removePasskey(id);
      setConfirming(null);
      await loaded.reload();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setRemoving(null);
    }
  }

  return (
    <section aria-labelledby={headingId} data-testid="passkeys-card" className="min-w-0 rounded-2xl border border-line bg-card p-5 sm:p-8">
      <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-white">
        <PasskeyIcon />
        Passkeys
      </h2>
      <p className="mt-1 text-sm text-muted">
        Sign in with this device's fingerprint, face or screen lock instead of waiting for an e-mail code.
        {backOffice && ' The back office asks for one of them, too.'}
      </p>
      <div className="mt-5 flex flex-col gap-4">
        {codes ? (
          <>
            <p className="text-sm text-ink">
              <strong className="text-white">Save your recovery codes.</strong> Each one opens the back office once if your passkey is out
              of reach. They are shown only now.
            </p>
            <RecoveryCodes codes={codes} onContinue={() => setCodes(null)} continueLabel="Done" />
          </>
        ) : (
          <>
            {list === null && !error && <Spinner label="Loading your passkeys" />}
            {list && list.passkeys.length === 0 && <p className="text-sm text-muted">No passkeys yet.</p>}
            {list && list.passkeys.length > 0 && (
              <ul className="flex flex-col gap-3" aria-label="Your passkeys">
                {list.passkeys.map((p) => (
                  <li
                    key={p.id}
                    data-testid="passkey-row"
                    className="flex min-w-0 flex-col gap-3 rounded-xl border border-line bg-page/60 p-4 sm:flex-row sm:items-center
                      sm:justify-between"
                  >
                    <div className="min-w-0">
                      <p className="font-semibold text-ink wrap-anywhere">
                        {p.name}
                        {p.backedUp && (
                          <span
                            className="ml-2 inline-block rounded-full bg-accent-strong/30 px-2 py-0.5 align-middle text-xs font-semibold
                              text-accent-soft"
                          >
                            Synced
                          </span>
                        )}
                      </p>
                      <p className="mt-1 text-sm text-muted">
                        Added {formatWhen(p.createdAt)}
                        <br />
                        {p.lastUsedAt ? `Last used ${formatWhen(p.lastUsedAt)}` : 'Not used yet'}
                      </p>
                    </div>
                    {confirming === p.id ? (
                      <div className="flex flex-col gap-2 sm:items-end" role="group" aria-label={`Remove ${p.name}?`}>
                        {/* A back-office account's last one is refused by the server (409, decision 190), which says why. */}
                        <p className="text-sm text-ink">Remove this passkey? It will no longer sign you in.</p>
                        <div className="flex gap-2">
                          <Button
                            variant="secondary"
                            onClick={() => setConfirming(null)}
                            disabled={removing === p.id}
                            className="min-h-11 flex-1 sm:flex-none"
                          >
                            Keep
                          </Button>
                          <Button
                            onClick={() => void remove(p.id)}
                            disabled={removing === p.id}
                            className="min-h-11 flex-1 bg-red-700 hover:bg-red-800 sm:flex-none"
                          >
                            {removing === p.id ? <Spinner label="Removing the passkey" /> : 'Remove'}
                          </Button>
                        </div>
                      </div>
                    ) : (
                      <Button
                        variant="secondary"
                        onClick={() => setConfirming(p.id)}
                        className="min-h-11 shrink-0"
                        aria-label={`Remove passkey ${p.name}`}
                      >
                        Remove
                      </Button>
                    )}
                  </li>
                ))}
              </ul>
            )}
            {backOffice && list && (
              <p className="text-sm text-muted" data-testid="recovery-codes-left">
                Recovery codes left: <span className="font-semibold text-ink tabular-nums">{list.recoveryCodesLeft}</span>
              </p>
            )}
            {notice && (
              <p className="text-sm text-success" role="status">
                {notice}
              </p>
            )}
            <FormError>{error}</FormError>
            {passkeysSupported() ? (
              <form onSubmit={add} className="flex flex-col gap-3 border-t border-line pt-4 sm:flex-row sm:items-end">
                <div className="min-w-0 flex-1">
                  <TextField
                    label="Name (optional)"
                    name="passkey-name"
                    placeholder="e.g. My phone"
                    maxLength={PASSKEY_NAME_MAX}
                    autoComplete="off"
                    value={name}
                    onChange={(e) => setName(e.target.value)}
                  />
                </div>
                <Button type="submit" disabled={adding} className="min-h-11 shrink-0">
                  {adding ? <Spinner label="Adding the passkey" /> : 'Add a passkey'}
                </Button>
              </form>
            ) : (
              <p className="text-sm text-muted">This browser can't create passkeys.</p>
            )}
          </>
        )}
      </div>
    </section>
  );
}
