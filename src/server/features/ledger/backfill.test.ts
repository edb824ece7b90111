import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildApp, type BuiltApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { type Database, openDatabase } from '../../db/client.ts';
import { restoreDatabase } from '../../db/backup.ts';
import { invoices } from '../../db/schema/invoices.ts';
import { orders } from '../../db/schema/orders.ts';
import { users } from '../../db/schema/platform.ts';
import { createThrowAwayDatabase, loginAs } from '../../../../tests/helpers/test-app.ts';
import { openEmptyPglite } from '../../../../tests/helpers/pglite-copies.ts';
import type { StatementResponse } from '../../../contract/statement.ts';
import { ISSUING_KINDS } from '../invoices/issue-invoice.ts';
import { backfillLedger } from './backfill.ts';

// The migration test of the order account (docs/decisions/320-order-ledger.md): a backup of a
// database the app wrote BEFORE the ledger existed (commit f8f07f0, made by
// tests/fixtures/make-pre-ledger-backup.ts) is restored — which applies migration 1020 — and the app
// started on it, so backfill.ts writes every placed order's account. Each order's statement must then
// say what its documents say: what it costs, what was paid and refunded, and what is still owed.

const FIXTURE = fileURLToPath(new URL('../../../../tests/fixtures/pre-ledger-backup.jsonl.gz', import.meta.url));
// As the fixture was made: GST registered in Karnataka, Razorpay with a live key (the fake's).
const ENV = {
  NODE_ENV: 'test',
  LOG_LEVEL: 'silent',
  PUBLIC_URL: 'http://localhost:3000',
  ADMIN_STEP_UP: 'off',
  ADMIN_EMAILS: 'owner@example.com',
  TAX_REGIME: 'gst',
  SELLER_GSTIN: '29AAGCB7383J1Z4',
  GST_LUT_ARN: 'AD290326000123X',
  GST_LUT_VALID_UNTIL: '2099-03-31',
};

/** The documents each order of the fixture holds (in name order): the fixture's scenarios. */
const SCENARIOS: Record<string, { state: string; documents: string[] }> = {
  'advance-only@example.com': { state: 'in_progress', documents: ['receipt_voucher'] },
  'fully-paid@example.com': { state: 'paid', documents: ['receipt_voucher', 'tax_invoice'] },
  'with-change@example.com': { state: 'paid', documents: ['receipt_voucher', 'tax_invoice', 'tax_invoice:change'] },
  'with-maintenance@example.com': { state: 'delivered', documents: ['receipt_voucher', 'tax_invoice', 'tax_invoice:maintenance'] },
  'duplicate-refunded@example.com': { state: 'paid', documents: ['receipt_voucher', 'tax_invoice'] },
  'duplicate-unrefunded@example.com': { state: 'paid', documents: ['receipt_voucher', 'tax_invoice'] },
  'advance-refunded@example.com': { state: 'in_progress', documents: ['receipt_voucher', 'refund_voucher'] },
  'credit-note@example.com': { state: 'paid', documents: ['credit_note', 'receipt_voucher', 'tax_invoice'] },
  'coupon@example.com': { state: 'paid', documents: ['receipt_voucher', 'tax_invoice'] },
  'export-usd@example.com': { state: 'paid', documents: ['receipt_voucher', 'tax_invoice'] },
};

type Login = Awaited<ReturnType<typeof loginAs>>;
let database: Database;
let drop: () => Promise<void> = async () => {};
let t: BuiltApp;
let owner: Login;
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const start = () => buildApp(loadConfig(ENV, { dataDir: 'memory', webDistDir: '/nonexistent' }), { database, pollMail: false });
const lineCount = async (orderId?: string) =>
  Number(
    (
      await database.query<{ n: number }>(
        `select count(*)::int as n from order_ledger${orderId ? ' where order_id = $1' : ''}`,
        orderId ? [orderId] : [],
      )
    )[0]!.n,
  );

