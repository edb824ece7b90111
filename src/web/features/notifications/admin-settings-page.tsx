import { NotificationsPanel } from './notifications-panel.tsx';

/** The back office's settings (/admin/settings): the owner's and staff's own notification choices. */
export default function AdminSettingsPage() {
  return (
    <div className="flex min-w-0 flex-col gap-6">
      <h1 className="text-2xl font-bold text-white">Settings</h1>
      <NotificationsPanel />
    </div>
  );
}
