import { useId, useState, type FormEvent } from 'react';
import {
  AGENCY_NOTICE_KINDS,
  CUSTOMER_NOTICE_KINDS,
  DEVICE_NAME_MAX,
  deletePushSubscriptionsById,
  getPushSubscriptions,
  getUserNotificationPreferences,
  NOTICE_CHANNEL_LABELS,
  NOTICE_CHANNELS,
  NOTICE_KIND_LABELS,
  putUserNotificationPreferences,
  type NoticeChannel,
  type NoticeKind,
  type NotificationPreferences,
} from '../../../contract/notification-preferences.ts';
import { isBackOffice } from '../../../domain/roles.ts';
import { formatDate } from '../../../domain/when.ts';
import { Button } from '../../components/ui/button.tsx';
import { Spinner } from '../../components/ui/spinner.tsx';
import { TextField } from '../../components/ui/text-field.tsx';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { useSession } from '../../lib/session.tsx';
import { useOperation } from '../../lib/use-operation.ts';
import { allowPushHere, pushSupport } from './push-device.ts';

/**
 * "Notifications" (docs/decisions/342-notification-preferences.md, 343-web-push.md): allow push on
 * this device, the devices that receive it, the choice per kind and channel, and quiet hours. The
 * dashboard shows it to customers, the back office's settings to the owner and staff, each with
 * their side's kinds.
 */
export function NotificationsPanel() {
  const session = useSession();
  const headingId = useId();
  const agency = isBackOffice(session.user?.role);
  const kinds: readonly NoticeKind[] = agency ? AGENCY_NOTICE_KINDS : CUSTOMER_NOTICE_KINDS;
  // The agency has no WhatsApp notices; a customer's need their opt-in (its own panel).
  const channels: readonly NoticeChannel[] = agency ? NOTICE_CHANNELS.filter((c) => c !== 'whatsapp') : NOTICE_CHANNELS;

  return (
    <section
      aria-labelledby={headingId}
      data-testid="notifications-panel"
      className="min-w-0 rounded-2xl border border-line bg-card p-5 sm:p-8"
    >
      <h2 id={headingId} className="text-lg font-semibold text-white">
        Notifications
      </h2>
      <p className="mt-1 text-sm text-muted">
        Choose what reaches you, and how. Push notifications arrive on the devices you allow, even when this site is closed.
      </p>
      <div className="mt-5 flex flex-col gap-6">
        <Devices />
        <Choices kinds={kinds} channels={channels} />
      </div>
    </section>
  );
}

