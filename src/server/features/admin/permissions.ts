// Who may call each back-office route (decision 191): the ONE place where this is
// decided. 'staff' = staff and the owner; 'owner' = the owner (an ADMIN_EMAILS address, role
// 'admin') only. The guard (plugins/auth.ts requireAdmin) reads it for every request by the route's
// own spelling (request.routeOptions.url). A route missing here is treated as owner-only, and
// authorization.test.ts fails naming it, so a new route forces a decision.

export type Permission = 'staff' | 'owner';

export const ADMIN_PERMISSIONS: Readonly<Record<string, Permission>> = {
  // The morning numbers: staff see the queue they work on (orders due, support past target).
  'GET /api/v1/admin/overview': 'staff',
  // What waits for the agency across orders (docs/decisions/213-action-counts.md): the queue staff work on.
  'GET /api/v1/admin/actions': 'staff',
  // Customers' ratings and comments on the work and on support (docs/decisions/214-ratings.md).
  'GET /api/v1/admin/ratings': 'staff',

  // Orders: the work itself.
  'GET /api/v1/admin/orders': 'staff',
  'GET /api/v1/admin/orders/:id': 'staff',
  'POST /api/v1/admin/orders/:id/stages/next': 'staff',
  'POST /api/v1/admin/orders/:id/stages/undo': 'staff',
  'POST /api/v1/tracker/order/:id/complete-next-stage': 'staff',
  'POST /api/v1/tracker/order/:id/undo-last-stage': 'staff',
  'PUT /api/v1/admin/orders/:id/delivery-link': 'staff',
  'PUT /api/v1/admin/orders/:id/internal-note': 'staff',
  'GET /api/v1/admin/orders/:id/brief': 'staff',
  'GET /api/v1/admin/orders/:id/messages': 'staff',
  'POST /api/v1/admin/orders/:id/messages': 'staff',
  'GET /api/v1/admin/orders/:orderId/files': 'staff',
  'POST /api/v1/admin/orders/:orderId/files': 'staff',
  'GET /api/v1/admin/orders/:orderId/files/:fileId': 'staff',
  'DELETE /api/v1/admin/orders/:orderId/files/:fileId': 'staff',
  'GET /api/v1/admin/orders/:orderId/reviews': 'staff',
  'POST /api/v1/admin/orders/:orderId/reviews': 'staff',
  'POST /api/v1/admin/orders/:orderId/reviews/:reviewId/comments': 'staff',
  'POST /api/v1/admin/orders/:orderId/reviews/:reviewId/comments/:commentId/resolve': 'staff',
  'POST /api/v1/admin/orders/:orderId/reviews/:reviewId/site-link': 'staff',
  'GET /api/v1/admin/orders/:id/support': 'staff',
  // The order's statement of account (docs/decisions/320-order-ledger.md): staff answer customers' questions about it.
  'GET /api/v1/admin/orders/:orderId/statement': 'staff',
  'GET /api/v1/admin/orders/:orderId/statement.pdf': 'staff',
  // Change requests (decision 250): staff may raise and quote them; the catalogue is the owner's.
  'GET /api/v1/admin/orders/:orderId/changes': 'staff',
  'POST /api/v1/admin/orders/:orderId/changes': 'staff',
  'POST /api/v1/admin/orders/:orderId/changes/:changeId/quote': 'staff',
  'GET /api/v1/admin/addons': 'staff',
  'POST /api/v1/admin/addons': 'owner',
  'PATCH /api/v1/admin/addons/:id': 'owner',
  // Staff see whether a customer is being reminded to pay; pausing the reminders is a money decision.
  'GET /api/v1/admin/orders/:id/reminders': 'staff',
  'PUT /api/v1/admin/orders/:id/reminders/pause': 'owner',

  // Support requests.
  'GET /api/v1/admin/support': 'staff',
  'GET /api/v1/admin/support/:requestId': 'staff',
  'POST /api/v1/admin/support/:requestId/messages': 'staff',
  'POST /api/v1/admin/support/:requestId/state': 'staff',

  // Site care (docs/decisions/328-site-care-permissions.md): staff watch the sites they deliver;
  // keeping an order watched past its support and plan, and running the care reports, are the owner's.
  'GET /api/v1/admin/sites': 'staff',
  'GET /api/v1/admin/orders/:orderId/site-health': 'staff',
  'POST /api/v1/admin/orders/:orderId/sites': 'staff',
  'DELETE /api/v1/admin/orders/:orderId/sites/:siteId': 'staff',
  'PUT /api/v1/admin/orders/:orderId/site-care': 'owner',
  'GET /api/v1/admin/orders/:orderId/care-reports': 'staff',
  'GET /api/v1/admin/orders/:orderId/care-reports/:month': 'staff',
  'GET /api/v1/admin/orders/:orderId/care-reports/:month/pdf': 'staff',
  'POST /api/v1/admin/care-reports/run': 'owner',

  // Chat console, leads and contact messages (answering them is staff work).
  'GET /api/v1/admin/chats/summary': 'staff',
  // Whoever answers the chat says whether they are there; the canned replies are the owner's words,
  // staff use them (docs/decisions/347-chat-availability-canned-replies-csat.md).
  'GET /api/v1/admin/chat/availability': 'staff',
  'PUT /api/v1/admin/chat/availability': 'staff',
  'GET /api/v1/admin/canned-replies': 'staff',
  'POST /api/v1/admin/canned-replies': 'owner',
  'PATCH /api/v1/admin/canned-replies/:id': 'owner',
  'DELETE /api/v1/admin/canned-replies/:id': 'owner',
  'GET /api/v1/admin/leads': 'staff',
  'POST /api/v1/admin/leads/:id/handled': 'staff',
  'GET /api/v1/admin/contacts': 'staff',
  'POST /api/v1/admin/contacts/:id/handled': 'staff',
  // CSV files of personal data leave the app for good: the owner's decision, like customer exports.
  'GET /api/v1/admin/leads.csv': 'owner',
  'GET /api/v1/admin/contacts.csv': 'owner',

  // Money: coupons and the promotion, refunds, reconciliation, cashback payouts, invoices.
  'GET /api/v1/admin/coupons': 'owner',
  'POST /api/v1/admin/coupons': 'owner',
  'PATCH /api/v1/admin/coupons/:id': 'owner',
  'POST /api/v1/admin/coupons/:id/deactivate': 'owner',
  'PUT /api/v1/admin/promotion': 'owner',
  'POST /api/v1/admin/orders/:id/refunds': 'owner',
  // Cancelling an order and its refunds (docs/decisions/321-cancel-and-refund.md).
  'POST /api/v1/admin/orders/:id/cancel': 'owner',
  'GET /api/v1/admin/orders/:id/refunds': 'owner',
  'POST /api/v1/admin/refunds/:id/retry': 'owner',
  'POST /api/v1/payment/reconcile': 'owner',
  'GET /api/v1/admin/cashback': 'owner',
  'POST /api/v1/admin/cashback/:id/paid': 'owner',
  'GET /api/v1/admin/orders/:id/invoices': 'owner',
  'GET /api/v1/admin/invoices/:id/pdf': 'owner',
  // A plan charged without its GST moved to its price with GST at the next cycle (docs/decisions/322-maintenance-plan-gst.md).
  'POST /api/v1/admin/maintenance/subscriptions/:id/reprice': 'owner',

  // Customers' personal data as a whole, and sales analytics.
  'GET /api/v1/admin/customers': 'owner',
  'GET /api/v1/admin/customers/:id': 'owner',
  'POST /api/v1/admin/customers/:id/sessions/revoke': 'owner',
  // Abandoned checkouts are a list of people's e-mails who did not buy: sales follow-up, the owner's.
  'GET /api/v1/admin/checkout-drafts': 'owner',
  'GET /api/v1/admin/funnel': 'owner',
  'GET /api/v1/admin/funnel.csv': 'owner',

  // Oversight of the back office itself.
  'GET /api/v1/admin/audit': 'owner',
  'GET /api/v1/admin/staff': 'owner',
  'POST /api/v1/admin/staff': 'owner',
  'DELETE /api/v1/admin/staff/:id': 'owner',

  // The monthly return (docs/decisions/245-gstr1-monthly-return.md): money, the owner's.
  'GET /api/v1/admin/tax/returns/:period': 'owner',
  'GET /api/v1/admin/tax/returns/:period/:file': 'owner',

  // Razorpay's payouts, reconciled (docs/decisions/323-razorpay-settlements.md): money, the owner's.
  'GET /api/v1/admin/payouts': 'owner',
  'GET /api/v1/admin/payouts/:month.csv': 'owner',
  'POST /api/v1/admin/payouts/sync': 'owner',

  // A scheduled pass's row that gave up, tried again (docs/decisions/339-isolated-job-passes.md).
  'POST /api/v1/admin/pass-rows/:id/retry': 'owner',
};

