import { Link } from 'react-router';
import { useSession } from '../lib/session.tsx';
import { AdminConsole } from '../features/chat/admin-console.tsx';
import { StepUpGate } from '../features/admin/step-up-gate.tsx';
import { Spinner } from '../components/ui/spinner.tsx';
import { rememberReturnTo } from '../features/auth/auth-state.ts';
import { useInstallableApp } from '../features/notifications/install.ts';

// The adminChat route (spec §2). The socket decides who is an admin; this page only avoids
// connecting for visitors who are not signed in.
export default function AdminChatPage() {
  const session = useSession();
  useInstallableApp();
  if (session.loading) {
    return (
      <div className="flex min-h-screen items-center justify-center">
        <Spinner label="Loading" />
      </div>
    );
  }
  if (!session.isLoggedIn) {
    return (
      <section className="mx-auto max-w-xl px-4 py-24 text-center">
        <h1 className="text-3xl font-bold text-white">Chat console</h1>
        <p className="mt-3 text-muted">Please sign in with an admin account to answer chats.</p>
        <Link
          to="/login"
          onClick={() => rememberReturnTo('/adminChat')}
          className="mt-6 inline-block rounded-xl bg-accent-strong px-5 py-2.5 font-semibold text-white hover:bg-violet-800"
        >
          Sign in
        </Link>
      </section>
    );
  }
  return (
    <StepUpGate>
      <AdminConsole />
    </StepUpGate>
  );
}