function Devices() {
  const devices = useOperation(getPushSubscriptions, {});
  const [name, setName] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const support = pushSupport();

  async function allow(e: FormEvent) {
    e.preventDefault();
    setBusy('allow');
    setError(null);
    setNotice(null);
    try {
      await allowPushHere(name);
      setName('');
      setNotice('Push notifications are on for this device.');
      await devices.reload();
    } catch (err) {
      setError(err instanceof Error && !('status' in err) ? err.message : errorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  async function remove(id: string) {
    setBusy(id);
    setError(null);
    setNotice(null);
    try {
      await call(deletePushSubscriptionsById, { params: { id } });
      await devices.reload();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  }

  const list = devices.data?.subscriptions;
  return (
    <div className="flex flex-col gap-3">
      <h3 className="font-semibold text-ink">Devices with push</h3>
      {!list && !devices.error && <Spinner label="Loading your devices" />}
      {list && list.length === 0 && <p className="text-sm text-muted">No device receives push notifications yet.</p>}
      {list && list.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Devices with push">
          {list.map((d) => (
            <li
              key={d.id}
              data-testid="push-device"
              className="flex min-w-0 flex-col gap-2 rounded-xl border border-line bg-page/60 p-3 sm:flex-row sm:items-center
                sm:justify-between"
            >
              <div className="min-w-0">
                <p className="font-semibold text-ink wrap-anywhere">{d.deviceName}</p>
                <p className="text-sm text-muted">
                  Added {formatDate(d.createdAt)}
                  {d.lastSentAt ? ` · last notice ${formatDate(d.lastSentAt)}` : ''}
                </p>
              </div>
              <Button
                variant="secondary"
                className="min-h-11 shrink-0"
                disabled={busy === d.id}
                onClick={() => void remove(d.id)}
                aria-label={`Remove ${d.deviceName}`}
              >
                {busy === d.id ? <Spinner label="Removing" /> : 'Remove'}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {support === 'supported' ? (
        <form onSubmit={allow} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="min-w-0 flex-1">
            <TextField
              label="Device name (optional)"
              name="device-name"
              placeholder="e.g. My phone"
              maxLength={DEVICE_NAME_MAX}
              autoComplete="off"
              value={name}
              onChange={(e) => setName(e.target.value)}
            />
          </div>
          <Button type="submit" disabled={busy === 'allow'} className="min-h-11 shrink-0">
            {busy === 'allow' ? <Spinner label="Allowing push" /> : 'Allow push on this device'}
          </Button>
        </form>
      ) : (
        <p className="text-sm text-muted">
          {support === 'denied'
            ? 'Notifications are blocked for this site in this browser; allow them in its site settings to use push here.'
            : 'This browser cannot receive push notifications. On an iPhone, add this site to your Home Screen first.'}
        </p>
      )}
      {notice && (
        <p className="text-sm text-success" role="status">
          {notice}
        </p>
      )}
      {(error ?? devices.error) && (
        <p className="text-sm text-danger" role="alert">
          {error ?? devices.error}
        </p>
      )}
    </div>
  );
}

function Choices({ kinds, channels }: { kinds: readonly NoticeKind[]; channels: readonly NoticeChannel[] }) {
  const loaded = useOperation(getUserNotificationPreferences, {});
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const prefs = loaded.data;
  const [quiet, setQuiet] = useState<NotificationPreferences['quietHours'] | null>(null);
  const hours = quiet ?? prefs?.quietHours ?? null;

  async function save(body: Parameters<typeof call<typeof putUserNotificationPreferences>>[1]) {
    setSaving(true);
    setError(null);
    setSaved(false);
    try {
      await call(putUserNotificationPreferences, body);
      await loaded.reload();
      setSaved(true);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setSaving(false);
    }
  }

  if (!prefs || !hours)
    return loaded.error ? (
      <p className="text-sm text-danger" role="alert">
        {loaded.error}
      </p>
    ) : (
      <Spinner label="Loading your choices" />
    );
  return (
    <div className="flex flex-col gap-5">
      <fieldset className="min-w-0" disabled={saving}>
        <legend className="font-semibold text-ink">What reaches you</legend>
        <div className="mt-3 overflow-x-auto">
          <table className="w-full min-w-0 text-left text-sm">
            <thead>
              <tr className="text-muted">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Notice
                </th>
                {channels.map((c) => (
                  <th key={c} scope="col" className="px-2 py-2 text-center font-medium whitespace-nowrap">
                    {NOTICE_CHANNEL_LABELS[c]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {kinds.map((kind) => (
                <tr key={kind} className="border-t border-line">
                  <th scope="row" className="py-2 pr-3 font-normal text-ink">
                    {NOTICE_KIND_LABELS[kind]}
                  </th>
                  {channels.map((channel) => (
                    <td key={channel} className="px-2 py-1 text-center">
                      <input
                        type="checkbox"
                        className="h-5 w-5 align-middle"
                        data-testid={`pref-${channel}-${kind}`}
                        aria-label={`${NOTICE_CHANNEL_LABELS[channel]}: ${NOTICE_KIND_LABELS[kind]}`}
                        checked={prefs.channels[channel][kind]}
                        onChange={(e) => void save({ body: { channels: { [channel]: { [kind]: e.target.checked } } } })}
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </fieldset>
      <form
        className="flex flex-col gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          void save({ body: { quietHours: hours } });
        }}
      >
        <fieldset className="min-w-0" disabled={saving}>
          <legend className="font-semibold text-ink">Quiet hours</legend>
          <p className="mt-1 text-sm text-muted">
            No push or WhatsApp message between these times (e-mail still arrives). The same time for both turns quiet hours off.
          </p>
          <div className="mt-3 flex flex-wrap items-end gap-3">
            <TimeField label="From" value={hours.start} onChange={(start) => setQuiet({ ...hours, start })} testId="quiet-start" />
            <TimeField label="Until" value={hours.end} onChange={(end) => setQuiet({ ...hours, end })} testId="quiet-end" />
            <p className="min-h-11 content-center text-sm text-muted">{hours.timeZone.replace('_', ' ')}</p>
            <Button type="submit" variant="secondary" className="min-h-11">
              Save quiet hours
            </Button>
          </div>
        </fieldset>
      </form>
      {saving && <Spinner label="Saving" />}
      {saved && !saving && (
        <p className="text-sm text-success" role="status">
          Saved.
        </p>
      )}
      {error && (
        <p className="text-sm text-danger" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

function TimeField({ label, value, onChange, testId }: { label: string; value: string; onChange: (v: string) => void; testId: string }) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm text-muted">
        {label}
      </label>
      <input
        id={id}
        type="time"
        required
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
        className="min-h-11 rounded-xl border border-line bg-field px-3 text-ink"
      />
    </div>
  );
}
