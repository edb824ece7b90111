import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { downloadOperation } from '../../lib/call-file.ts';
import { useSession } from '../../lib/session.tsx';
import { FormError } from '../auth/index.ts';
import { AccountCard } from './account-card.tsx';
import { ACCOUNT_DELETED_STATE } from './account-deleted-notice.tsx';
import { DeleteAccountDialog } from './delete-account-dialog.tsx';
import { getUserExport } from '../../../contract/account.ts';

/**
 * "Your data": the whole account as one ZIP (JSON and invoice PDFs), saved under
 * the server's file name, and the way to delete the account.
 */
export function YourDataCard({ email }: { email: string }) {
  const session = useSession();
  const navigate = useNavigate();
  const [downloading, setDownloading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);

  async function download() {
    setDownloading(true);
    setError(null);
    const failed = await downloadOperation(getUserExport, {}, 'my-data.zip');
    setDownloading(false);
    // A 429 comes with the server's sentence: how many an hour, and in how many minutes again.
    setError(failed);
  }

  return (
    <AccountCard title="Your data" intro="Take a copy of everything we hold about you, or delete your account." testId="your-data-card">
      <div className="flex flex-col gap-4">
        <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted">
            One ZIP file: your profile, sessions, orders, payments, referrals, messages and chats as JSON, with your invoices as PDF.
          </p>
          <Button
            variant="secondary"
            className="min-h-11 shrink-0"
            disabled={downloading}
            onClick={() => void download()}
            data-primary-action
          >
            {downloading ? <Spinner label="Preparing your data" /> : 'Download my data'}
          </Button>
        </div>
        <FormError>{error}</FormError>
        <div className="flex flex-col gap-2 border-t border-line pt-4 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-muted">Delete your account and the personal data that goes with it.</p>
          <Button
            variant="secondary"
            className="min-h-11 shrink-0 !border-danger/60 !text-danger hover:!border-danger"
            onClick={() => setDeleting(true)}
            data-primary-action
          >
            Delete my account
          </Button>
        </div>
      </div>
      {deleting && (
        <DeleteAccountDialog
          email={email}
          onClose={() => setDeleting(false)}
          onDeleted={async () => {
            // Away from the dashboard first, and only then signed out: a signed-out dashboard sends to
            // /login, and the home page's route loads lazily, so the navigation must have finished.
            // The server already ended every session; logout forgets the token here.
            await navigate('/', { replace: true, state: ACCOUNT_DELETED_STATE });
            await session.logout();
          }}
        />
      )}
    </AccountCard>
  );
}
