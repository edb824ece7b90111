import { useState } from 'react';
import type { ReminderJob } from '../../../contract/reminders.ts';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { Button } from '../../components/ui/button.tsx';
import { Badge, Card, ErrorText, Table, td } from '../../components/back-office/admin-ui.tsx';
import { formatWhen } from '../../components/back-office/format.ts';
import { useCanSee } from '../../components/back-office/owner-only.tsx';
import { useOperation } from '../../lib/use-operation.ts';
import { getAdminOrdersReminders, putAdminOrdersRemindersPause } from '../../../contract/reminders.ts';

const label = (r: ReminderJob) =>
  r.kind === 'due' ? 'Remaining amount due' : r.kind === 'founder' ? 'Tell the founder' : `Reminder ${r.step}`;
const tone = { sent: 'good', pending: 'accent', cancelled: 'muted', skipped: 'muted' } as const;
const stateText = (r: ReminderJob) =>
  r.state === 'cancelled' && r.reason === 'paid'
    ? 'not needed — paid'
    : r.state === 'cancelled' && r.reason === 'undone'
      ? 'cancelled — stage 13 undone'
      : r.state === 'skipped' && r.reason === 'superseded'
        ? 'skipped — a later one was due'
        : r.state;

/** Back office: the order's payment reminders — what was sent and when — and a pause switch. */
export function OrderReminders({ orderId }: { orderId: string }) {
  const { data, error, reload } = useOperation(getAdminOrdersReminders, { params: { id: orderId } });
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  // Staff see what was sent; pausing is a money decision, the owner's.
  const canPause = useCanSee('reminder-pause');

  async function toggle() {
    if (!data) return;
    setBusy(true);
    try {
      await call(putAdminOrdersRemindersPause, { params: { id: orderId }, body: { paused: !data.paused } });
      setActionError(null);
      await reload();
    } catch (err) {
      setActionError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  }

  const rounds = data ? Math.max(1, ...data.reminders.map((r) => r.round)) : 1;
  return (
    <Card title="Payment reminders">
      {error && <ErrorText>{error}</ErrorText>}
      {data && data.reminders.length === 0 && (
        <p className="text-sm text-muted">Planned when stage 13 (Launch Readiness) is completed while the remaining amount is unpaid.</p>
      )}
      {data && data.reminders.length > 0 && (
        <>
          <Table label="Payment reminders" head={['E-mail', 'Due', 'State', 'Sent']}>
            {data.reminders.map((r) => (
              <tr key={`${r.round}-${r.step}`} data-testid="reminder-row">
                <td className={td}>
                  {label(r)}
                  {rounds > 1 && <span className="ml-2 text-xs text-muted">round {r.round}</span>}
                </td>
                <td className={`${td} whitespace-nowrap`}>{formatWhen(r.dueAt)}</td>
                <td className={td}>
                  <Badge tone={tone[r.state]}>{stateText(r)}</Badge>
                </td>
                <td className={`${td} whitespace-nowrap`}>{formatWhen(r.sentAt)}</td>
              </tr>
            ))}
          </Table>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            {canPause && (
              <Button variant="secondary" onClick={toggle} disabled={busy}>
                {data.paused ? 'Resume reminders' : 'Pause reminders'}
              </Button>
            )}
            {data.paused && (
              <span className="text-sm text-muted">
                {canPause ? 'Paused: nothing is sent until you resume.' : 'Paused by the owner: nothing is sent for now.'}
              </span>
            )}
            {actionError && <ErrorText>{actionError}</ErrorText>}
          </div>
          {data.pauses.length > 0 && (
            <div className="mt-4">
              <h3 className="mb-1 text-sm font-semibold text-white">Pause history</h3>
              <ul className="flex flex-col gap-1 text-sm text-muted" data-testid="reminder-pauses">
                {data.pauses.map((p) => (
                  <li key={p.pausedAt}>
                    Paused {formatWhen(p.pausedAt)}
                    {p.pausedBy ? ` by ${p.pausedBy}` : ''} · {p.resumedAt ? `resumed ${formatWhen(p.resumedAt)}` : 'still paused'}
                  </li>
                ))}
              </ul>
            </div>
          )}
        </>
      )}
    </Card>
  );
}
