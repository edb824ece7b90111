import { isBackOffice, isOwner } from '../../../domain/roles.ts';

/**
 * What each part of the back office is, and who may see it (decision 196). The
 * server's permission table (server/features/admin/permissions.ts, per route) is what protects the
 * data: every owner-only route answers staff with 403 FORBIDDEN. This mirror, per screen, only keeps
 * the screens honest — staff are not shown a menu entry, a button or a panel that would end in that
 * 403. tests/api/staff/back-office-sections.test.ts holds the two together.
 */
export type AdminSection =
  | 'overview'
  | 'orders'
  | 'support'
  | 'leads'
  | 'chat'
  | 'funnel'
  | 'coupons'
  | 'cashback'
  | 'customers'
  | 'drafts'
  | 'audit'
  | 'staff'
  /** The monthly tax return (GSTR-1 tables and CSV). */
  | 'tax'
  /** Razorpay's payouts, reconciled with the payments and refunds (decision 323). */
  | 'payouts'
  /** The add-ons catalogue (decision 250): staff read it to quote from, the owner edits it. */
  | 'addons'
  // Parts of pages that staff otherwise see.
  /** Refunds of duplicate payments: the order page's panel, the overview's alert. */
  | 'refunds'
  /** Tax invoices (the order's, the maintenance plan's charges). */
  | 'invoices'
  /** Pausing or resuming an order's payment reminders (staff see them, the owner decides). */
  | 'reminder-pause'
  /** Money received and owed on the overview. */
  | 'revenue'
  /** CSV downloads of people's data (leads, contact messages, the funnel). */
  | 'exports'
  /** Adding and editing add-ons. */
  | 'addons-edit'
  /** Every watched site (docs/decisions/328-site-care-permissions.md): staff watch what they deliver. */
  | 'sites'
  /** Keeping an order watched past its support and plan, and running the care reports by hand. */
  | 'site-care-owner';

// Staff work on orders, chats, leads and contact messages and support requests; money, customers'
// personal data as a whole, the record of who did what and the team itself stay with the owner.
const OWNER_ONLY: ReadonlySet<AdminSection> = new Set<AdminSection>([
  'funnel',
  'coupons',
  'cashback',
  'customers',
  'drafts',
  'audit',
  'staff',
  'tax',
  'payouts',
  'refunds',
  'invoices',
  'reminder-pause',
  'revenue',
  'exports',
  'addons-edit',
  'site-care-owner',
]);

/** Whether someone with `role` sees this section (staff: not the owner's). */
export function canSee(role: string | null | undefined, section: AdminSection): boolean {
  if (isOwner(role)) return true;
  return isBackOffice(role) && !OWNER_ONLY.has(section);
}

export interface AdminNavEntry {
  to: string;
  label: string;
  section: AdminSection;
  end?: boolean;
}

/** The back office's menu, in order; each page's route carries the same section. */
export const ADMIN_SECTIONS: readonly AdminNavEntry[] = [
  { to: '/admin', label: 'Overview', section: 'overview', end: true },
  { to: '/admin/orders', label: 'Orders', section: 'orders' },
  { to: '/admin/support', label: 'Support', section: 'support' },
  { to: '/admin/sites', label: 'Sites', section: 'sites' },
  { to: '/admin/leads', label: 'Leads', section: 'leads' },
  { to: '/admin/funnel', label: 'Funnel', section: 'funnel' },
  { to: '/admin/tax', label: 'Tax return', section: 'tax' },
  { to: '/admin/payouts', label: 'Payouts', section: 'payouts' },
  { to: '/admin/coupons', label: 'Coupons', section: 'coupons' },
  { to: '/admin/addons', label: 'Add-ons', section: 'addons' },
  { to: '/admin/cashback', label: 'Cashback', section: 'cashback' },
  { to: '/admin/customers', label: 'Customers', section: 'customers' },
  { to: '/admin/drafts', label: 'Open checkouts', section: 'drafts' },
  { to: '/admin/audit', label: 'Audit log', section: 'audit' },
  { to: '/admin/staff', label: 'Staff', section: 'staff' },
];

/** The menu as `role` sees it. */
export const adminNavFor = (role: string | null | undefined) => ADMIN_SECTIONS.filter((s) => canSee(role, s.section));
