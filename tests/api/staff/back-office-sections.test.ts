import { describe, expect, it } from 'vitest';
import { permissionOf } from '../../../src/server/features/admin/permissions.ts';
import { ADMIN_SECTIONS, adminNavFor, canSee, type AdminSection } from '../../../src/web/components/back-office/sections.ts';

// The screens follow the server's permission table: for each section, the route its screen calls
// first. If the table moves a route between staff and owner, this fails until the screen follows.
const ROUTE_OF: Record<Exclude<AdminSection, 'revenue'>, string> = {
  overview: 'GET /api/v1/admin/overview',
  orders: 'GET /api/v1/admin/orders/:id',
  support: 'GET /api/v1/admin/support',
  leads: 'GET /api/v1/admin/leads',
  chat: 'GET /api/v1/admin/chats/summary',
  funnel: 'GET /api/v1/admin/funnel',
  tax: 'GET /api/v1/admin/tax/returns/:period',
  payouts: 'GET /api/v1/admin/payouts',
  coupons: 'GET /api/v1/admin/coupons',
  cashback: 'GET /api/v1/admin/cashback',
  customers: 'GET /api/v1/admin/customers/:id',
  drafts: 'GET /api/v1/admin/checkout-drafts',
  audit: 'GET /api/v1/admin/audit',
  staff: 'GET /api/v1/admin/staff',
  refunds: 'POST /api/v1/admin/orders/:id/refunds',
  invoices: 'GET /api/v1/admin/invoices/:id/pdf',
  'reminder-pause': 'PUT /api/v1/admin/orders/:id/reminders/pause',
  exports: 'GET /api/v1/admin/leads.csv',
  addons: 'GET /api/v1/admin/addons',
  'addons-edit': 'POST /api/v1/admin/addons',
  sites: 'GET /api/v1/admin/sites',
  'site-care-owner': 'POST /api/v1/admin/care-reports/run',
};

describe('back-office sections by role', () => {
  it.each(Object.entries(ROUTE_OF))('%s: staff see it exactly when the server lets staff call %s', (section, route) => {
    const [method, url] = route.split(' ');
    expect(canSee('staff', section as AdminSection)).toBe(permissionOf(method!, url) === 'staff');
    expect(canSee('admin', section as AdminSection)).toBe(true);
  });

  it('keeps the money totals of the overview for the owner (the overview itself is staff work)', () => {
    expect(canSee('staff', 'revenue')).toBe(false);
    expect(canSee('admin', 'revenue')).toBe(true);
  });

  it('shows a customer, a visitor or an unknown role nothing', () => {
    for (const role of ['customer', null, undefined, 'root', '']) {
      expect(ADMIN_SECTIONS.filter((s) => canSee(role, s.section))).toEqual([]);
    }
  });

  it('gives staff the menu of their work and the owner all of it', () => {
    expect(adminNavFor('staff').map((s) => s.label)).toEqual(['Overview', 'Orders', 'Support', 'Sites', 'Leads', 'Add-ons']);
    expect(adminNavFor('admin').map((s) => s.to)).toContain('/admin/staff');
    expect(adminNavFor('admin')).toHaveLength(ADMIN_SECTIONS.length);
  });
});
