import { useId, useState } from 'react';
import { deleteUserWhatsappOptIn, getUserWhatsapp, postUserWhatsappOptIn } from '../../../contract/whatsapp.ts';
import { formatDate } from '../../../domain/when.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { call } from '../../lib/call.ts';
import { errorMessage } from '../../lib/api.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { FormError } from '../auth/index.ts';
import { AccountCard } from '../account/index.ts';

/**
 * WhatsApp notices (docs/decisions/345-whatsapp-notices-and-consent.md): the customer turns them on
 * for the number on their profile. The wording beside the box is the server's, word for word what the
 * opt-in records; turning off (or replying STOP on WhatsApp) is recorded the same way.
 */
export function WhatsAppCard() {
  const loaded = useOperation(getUserWhatsapp, {});
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const boxId = useId();
  const s = loaded.data;

  async function change(on: boolean) {
    setBusy(true);
    setError(null);
    try {
      const next = on ? await call(postUserWhatsappOptIn, { body: { consent: true } }) : await call(deleteUserWhatsappOptIn);
      loaded.set(() => next);
      setAgreed(false);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AccountCard
      title="WhatsApp updates"
      intro="News about your orders on WhatsApp: payments, stages, designs to review and replies."
      testId="whatsapp-card"
    >
      {!s && !loaded.error && <Spinner label="Loading your WhatsApp choice" />}
      {s && !s.phone && <p className="text-sm text-muted">Add your phone number in your details above to get updates on WhatsApp.</p>}
      {s && s.phone && s.optedIn && (
        <div className="flex flex-col gap-3">
          <p className="text-sm text-ink" data-testid="whatsapp-state">
            On for <span className="font-semibold">{s.phone}</span>
            {s.at ? ` since ${formatDate(s.at)}` : ''}. Reply STOP on WhatsApp or turn it off here at any time.
          </p>
          {!s.available && (
            <p className="text-xs text-muted">WhatsApp messages are not set up by the team yet; you will get them once they are.</p>
          )}
          <div>
            <Button variant="secondary" className="min-h-11" disabled={busy} onClick={() => void change(false)}>
              {busy ? <Spinner label="Turning off" /> : 'Turn off WhatsApp updates'}
            </Button>
          </div>
        </div>
      )}
      {s && s.phone && !s.optedIn && (
        <form
          className="flex flex-col gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (agreed) void change(true);
          }}
        >
          <div className="flex items-start gap-3">
            <input
              id={boxId}
              type="checkbox"
              className="mt-1 size-5 shrink-0 accent-violet-500"
              checked={agreed}
              onChange={(e) => setAgreed(e.target.checked)}
            />
            <label htmlFor={boxId} className="text-sm text-ink wrap-anywhere" data-testid="whatsapp-wording">
              {s.wording}
            </label>
          </div>
          <div>
            <Button type="submit" className="min-h-11" disabled={!agreed || busy}>
              {busy ? <Spinner label="Turning on" /> : 'Turn on WhatsApp updates'}
            </Button>
          </div>
        </form>
      )}
      <div className="mt-3">
        <FormError>{error ?? loaded.error}</FormError>
      </div>
    </AccountCard>
  );
}
