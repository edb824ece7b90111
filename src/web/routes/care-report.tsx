import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useSession } from '../lib/session.tsx';
import { rememberReturnTo } from '../features/auth/auth-state.ts';
import CareReportPage from '../features/site-care/care-report-page.tsx';

/** /status/:id/care/:month: the customer's monthly care report (logged out → /login, then back here). */
export default function CustomerCareReport() {
  const { id = '', month = '' } = useParams();
  const session = useSession();
  const navigate = useNavigate();
  useEffect(() => {
    if (session.loading || session.isLoggedIn) return;
    rememberReturnTo(`/status/${encodeURIComponent(id)}/care/${encodeURIComponent(month)}`);
    navigate('/login', { replace: true });
  }, [id, month, session.loading, session.isLoggedIn, navigate]);
  if (!session.isLoggedIn) return null;
  return <CareReportPage side="customer" />;
}
