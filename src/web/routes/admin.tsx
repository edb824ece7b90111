import { lazy, Suspense } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Spinner } from '../components/ui/spinner.tsx';
import { useSession } from '../lib/session.tsx';
import { tokenStore } from '../lib/api.ts';
import { AdminShell } from '../features/admin/admin-shell.tsx';
import { AdminsOnly } from '../features/admin/admins-only.tsx';
import { StepUpGate } from '../features/admin/step-up-gate.tsx';
import { useChatSummary } from '../features/admin/use-chat-summary.ts';
import { rememberReturnTo } from '../features/auth/auth-state.ts';
import { OwnerOnly } from '../components/back-office/owner-only.tsx';
import { isBackOffice } from '../../domain/roles.ts';
import { useInstallableApp } from '../features/notifications/install.ts';

// Every screen of the back office is its own chunk; none of it loads for visitors or customers.
const OverviewPage = lazy(() => import('../features/admin/overview-page.tsx'));
const OrdersPage = lazy(() => import('../features/admin/orders-page.tsx'));
const OrderPage = lazy(() => import('../features/admin/order-page.tsx'));
const LeadsPage = lazy(() => import('../features/admin/leads-page.tsx'));
const CouponsPage = lazy(() => import('../features/admin/coupons-page.tsx'));
const AddonsPage = lazy(() => import('../features/changes/addons-page.tsx'));
const SupportPage = lazy(() => import('../features/support/admin-support-page.tsx'));
const CashbackPage = lazy(() => import('../features/admin/cashback-page.tsx'));
const CustomersPage = lazy(() => import('../features/admin/customers-page.tsx'));
const CustomerPage = lazy(() => import('../features/admin/customer-page.tsx'));
const AuditPage = lazy(() => import('../features/admin/audit-page.tsx'));
const DraftsPage = lazy(() => import('../features/abandoned-checkouts/drafts-page.tsx'));
const FunnelPage = lazy(() => import('../features/funnel/funnel-page.tsx'));
const TaxReturnPage = lazy(() => import('../features/tax-return/tax-return-page.tsx'));
const StaffPage = lazy(() => import('../features/admin/staff-page.tsx'));
const PayoutsPage = lazy(() => import('../features/payouts/payouts-page.tsx'));
const SitesPage = lazy(() => import('../features/site-care/admin-sites-page.tsx'));
const CareReportPage = lazy(() => import('../features/site-care/care-report-page.tsx'));
const SettingsPage = lazy(() => import('../features/notifications/admin-settings-page.tsx'));

/**
 * /admin/*: visitors go to /login, customers see "Admins only"; the owner and staff come in, and
 * staff meet "Only the owner can see this" on the owner's pages (decision 196). The server checks
 * every call again.
 */
export default function AdminPage() {
  const session = useSession();
  const location = useLocation();
  const spinner = (
    <div className="flex min-h-screen items-center justify-center">
      <Spinner label="Loading" className="h-8 w-8 text-accent-soft" />
    </div>
  );
  // With a stored token the page mounts, hidden, while the session is checked: its reads run beside
  // the session's instead of after it (docs/decisions/338-web-reads-and-folder-rules.md). The server
  // answers them only for staff; anyone else sees the spinner, then "admins only", never the page.
  if (session.loading && !tokenStore.get()) return spinner;
  if (!session.loading && !session.isLoggedIn) return <SignInFirst path={`${location.pathname}${location.search}`} />;
  if (!session.loading && !isBackOffice(session.user?.role)) return <AdminsOnly />;
  return (
    <>
      {session.loading && spinner}
      <div hidden={session.loading} className="contents">
        <StepUpGate>
          <AdminArea />
        </StepUpGate>
      </div>
    </>
  );
}

/** A deep link into the back office while signed out: sign in, then come back to it (decision 125). */
function SignInFirst({ path }: { path: string }) {
  rememberReturnTo(path);
  return <Navigate to="/login" replace />;
}

function AdminArea() {
  const chats = useChatSummary();
  useInstallableApp();
  return (
    <AdminShell unreadChats={chats?.unreadChats}>
      <Suspense fallback={<Spinner label="Loading" className="h-6 w-6 text-accent-soft" />}>
        <Routes>
          <Route index element={<OverviewPage />} />
          <Route path="orders" element={<OrdersPage />} />
          <Route path="orders/:id" element={<OrderPage />} />
          <Route path="orders/:id/care/:month" element={<CareReportPage side="agency" />} />
          <Route path="sites" element={<SitesPage />} />
          <Route path="leads" element={<LeadsPage />} />
          <Route
            path="coupons"
            element={
              <OwnerOnly section="coupons">
                <CouponsPage />
              </OwnerOnly>
            }
          />
          <Route path="addons" element={<AddonsPage />} />
          <Route path="support" element={<SupportPage />} />
          <Route path="support/:requestId" element={<SupportPage />} />
          <Route
            path="cashback"
            element={
              <OwnerOnly section="cashback">
                <CashbackPage />
              </OwnerOnly>
            }
          />
          <Route
            path="customers"
            element={
              <OwnerOnly section="customers">
                <CustomersPage />
              </OwnerOnly>
            }
          />
          <Route
            path="customers/:id"
            element={
              <OwnerOnly section="customers">
                <CustomerPage />
              </OwnerOnly>
            }
          />
          <Route
            path="audit"
            element={
              <OwnerOnly section="audit">
                <AuditPage />
              </OwnerOnly>
            }
          />
          <Route
            path="drafts"
            element={
              <OwnerOnly section="drafts">
                <DraftsPage />
              </OwnerOnly>
            }
          />
          <Route
            path="funnel"
            element={
              <OwnerOnly section="funnel">
                <FunnelPage />
              </OwnerOnly>
            }
          />
          <Route
            path="tax"
            element={
              <OwnerOnly section="tax">
                <TaxReturnPage />
              </OwnerOnly>
            }
          />
          <Route
            path="payouts"
            element={
              <OwnerOnly section="payouts">
                <PayoutsPage />
              </OwnerOnly>
            }
          />
          <Route
            path="staff"
            element={
              <OwnerOnly section="staff">
                <StaffPage />
              </OwnerOnly>
            }
          />
          <Route path="settings" element={<SettingsPage />} />
          <Route path="*" element={<Navigate to="/admin" replace />} />
        </Routes>
      </Suspense>
    </AdminShell>
  );
}