/**
 * What a route needs, by its registered spelling. HEAD is answered by the GET route (Fastify's
 * exposeHeadRoutes), so it needs what the GET needs. Unknown routes need the owner (safe default).
 */
export function permissionOf(method: string, url: string | undefined): Permission {
  const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const key = `${m} ${url ?? ''}`;
  return Object.hasOwn(ADMIN_PERMISSIONS, key) ? ADMIN_PERMISSIONS[key]! : 'owner';
}

/**
 * What staff see of money (docs/decisions/232-what-staff-see-of-money.md), field by field: the
 * fields of a staff route's answer that are the owner's. The server strips them from staff's
 * answers (stripOwnerOnlyFields, run on every admin answer before it is serialised); the web shows
 * what it gets. A path is dot-separated; `[]` walks every element of an array. Staff keep what
 * their work needs: whether each installment is paid (and when), the plan's state and period.
 */
export const OWNER_ONLY_FIELDS: Readonly<Record<string, readonly string[]>> = {
  'GET /api/v1/admin/overview': [
    'revenue',
    'changeRevenue',
    'moneyMoved',
    'cashbackOwed',
    'refundsNeeded',
    'refundsFailed',
    'maintenance.mrr',
    'maintenance.withoutGst',
    'failedPassRows',
  ],
  'GET /api/v1/admin/orders/:id/support': ['planOffer'],
  'GET /api/v1/admin/orders': [
    'items[].currency',
    'items[].total',
    'items[].balanceDue',
    'items[].advance.amount',
    'items[].remaining.amount',
  ],
  'GET /api/v1/admin/orders/:id': [
    'order.currency',
    'order.total',
    'order.balanceDue',
    'order.advance.amount',
    'order.remaining.amount',
    'order.listPrice',
    'order.price',
    'order.discountPercent',
    'order.discount',
    'order.fee',
    'order.couponCode',
    'order.lines',
    'installments[].amount',
    'installments[].currency',
    // Payment ids (Razorpay's payment, order and subscription ids) are the owner's: they serve refunds
    // and the provider's dashboard, neither of which is staff work (PAYMENT_ID_KEYS below).
    'installments[].providerPaymentId',
    'installments[].attempts',
    'maintenance.provider',
    'maintenance.subscriptionId',
    'maintenance.amount',
    'maintenance.currency',
    'maintenance.pending',
    'maintenance.charges',
  ],
};