beforeAll(async () => {
  if (process.env.TEST_DB === 'postgres') {
    const empty = await createThrowAwayDatabase();
    database = await openDatabase({ databaseUrl: empty.url, dataDir: 'memory' });
    drop = empty.drop;
  } else {
    database = await openEmptyPglite();
  }
  const restored = await restoreDatabase(database, FIXTURE);
  // A database from before the ledger: migration 1020 came with the restore, no line was there.
  expect(restored.migrations.some((m) => m.startsWith('1020_'))).toBe(false);
  expect(await database.query(`select name from schema_migrations where name like '1020\\_%'`)).toHaveLength(1);
  expect(await lineCount()).toBe(0);
  t = await start();
  owner = await loginAs(t, 'owner@example.com', 'admin');
}, 300_000);
afterAll(async () => {
  await t?.app.close();
  await database?.close();
  await drop();
});

const get = async (url: string, who: Login) => {
  const r = await t.app.inject({ method: 'GET', url: `/api/v1/${url}`, headers: who.headers });
  expect(r.statusCode, `${url}: ${r.body}`).toBe(200);
  return r.json();
};

/** What an order's documents (and its undocumented duplicate payments) say of its money. */
async function documentsOf(orderId: string) {
  const docs = await t.deps.db.select().from(invoices).where(eq(invoices.orderId, orderId)).orderBy(invoices.issuedAt, invoices.sequence);
  const duplicates = await database.query<{ amount: number; refunded: boolean }>(
    `select p.amount::float8 as amount, p.refund_state = 'refunded' as refunded
       from payment_attempts p join installments i on i.id = p.installment_id
      where i.order_id = $1 and p.state = 'duplicate'`,
    [orderId],
  );
  const issuing = docs.filter((d) => (ISSUING_KINDS as readonly string[]).includes(d.docKind));
  const supplies = issuing.filter((d) => d.snapshot.installment.kind === 'change' || d.snapshot.installment.kind === 'maintenance');
  const orderDocs = issuing.filter((d) => d.snapshot.installment.kind === 'advance' || d.snapshot.installment.kind === 'remaining');
  const returns = docs.filter((d) => d.docKind === 'refund_voucher' || d.docKind === 'credit_note');
  // A change's or a month's value as its invoice prints it: taxable value + taxes.
  const value = (d: (typeof docs)[number]) => d.snapshot.document!.taxableValue + sum(d.snapshot.document!.taxes.map((x) => x.amount));
  return {
    docs,
    issuing,
    orderDocs,
    returns,
    kinds: docs.map((d) => (supplies.includes(d) ? `${d.docKind}:${d.snapshot.installment.kind}` : d.docKind)).sort(),
    /** The order's total as every one of its documents prints it. */
    totals: [...new Set(orderDocs.map((d) => d.snapshot.total))],
    supplied: sum(supplies.map(value)),
    paidOnDocuments: sum(issuing.map((d) => d.amount)),
    returned: sum(returns.map((d) => d.amount)),
    duplicates,
    /** What the order's last document (its invoice, else its receipt voucher) leaves owed. */
    remainingAfter: (orderDocs.find((x) => x.snapshot.installment.kind === 'remaining') ?? orderDocs[0]!).snapshot.remainingAfter,
  };
}

