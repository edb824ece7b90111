import { useEffect, useRef, useState } from 'react';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import type { SessionUser } from '../../lib/session.tsx';
import { useSession } from '../../lib/session.tsx';
import { EmailChangeDialog } from './email-change-dialog.tsx';
import { ProfileForm } from './profile-form.tsx';

/** Spec §2 "Personal Details": the phone is phone_code joined with phone_number. */
export function formatPhone(user: Pick<SessionUser, 'phone_code' | 'phone_number'>): string {
  if (!user.phone_number) return '—';
  return user.phone_code ? `+${user.phone_code.replace(/^\+/, '')} ${user.phone_number}` : user.phone_number;
}

/**
 * Spec §2 "Personal Details", with Edit and Change e-mail (decision 195: the spec
 * shows them read-only, but the privacy policy promises correction). After a save the session's
 * copy of the user is reloaded, so every place that shows the name or e-mail follows.
 */
export function PersonalDetails({ user }: { user: SessionUser }) {
  const session = useSession();
  const [editing, setEditing] = useState(false);
  const [changingEmail, setChangingEmail] = useState(false);
  const [saved, setSaved] = useState(false);
  const editRef = useRef<HTMLButtonElement>(null);
  const rows: [string, string][] = [
    ['Name', user.name ?? '—'],
    ['Email', user.email],
    ['Phone', formatPhone(user)],
    ['Address', user.address ?? '—'],
  ];

  const returnFocus = useRef(false);
  const closeForm = () => {
    returnFocus.current = true;
    setEditing(false);
  };
  // Focus returns to Edit, where the person started (the form it replaced is gone), once it is back.
  useEffect(() => {
    if (editing || !returnFocus.current) return;
    returnFocus.current = false;
    editRef.current?.focus();
  }, [editing]);

  if (editing) {
    return (
      <ProfileForm
        user={user}
        onCancel={closeForm}
        onSaved={async () => {
          await session.refresh();
          setSaved(true);
          closeForm();
        }}
      />
    );
  }

  return (
    <div className="flex flex-col gap-4">
      <dl className="grid gap-4 sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label} className={`min-w-0 rounded-xl border border-line bg-page/60 p-4 ${label === 'Address' ? 'sm:col-span-2' : ''}`}>
            <dt className="text-xs font-semibold uppercase tracking-wider text-muted">{label}</dt>
            <dd className="mt-1 whitespace-pre-line text-ink wrap-anywhere" data-testid={`detail-${label.toLowerCase()}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {saved && (
        <p role="status" className="text-sm text-success" data-testid="details-saved">
          Your details are saved.
        </p>
      )}
      <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" className="min-h-11" onClick={() => setChangingEmail(true)}>
          Change e-mail
        </Button>
        <button
          ref={editRef}
          type="button"
          className={buttonClass('primary', 'min-h-11')}
          data-primary-action
          onClick={() => {
            setSaved(false);
            setEditing(true);
          }}
        >
          Edit details
        </button>
      </div>
      {changingEmail && <EmailChangeDialog current={user.email} onChanged={session.refresh} onClose={() => setChangingEmail(false)} />}
    </div>
  );
}
