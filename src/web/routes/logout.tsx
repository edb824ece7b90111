import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { Spinner } from '../components/ui/spinner.tsx';
import { useSession } from '../lib/session.tsx';
import { clearSessionData } from '../features/notifications/install.ts';

// Spec §2 /logout: runs logout (the server revokes the session), removes the token, goes to /.
export default function LogoutPage() {
  const { logout } = useSession();
  const navigate = useNavigate();
  const ran = useRef(false);
  useEffect(() => {
    if (ran.current) return;
    ran.current = true;
    // The offline copies of this session's answers go with it (docs/decisions/344-installable-app.md).
    void logout()
      .then(clearSessionData)
      .finally(() => navigate('/', { replace: true }));
  }, [logout, navigate]);
  return (
    <div className="flex min-h-screen items-center justify-center gap-3 text-muted">
      <Spinner label="Signing out" /> Signing out…
    </div>
  );
}