/**
 * Staff see no payment ids (docs/decisions/276-staff-onboarding-and-payment-ids.md): whether an
 * installment is paid and when is their work; the provider's payment, order and subscription ids
 * only serve refunds, reconciling and the provider's dashboard, which are the owner's. No staff answer
 * carries a key of these names (the fields above strip them; authorization.test.ts walks every staff
 * route for them and for any value shaped like a Razorpay id).
 */
export const PAYMENT_ID_KEYS: readonly string[] = [
  'providerPaymentId',
  'providerOrderId',
  'providerSubscriptionId',
  'subscriptionId',
  'paymentId',
  'razorpay_payment_id',
  'razorpay_order_id',
];

/** The owner-only fields of a route's answer, by the route's registered spelling. */
export function ownerOnlyFieldsOf(method: string, url: string | undefined): readonly string[] {
  const m = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  return OWNER_ONLY_FIELDS[`${m} ${url ?? ''}`] ?? [];
}

function strip(value: unknown, path: readonly string[]): void {
  if (value === null || typeof value !== 'object' || path.length === 0) return;
  const [head, ...rest] = path as [string, ...string[]];
  const many = head.endsWith('[]');
  const key = many ? head.slice(0, -2) : head;
  const record = value as Record<string, unknown>;
  if (!Object.hasOwn(record, key)) return;
  if (rest.length === 0 && !many) {
    delete record[key];
    return;
  }
  const next = record[key];
  if (many && Array.isArray(next)) for (const item of next) strip(item, rest);
  else if (!many) strip(next, rest);
}

/** A copy of `body` without the owner-only fields of the route (the original is left as it was). */
export function stripOwnerOnlyFields<T>(method: string, url: string | undefined, body: T): T {
  const fields = ownerOnlyFieldsOf(method, url);
  if (!fields.length || body === null || typeof body !== 'object') return body;
  const copy = structuredClone(body);
  for (const field of fields) strip(copy, field.split('.'));
  return copy;
}
