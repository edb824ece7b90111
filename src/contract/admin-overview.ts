import { z } from 'zod';
import { maintenanceOverview } from './maintenance.ts';
import { defineOperation } from './operation.ts';

// The founder's morning numbers. Days are UTC dates (YYYY-MM-DD), oldest first,
// always the full window so a chart has one bar per day even when nothing happened.

export const OVERVIEW_DAYS = 30;

/** An order with a delivery due date (decision 147): 'YYYY-MM-DD' (UTC) and whole days left from today. */
const dueOrder = z.object({
  orderId: z.string(),
  customerEmail: z.string(),
  customerName: z.string().nullable(),
  dueDate: z.string(),
  daysLeft: z.number().int(),
});

export const overviewResponse = z.object({
  generatedAt: z.string(),
  days: z.array(z.string()),
  /**
   * Money kept per day (received less refunded, by the date it moved; live money only), one series per currency,
   * in minor units. Owner only (absent for staff: decision 232).
   */
  revenue: z.array(z.object({ currency: z.string(), perDay: z.array(z.number()), total: z.number() })).optional(),
  /**
   * Additive (docs/decisions/320-order-ledger.md): money moved in the window from the order accounts —
   * per currency, payments received, refunds made and the net (what `revenue` charts per day), and
   * all of it in INR (paise) at the documents' rates; test-mode money is left out and counted here. Owner only.
   */
  moneyMoved: z
    .object({
      perCurrency: z.array(
        z.object({
          currency: z.string(),
          received: z.number(),
          refunded: z.number(),
          net: z.number(),
          perDay: z.array(z.number()),
          changes: z.number(),
        }),
      ),
      inr: z.object({ received: z.number(), refunded: z.number(), net: z.number() }),
      testLeftOut: z.object({
        payments: z.number().int(),
        refunds: z.number().int(),
        perCurrency: z.array(z.object({ currency: z.string(), received: z.number(), refunded: z.number() })),
      }),
    })
    .optional(),
  /** Of `revenue`, what paid change requests brought in the window, per currency (decision 250); the rest is plan revenue. Owner only. */
  changeRevenue: z.array(z.object({ currency: z.string(), total: z.number() })).optional(),
  /** Change requests waiting: `requested` for the team's quote, `quoted` for the customer's decision, oldest first. */
  changesWaiting: z.array(
    z.object({ orderId: z.string(), changeId: z.string(), title: z.string(), state: z.enum(['requested', 'quoted']), since: z.string() }),
  ),
  /** Orders whose last completed stage is `stage` (1..15). */
  ordersByStage: z.array(z.object({ stage: z.number(), count: z.number() })),
  leadsPerDay: z.array(z.number()),
  contactsPerDay: z.array(z.number()),
  newLeads: z.number(),
  newContacts: z.number(),
  openChats: z.number(),
  unreadChats: z.number(),
  /**
   * Additive (docs/decisions/347-chat-availability-canned-replies-csat.md): the median seconds from a
   * visitor's first message to the agency's first reply, over the chats of the last 30 days that were answered.
   */
  chatFirstResponseMedianSeconds: z.number().nullable().optional(),
  /** Cashback earned by referrers but not yet paid out, per currency, in minor units. */
  cashbackOwed: z.array(z.object({ currency: z.string(), amountMinor: z.number() })).optional(),
  customers: z.number(),
  /**
   * Duplicate payments still to refund, oldest first. `refunding` (additive,
   * docs/decisions/332-change-quote-version.md): its refund was asked automatically and is under way
   * (a change paid at a quote that changed since its checkout opened).
   */
  refundsNeeded: z
    .array(
      z.object({
        orderId: z.string(),
        kind: z.enum(['advance', 'remaining', 'change']),
        providerPaymentId: z.string(),
        amount: z.number(),
        currency: z.string(),
        paidAt: z.string().nullable(),
        refunding: z.boolean().optional(),
      }),
    )
    .optional(),
  /**
   * Additive (docs/decisions/321-cancel-and-refund.md): refunds the provider refused or reported
   * failed, oldest first, each with a retry (POST /api/v1/admin/refunds/{id}/retry). Owner only.
   */
  refundsFailed: z
    .array(
      z.object({
        id: z.string(),
        orderId: z.string(),
        paymentId: z.string(),
        amount: z.number(),
        currency: z.string(),
        origin: z.enum(['cancel', 'duplicate', 'dashboard', 'manual']),
        failedAt: z.string(),
        failureReason: z.string().nullable(),
      }),
    )
    .optional(),
  /** The featured promotion behind the banner, popup and coupon placeholder; `hasEnded` warns the founder. */
  featuredOffer: z.object({ couponId: z.string(), code: z.string(), endsAt: z.string().nullable(), hasEnded: z.boolean() }).nullable(),
  /** Undelivered orders due within 7 days (soonest first) … */
  ordersDueSoon: z.array(dueOrder),
  /** … and past their due date (most overdue first). `daysLeft` is negative for these. */
  ordersOverdue: z.array(dueOrder),
  /** Maintenance plans that recur, and monthly recurring revenue per currency (minor units). */
  maintenance: maintenanceOverview,
  /** Support requests waiting longer than SUPPORT_FIRST_RESPONSE_HOURS for the team. */
  supportPastTarget: z.number().int(),
  /**
   * Additive: stored work that gave up after its last attempt — jobs (follow-up work of a change)
   * and mails — for the founder to look into (docs/architecture.md, "Events and jobs").
   */
  failedWork: z.object({ jobs: z.number().int(), mails: z.number().int() }),
  /**
   * Additive (docs/decisions/339-isolated-job-passes.md): rows of the scheduled passes (a reminder, a
   * notice group, a resolved request, ...) that failed after their last try, newest first (20 at
   * most), each with a retry (postAdminPassRowsRetry).
   */
  failedPassRows: z
    .array(
      z.object({
        id: z.string(),
        pass: z.string(),
        rowKey: z.string(),
        attempts: z.number().int(),
        lastError: z.string().nullable(),
        failedAt: z.string(),
      }),
    )
    .optional(),
  /** Additive (docs/decisions/326-site-incidents-and-mails.md): watched sites that are down now ("2 sites down"). */
  sitesDown: z.number().int(),
  /** Additive (decision 190): ADMIN_STEP_UP; 'off' means the back office asks for no passkey, and the overview warns. */
  stepUp: z.enum(['passkey', 'off']),
  /**
   * GST (docs/decisions/220-gst-tax-rules.md, additive): the financial year's turnover in paise
   * against GST_REGISTRATION_THRESHOLD (warn from 80 % while not registered), and whether exports
   * lack a valid LUT while registered. Money: zero for staff.
   */
  tax: z.object({
    regime: z.enum(['none', 'gst']),
    financialYear: z.string(),
    turnoverInr: z.number().int(),
    thresholdInr: z.number().int(),
    percent: z.number().int(),
    thresholdWarning: z.boolean(),
    lutMissing: z.boolean(),
    /** Additive: the financial year's TEST documents (test-mode payments), left out of the turnover and the returns. */
    testDocuments: z.number().int(),
  }),
});
export type OverviewResponse = z.infer<typeof overviewResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** Revenue per day (owner only), orders by stage, leads and contacts per day, chats, cashback owed (owner only) */
export const getAdminOverview = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/overview',
  responses: { 200: overviewResponse },
});

/** Try a failed row of a scheduled pass again on the next pass (docs/decisions/339-isolated-job-passes.md). */
export const postAdminPassRowsRetry = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/pass-rows/:id/retry',
  params: z.object({ id: z.string().uuid() }),
  responses: { 204: z.null() },
});
