import { useState } from 'react';
import { getOrdersSiteHealth, putOrdersSiteHealthMails } from '../../../contract/site-care.ts';
import { call } from '../../lib/call.ts';
import { errorMessage } from '../../lib/api.ts';
import { useOperation } from '../../lib/use-operation.ts';

/**
 * The dashboard's switch for one delivered order (docs/decisions/326-site-incidents-and-mails.md):
 * the e-mails when the website goes down and comes back. Shown once the order watches a site.
 */
export function SiteMailsSwitch({ orderId }: { orderId: string }) {
  const health = useOperation(getOrdersSiteHealth, { params: { orderId } });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!health.data || health.data.sites.length === 0) return null;
  const on = health.data.settings.customerMails;
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      await call(putOrdersSiteHealthMails, { params: { orderId }, body: { customerMails: !on } });
      await health.reload();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="mt-2 text-sm">
      <label className="flex min-h-11 items-center gap-2 text-ink">
        <input type="checkbox" className="h-5 w-5" checked={on} disabled={busy} onChange={toggle} data-testid="site-mails" />
        E-mail me when my website goes down
      </label>
      {error && (
        <p role="alert" className="text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
