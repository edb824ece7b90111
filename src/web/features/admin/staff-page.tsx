import { useState, type FormEvent } from 'react';
import type { StaffMember } from '../../../contract/staff.ts';
import { EMAIL_MAX, isValidEmail, normalizeEmail } from '../../../domain/validation.ts';
import { Button } from '../../components/ui/button.tsx';
import { ModalDialog } from '../../components/ui/modal-dialog.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { Card, ErrorText, Loadable, Notice, PageHeader, Table, td, wrapCell } from '../../components/back-office/admin-ui.tsx';
import { formatWhen } from '../../components/back-office/format.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { deleteAdminStaffById, getAdminStaff, postAdminStaff } from '../../../contract/staff.ts';

/**
 * /admin/staff: the owner invites people by e-mail and removes them. An invited
 * person signs in like anyone (code or passkey) and gets the role `staff`; removing them ends their
 * sessions and sockets at once, which the confirmation says before it happens.
 */
export default function StaffPage() {
  const { data, error, loading, reload } = useOperation(getAdminStaff, {});
  const [notice, setNotice] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<StaffMember | null>(null);

  async function remove(member: StaffMember) {
    try {
      await call(deleteAdminStaffById, { params: { id: member.id } });
      setActionError(null);
      setNotice(`${member.email} was removed and signed out.`);
    } catch (err) {
      setNotice(null);
      setActionError(errorMessage(err));
    }
    setRemoving(null);
    await reload();
  }

  return (
    <>
      <PageHeader title="Staff" />
      <div className="flex flex-col gap-6">
        <Card title="Invite a staff member">
          <p className="mb-4 max-w-2xl text-sm text-muted">
            They sign in with this address like anyone else. Staff work on orders (stages, brief, files, reviews, messages, the delivery
            link), chats, leads and contact messages and support requests. Coupons, cashback, refunds and payments, the customer list and
            its exports, the audit log, the funnel and this page stay with you.
          </p>
          <InviteForm
            onStart={() => {
              // A message from the last invitation must not stand beside this one's answer.
              setNotice(null);
              setActionError(null);
            }}
            onInvited={async (member) => {
              setActionError(null);
              setNotice(`Invitation sent to ${member.email}.`);
              await reload();
            }}
          />
        </Card>
        {notice && <Notice>{notice}</Notice>}
        {actionError && <ErrorText>{actionError}</ErrorText>}
        <Card title="Your team">
          <Loadable loading={loading && !data} error={error}>
            {data &&
              (data.staff.length === 0 ? (
                <p className="text-muted">No staff yet. Invite someone above.</p>
              ) : (
                <Table label="Staff members" head={['Staff member', 'Invited', 'Last seen', 'Actions']}>
                  {data.staff.map((m) => (
                    <tr key={m.id} data-testid="staff-row">
                      <td className={`${td} ${wrapCell}`}>
                        <div className="text-white">{m.email}</div>
                        <div className="text-xs text-muted">{m.name ?? (m.userId ? 'No name yet' : 'Not signed in yet')}</div>
                      </td>
                      <td className={`${td} min-w-[8rem]`}>
                        {formatWhen(m.invitedAt)}
                        {m.invitedBy && <div className="text-xs text-muted wrap-anywhere">by {m.invitedBy}</div>}
                      </td>
                      <td className={`${td} min-w-[8rem]`}>{m.lastSeenAt ? formatWhen(m.lastSeenAt) : 'Never'}</td>
                      <td className={td}>
                        <Button variant="secondary" onClick={() => setRemoving(m)} aria-label={`Remove ${m.email}`}>
                          Remove
                        </Button>
                      </td>
                    </tr>
                  ))}
                </Table>
              ))}
          </Loadable>
        </Card>
      </div>
      {removing && <RemoveDialog member={removing} onCancel={() => setRemoving(null)} onConfirm={remove} />}
    </>
  );
}

function InviteForm({ onStart, onInvited }: { onStart(): void; onInvited(member: StaffMember): Promise<void> }) {
  const [email, setEmail] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    onStart();
    const value = normalizeEmail(email);
    // The same rule as the server's, so a typo is caught before the round trip; the server checks again.
    if (!isValidEmail(value)) {
      setFieldError('Please enter a valid e-mail address.');
      return;
    }
    setBusy(true);
    try {
      const res = await call(postAdminStaff, { body: { email: value } });
      setEmail('');
      setFieldError(null);
      await onInvited(res.member);
    } catch (err) {
      setFieldError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Invite a staff member" className="flex max-w-xl flex-wrap items-start gap-3">
      <div className="min-w-0 flex-1 basis-64">
        <TextField
          label="E-mail address"
          type="email"
          autoComplete="off"
          value={email}
          maxLength={EMAIL_MAX}
          error={fieldError}
          onChange={(e) => {
            setEmail(e.target.value);
            setFieldError(null);
          }}
        />
      </div>
      {/* Lined up with the field, below its label. */}
      <Button type="submit" disabled={busy} className="sm:mt-7">
        Invite
      </Button>
    </form>
  );
}

/** A modal confirmation: removal signs the person out everywhere at once, so it is said first. */
function RemoveDialog({
  member,
  onCancel,
  onConfirm,
}: {
  member: StaffMember;
  onCancel(): void;
  onConfirm(member: StaffMember): Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  return (
    <ModalDialog title={`Remove ${member.email}?`} onClose={onCancel} busy={busy} testId="remove-staff-dialog">
      <p className="text-sm">
        They will be signed out at once, on every device, and lose access to the back office. What they did stays in the audit log. You can
        invite them again later.
      </p>
      <div className="mt-5 flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={onCancel} disabled={busy} data-autofocus>
          Cancel
        </Button>
        <button
          type="button"
          disabled={busy}
          className="inline-flex items-center justify-center rounded-xl border border-danger/70 px-5 py-2.5 text-sm font-semibold
            text-danger hover:bg-danger/10 disabled:cursor-not-allowed disabled:opacity-60"
          onClick={async () => {
            setBusy(true);
            await onConfirm(member);
          }}
        >
          Remove and sign out
        </button>
      </div>
    </ModalDialog>
  );
}