describe('the order account of a database from before the ledger', { timeout: 120_000 }, () => {
  it('holds the fixture: every scenario, and one checkout never paid', async () => {
    const rows = await database.query<{ email: string; state: string }>(
      'select u.email, o.state from orders o join users u on u.id = o.user_id order by u.email',
    );
    expect(rows.filter((r) => r.state !== 'awaiting_advance').map((r) => r.email)).toEqual(Object.keys(SCENARIOS).sort());
    expect(rows.filter((r) => r.state === 'awaiting_advance')).toEqual([{ email: 'draft@example.com', state: 'awaiting_advance' }]);
  });

  it("writes every placed order's account as its documents say: charged, paid, refunded, credited and the balance", async () => {
    const placed = await t.deps.db
      .select({
        id: orders.id,
        publicId: orders.publicId,
        state: orders.state,
        currency: orders.currency,
        discount: orders.discount,
        email: users.email,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.userId));
    // Soft: every order's disagreement is reported, not only the first one's.
    const checked: string[] = [];
    for (const order of placed.filter((o) => o.state !== 'awaiting_advance')) {
      const scenario = SCENARIOS[order.email]!;
      const d = await documentsOf(order.id);
      expect.soft({ state: order.state, documents: d.kinds }, order.email).toEqual(scenario);
      expect.soft(d.totals, `${order.email}: one order total on all its documents`).toHaveLength(1);

      const statement = (await get(`admin/orders/${order.publicId}/statement`, owner)) as StatementResponse;
      const customer = await loginAs(t, order.email);
      expect.soft(await get(`orders/${order.publicId}/statement`, customer), order.email).toEqual(statement);
      const s = statement.totals;
      const { tax, ...moved } = s;
      const refundedDuplicates = sum(d.duplicates.filter((x) => x.refunded).map((x) => x.amount));
      const unrefundedDuplicates = sum(d.duplicates.filter((x) => !x.refunded).map((x) => x.amount));
      const expected = {
        charged: d.totals[0]! + d.supplied,
        paid: d.paidOnDocuments + sum(d.duplicates.map((x) => x.amount)),
        refunded: d.returned + refundedDuplicates,
        credited: d.returned,
        // A returned payment's document credits what it returns, so only an unrefunded duplicate moves what is owed.
        balanceDue: d.remainingAfter - unrefundedDuplicates,
      };
      expect.soft(moved, order.email).toEqual(expected);
      expect.soft(s.balanceDue, order.email).toBe(s.charged - s.paid + s.refunded - s.credited);
      if (order.state === 'paid' || order.state === 'delivered') expect.soft(d.remainingAfter, order.email).toBe(0);

      // Each payment and each return stands beside its document.
      for (const doc of d.issuing)
        expect
          .soft(statement.lines, `${order.email} ${doc.number}`)
          .toContainEqual(expect.objectContaining({ kind: 'payment', documentNumber: doc.number, amount: -doc.amount }));
      for (const doc of d.returns) {
        expect
          .soft(statement.lines)
          .toContainEqual(expect.objectContaining({ kind: 'refund', documentNumber: doc.number, amount: doc.amount }));
        expect
          .soft(statement.lines)
          .toContainEqual(expect.objectContaining({ kind: 'credit_note', documentNumber: doc.number, amount: -doc.amount }));
      }
      // The code's discount as the documents print it.
      const printed = d.orderDocs[0]!.snapshot;
      expect.soft(printed.discount).toBe(Number(order.discount));
      if (printed.discount > 0)
        expect.soft(statement.lines).toContainEqual(expect.objectContaining({ kind: 'discount', amount: -printed.discount }));
      // Once the whole supply is invoiced, the tax is its invoice's plus each change's and month's.
      const invoice = d.orderDocs.find((x) => x.snapshot.installment.kind === 'remaining');
      if (invoice) {
        const supplyTax = sum(
          [invoice, ...d.issuing.filter((x) => !d.orderDocs.includes(x))].flatMap((x) => x.snapshot.document!.taxes.map((tx) => tx.amount)),
        );
        expect.soft(tax, order.email).toBe(supplyTax);
      }
      expect.soft(statement.currency).toBe(order.currency);

      // My Orders and the status page read the same account.
      const mine = (await get('order/getAllOrders/user', customer)).orders as { order_id: string; total: number; balanceDue: number }[];
      expect
        .soft(
          mine.find((o) => o.order_id === order.publicId),
          order.email,
        )
        .toMatchObject({ total: s.charged, balanceDue: s.balanceDue });
      expect
        .soft(await get(`status/getStatus/order/${order.publicId}`, customer), order.email)
        .toMatchObject({ total: s.charged, balanceDue: s.balanceDue });
      checked.push(order.email);
    }
    expect(checked.sort()).toEqual(Object.keys(SCENARIOS).sort());
  });

  it('leaves the checkout never paid without a line, and its statement unknown', async () => {
    const [draft] = await t.deps.db
      .select({ id: orders.id, publicId: orders.publicId })
      .from(orders)
      .where(eq(orders.state, 'awaiting_advance'));
    expect(await lineCount(draft!.id)).toBe(0);
    const r = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${draft!.publicId}/statement`, headers: owner.headers });
    expect(r.statusCode).toBe(404);
  });

  it('writes nothing more when the app starts again on the same database', async () => {
    const before = await lineCount();
    expect(before).toBeGreaterThan(0);
    await t.app.close();
    t = await start();
    expect(await lineCount()).toBe(before);
    expect(await backfillLedger(t.deps)).toBe(0);
    expect(await lineCount()).toBe(before);
  });
});
