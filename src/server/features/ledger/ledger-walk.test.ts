import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { startFakeRazorpay, type FakeRazorpay } from '../../../../tests/fakes/razorpay.ts';
import { gstinCheckCharacter } from '../../../domain/gst.ts';
import { completeNextStage } from '../tracker/complete-next-stage.ts';
import { getOverview } from '../admin/overview.ts';

// The order account under random use (docs/decisions/320-order-ledger.md): a seeded random walk of
// orders with codes and referrals, advances and remaining payments, changes and add-ons, duplicate
// payments and their refunds, cancels with refunds and refunds made in Razorpay's dashboard, in both
// tax regimes, against the Razorpay fake with a live key. After every step the test's own model of
// the money (what it quoted and paid) must equal the statement, every screen's total the
// statement's, the overview's net revenue the payments less the refunds, and (GST) the month's
// GSTR-1 tables the ledger's invoiced supplies.

type Who = Awaited<ReturnType<typeof loginAs>>;
interface Model {
  orderId: string;
  who: Who;
  currency: string;
  charged: number;
  paid: number;
  refunded: number;
  remainingPaid: boolean;
  cancelled: boolean;
  /** The maintenance plan's Razorpay subscription, once subscribed. */
  subscriptionId?: string;
  /** Duplicate payments not refunded yet (provider payment ids). */
  duplicates: { paymentId: string; amount: number }[];
}

const SELLER_GSTIN = '29AAGCB7383J1Z4';
const KA_GSTIN = (() => {
  const first14 = '29AAPFU0939F1Z';
  return first14 + gstinCheckCharacter(first14);
})();

/** A small deterministic generator (a walk that fails can be replayed from its seed). */
function random(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (Math.imul(s, 1_664_525) + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
  return { next, pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!, chance: (p: number) => next() < p };
}

function walk(regime: 'none' | 'gst', seed: number, steps: number) {
  describe(`the order account under a random walk (TAX_REGIME=${regime}, seed ${seed})`, { timeout: 600_000 }, () => {
    let t: TestApp;
    let rzp: FakeRazorpay;
    let owner: Who;
    const models: Model[] = [];
    let liveReceived = 0;
    let liveRefunded = 0;
    let netBefore = 0;

    beforeAll(async () => {
      // A live key: documents in the tax series, money that counts (a test key's is left out of the revenue).
      rzp = await startFakeRazorpay({ keyId: 'rzp_live_fakekey' });
      t = await buildTestApp({
        ...rzp.env(),
        RAZORPAY_TIMEOUT_MS: '30000',
        LOG_LEVEL: process.env.WALK_LOG ?? 'silent',
        ...(regime === 'gst'
          ? { TAX_REGIME: 'gst', SELLER_GSTIN, SELLER_LEGAL_NAME: 'Example Web Studio Pvt Ltd', SELLER_ADDRESS: '12 Test Road, Bengaluru' }
          : {}),
      });
      owner = await loginAs(t, `walk-owner-${regime}@example.com`, 'admin');
      await t.deps.database.query(
        `insert into coupons (code, kind, percent, active) values ('WALK10', 'promo', 10, true) on conflict do nothing`,
      );
      netBefore = netInr(await getOverview(t.deps.database));
    });
    afterAll(async () => {
      await t?.close();
      await rzp?.close();
    });

    const inject = (method: 'GET' | 'POST' | 'PUT', url: string, who: Who | null, payload?: object) =>
      t.app.inject({ method, url: `/api/v1/${url}`, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
    const ok = async (method: 'GET' | 'POST' | 'PUT', url: string, who: Who | null, payload?: object) => {
      const r = await inject(method, url, who, payload);
      expect(r.statusCode, `${method} ${url}: ${r.body}`).toBeLessThan(300);
      return r.json();
    };
    const verify = (who: Who, fields: object) => ok('POST', 'payment/verify-payment', who, fields);
    function netInr(o: Awaited<ReturnType<typeof getOverview>>) {
      return o.moneyMoved!.inr.net;
    }

    const ops = {
      async newOrder(rnd: ReturnType<typeof random>, step: number) {
        const who = await loginAs(t, `walk-${regime}-${seed}-${step}@example.com`);
        if (regime === 'gst') {
          const place = rnd.pick([
            { country: 'IN', stateCode: '29', gstin: KA_GSTIN, billingName: 'Karnataka Traders LLP' },
            { country: 'IN', stateCode: '27' },
            { country: 'US', billingName: 'Acme Inc.' },
          ]);
          await ok('PUT', 'invoices/billing-details', who, place);
        }
        const currency = regime === 'gst' ? 'INR' : rnd.pick(['INR', 'USD']);
        const referrer = models.length > 0 && rnd.chance(0.3) ? rnd.pick(models).who : null;
        const couponCode = referrer ? (await ok('GET', 'referral/summary', referrer)).code : rnd.chance(0.3) ? 'WALK10' : undefined;
        const body = { kind: 'advance', acceptTerms: true, currency, ...(couponCode ? { couponCode } : {}) };
        const quote = (await ok('POST', 'pricing/quote', who, { currency, ...(couponCode ? { couponCode } : {}) })).quote;
        const checkout = await ok('POST', 'payment/create-order', who, body);
        const { orderId } = await verify(who, rzp.pay(checkout.id));
        liveReceived += checkout.amount;
        models.push({
          orderId,
          who,
          currency,
          charged: quote.total,
          paid: checkout.amount,
          refunded: 0,
          remainingPaid: false,
          cancelled: false,
          duplicates: [],
        });
        return models.at(-1)!;
      },
      async payRemaining(m: Model, rnd: ReturnType<typeof random>) {
        const status = await ok('GET', `status/getStatus/order/${m.orderId}`, m.who);
        for (let i = status.completed_steps + 1; i < 13; i++) await completeNextStage(t.deps, m.orderId, {});
        const twice = rnd.chance(0.3);
        const tabs = await Promise.all(
          (twice ? [1, 2] : [1]).map(() => ok('POST', 'payment/create-order', m.who, { kind: 'remaining', orderId: m.orderId })),
        );
        for (const tab of tabs) {
          const fields = rzp.pay(tab.id);
          const r = await verify(m.who, fields);
          m.paid += tab.amount;
          liveReceived += tab.amount;
          if (r.duplicate) m.duplicates.push({ paymentId: fields.razorpay_payment_id, amount: tab.amount });
        }
        m.remainingPaid = true;
      },
      async change(m: Model, rnd: ReturnType<typeof random>) {
        let changeId: string;
        if (rnd.chance(0.5)) {
          const addons = (await ok('GET', `addons?currency=${m.currency}`, null)).addons;
          changeId = (
            await ok('POST', `orders/${m.orderId}/changes`, m.who, { title: 'Add-on', addonId: rnd.pick(addons as { id: string }[]).id })
          ).change.id;
        } else {
          changeId = (await ok('POST', `orders/${m.orderId}/changes`, m.who, { title: 'A change', description: 'More pages.' })).change.id;
          const amount = (1 + Math.floor(rnd.next() * 90)) * 10_000;
          await ok('POST', `admin/orders/${m.orderId}/changes/${changeId}/quote`, owner, { amount, extraDays: 2 });
        }
        const checkout = await ok('POST', 'payment/create-order', m.who, {
          kind: 'change',
          orderId: m.orderId,
          changeId,
          acceptTerms: true,
        });
        await verify(m.who, rzp.pay(checkout.id));
        m.charged += checkout.amount;
        m.paid += checkout.amount;
        liveReceived += checkout.amount;
      },
      // A month of the maintenance plan (its GST from the plan's one quote, decision 322): the order is
      // delivered, its included year moved into the past (the plan then starts at once), subscribed,
      // and charged by Razorpay's signed subscription.charged webhook.
      async planMonth(m: Model) {
        if (!m.subscriptionId) {
          await completeNextStage(t.deps, m.orderId, { deliveryUrl: 'https://example.com/site' });
          await t.deps.database.query(
            `update order_stages set completed_at = completed_at - interval '400 days' where order_id = (select id from orders where public_id = $1)`,
            [m.orderId],
          );
          m.subscriptionId = (await ok('POST', `orders/${m.orderId}/maintenance/subscribe`, m.who, { acceptTerms: true })).subscriptionId;
        }
        const { payment } = rzp.chargeSubscription(m.subscriptionId!);
        const hook = rzp.subscriptionWebhook('subscription.charged', m.subscriptionId!, { payment });
        const r = await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: hook.headers, payload: hook.body });
        expect(r.json(), r.body).toEqual({ status: 'processed' });
        m.charged += payment.amount;
        m.paid += payment.amount;
        liveReceived += payment.amount;
      },
      // The owner cancels with a refund of their choosing; Razorpay answers pending, then the signed
      // refund.processed webhook settles each part.
      async cancel(m: Model, rnd: ReturnType<typeof random>) {
        const refundable = m.paid - m.refunded;
        const refundAmount = rnd.pick([0, refundable, Math.floor(refundable / 3)]);
        const r = await t.app.inject({
          method: 'POST',
          url: `/api/v1/admin/orders/${m.orderId}/cancel`,
          headers: { ...owner.headers, 'idempotency-key': `walk-${m.orderId}` },
          payload: { reason: 'The customer changed plans', refundAmount },
        });
        expect(r.statusCode, r.body).toBe(200);
        for (const refund of r.json().refunds as { id: string; status: string }[]) {
          const providerId = rzp.refunds.find((x) => x.notes && (x.notes as Record<string, string>).refundId === refund.id)?.id;
          if (refund.status === 'pending' && providerId) {
            const hook = rzp.processRefund(providerId);
            const done = await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: hook.headers, payload: hook.body });
            expect(done.statusCode, `refund.processed: ${done.body}`).toBe(200);
          }
        }
        m.cancelled = true;
        m.refunded += refundAmount;
        liveRefunded += refundAmount;
      },
      // A refund made in Razorpay's dashboard reaches the app only by its webhook.
      async dashboardRefund(m: Model) {
        const [pay] = await t.deps.database.query<{ id: string; amount: number }>(
          `select provider_payment_id as id, amount::float8 as amount from installments
            where order_id = (select id from orders where public_id = $1) and state = 'paid' and kind = 'advance'`,
          [m.orderId],
        );
        const amount = Math.floor(pay!.amount / 4);
        const refund = rzp.dashboardRefund(pay!.id, amount);
        const hook = rzp.processRefund(refund.id);
        const done = await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: hook.headers, payload: hook.body });
        expect(done.statusCode, `refund.processed: ${done.body}`).toBe(200);
        m.refunded += amount;
        liveRefunded += amount;
      },
      async refundDuplicate(m: Model) {
        const d = m.duplicates.shift()!;
        await ok('POST', `admin/orders/${m.orderId}/refunds`, owner, { providerPaymentId: d.paymentId });
        // Razorpay answers pending; its signed refund.processed webhook records the money moved.
        const refund = rzp.refunds.find((x) => x.payment_id === d.paymentId)!;
        const hook = rzp.processRefund(refund.id);
        const done = await t.app.inject({ method: 'POST', url: '/api/v1/payment/webhook', headers: hook.headers, payload: hook.body });
        expect(done.statusCode, `refund.processed: ${done.body}`).toBe(200);
        m.refunded += d.amount;
        liveRefunded += d.amount;
      },
    };

    async function check(m: Model, label: string) {
      const s = await ok('GET', `orders/${m.orderId}/statement`, m.who);
      const sum = (s.lines as { amount: number }[]).reduce((a, l) => a + l.amount, 0);
      expect({ charged: s.totals.charged, paid: s.totals.paid, refunded: s.totals.refunded }, `${label}: the model`).toEqual({
        charged: m.charged,
        paid: m.paid,
        refunded: m.refunded,
      });
      expect(s.totals.balanceDue, `${label}: balance`).toBe(s.totals.charged - s.totals.paid + s.totals.refunded - s.totals.credited);
      expect(sum, `${label}: the lines add up to the balance`).toBe(s.totals.balanceDue);
      const screens = {
        myOrders: (await ok('GET', 'order/getAllOrders/user', m.who)).orders.find((o: { order_id: string }) => o.order_id === m.orderId),
        status: await ok('GET', `status/getStatus/order/${m.orderId}`, m.who),
        adminOrder: (await ok('GET', `admin/orders/${m.orderId}`, owner)).order,
        adminList: (await ok('GET', `admin/orders?q=${m.orderId}`, owner)).items[0],
      };
      for (const [name, screen] of Object.entries(screens)) {
        expect({ total: screen.total, balanceDue: screen.balanceDue }, `${label}: ${name}`).toEqual({
          total: s.totals.charged,
          balanceDue: s.totals.balanceDue,
        });
      }
      expect(await ok('GET', `admin/orders/${m.orderId}/statement`, owner), `${label}: both sides' statements`).toEqual(s);
    }

    async function checkWhole(label: string) {
      // The overview's net revenue (INR, live money) moved by the payments less the refunds of the walk.
      const overview = await getOverview(t.deps.database);
      const inrOf = async () =>
        (
          await t.deps.database.query<{ paise: number }>(
            `select coalesce(sum(coalesce(inr_amount, amount)), 0)::float8 as paise
             from order_ledger where not test_mode and kind in ('payment', 'refund')`,
          )
        )[0]!.paise;
      expect(netInr(overview) - netBefore, `${label}: the overview's net revenue`).toBe(0 - (await inrOf()) + 0);
      const inr = models.filter((m) => m.currency === 'INR');
      if (inr.length === models.length)
        expect(netInr(overview) - netBefore, `${label}: net = payments − refunds`).toBe(liveReceived - liveRefunded);
      if (regime !== 'gst') return;
      // GSTR-1: the month's SAC summary (supplies invoiced less credit notes) equals the ledger's
      // invoiced supplies (the order once its tax invoice is issued, each change and plan month)
      // less the credit notes.
      const period = new Date().toLocaleDateString('en-CA', { timeZone: t.deps.config.INVOICE_TIME_ZONE }).slice(0, 7);
      const ret = await ok('GET', `admin/tax/returns/${period}`, owner);
      const [ledger] = await t.deps.database.query<{ taxable: number; tax: number }>(
        `with invoiced as (
           select l.* from order_ledger l
            where not l.test_mode and l.kind in ('charge', 'discount', 'tax')
              and (l.source <> 'order' or exists (select 1 from invoices i join installments r on r.id = i.installment_id
                                                   where i.order_id = l.order_id and r.kind = 'remaining' and i.doc_kind = 'tax_invoice'))
         )
         select coalesce(sum(amount) filter (where kind <> 'tax'), 0)::float8 as taxable,
                coalesce(sum(amount) filter (where kind = 'tax'), 0)::float8 as tax
           from invoiced`,
      );
      // The credit notes the ledger's credits carry (each reduces a tax invoice: its own taxable value and tax).
      const [credits] = await t.deps.database.query<{ taxable: number; tax: number }>(
        `select coalesce(sum(i.taxable_value), 0)::float8 as taxable, coalesce(sum(i.tax_amount), 0)::float8 as tax
           from invoices i where i.doc_kind = 'credit_note' and not i.test_mode
            and exists (select 1 from order_ledger l where l.invoice_id = i.id and l.kind = 'credit_note')`,
      );
      const hsn = ret.tables.hsn.totals;
      expect(hsn.taxableValue, `${label}: GSTR-1 taxable value`).toBe(ledger!.taxable - credits!.taxable);
      expect(hsn.integratedTax + hsn.centralTax + hsn.stateTax, `${label}: GSTR-1 tax`).toBe(ledger!.tax - credits!.tax);
      expect(ret.reconciled, `${label}: the return's own checks`).toBe(true);
    }

    it(`${steps} random steps keep every figure equal to the statement`, async () => {
      const rnd = random(seed);
      const ran = new Set<string>();
      for (let step = 0; step < steps; step++) {
        const open = models.filter((m) => !m.cancelled && !m.remainingPaid);
        const withDuplicates = models.filter((m) => m.duplicates.length > 0);
        const choices: (() => Promise<Model>)[] = [() => (ran.add('newOrder'), ops.newOrder(rnd, step))];
        if (open.length) {
          choices.push(async () => {
            const m = rnd.pick(open);
            ran.add('payRemaining');
            await ops.payRemaining(m, rnd);
            return m;
          });
          choices.push(async () => {
            const m = rnd.pick(open);
            ran.add('change');
            await ops.change(m, rnd);
            return m;
          });
        }
        if (open.length) {
          choices.push(async () => {
            const m = rnd.pick(open);
            ran.add('cancel');
            await ops.cancel(m, rnd);
            return m;
          });
          const untouched = open.filter((m) => m.refunded === 0);
          if (untouched.length) {
            choices.push(async () => {
              const m = rnd.pick(untouched);
              ran.add('dashboardRefund');
              await ops.dashboardRefund(m);
              return m;
            });
          }
        }
        const delivered = models.filter((m) => !m.cancelled && m.remainingPaid);
        if (delivered.length) {
          choices.push(async () => {
            const m = rnd.pick(delivered);
            ran.add('planMonth');
            await ops.planMonth(m);
            return m;
          });
        }
        if (withDuplicates.length) {
          choices.push(async () => {
            const m = rnd.pick(withDuplicates);
            ran.add('refundDuplicate');
            await ops.refundDuplicate(m);
            return m;
          });
        }
        const op = models.length === 0 ? choices[0]! : rnd.pick(choices);
        const m = await op();
        await check(m, `step ${step} (${m.orderId})`);
        if (step % 4 === 3) await checkWhole(`step ${step}`);
      }
      for (const m of models) await check(m, `end (${m.orderId})`);
      await checkWhole('end');
      // The walk went everywhere: a seed that skipped a kind of step would prove less than it says.
      expect([...ran].sort()).toEqual(['cancel', 'change', 'dashboardRefund', 'newOrder', 'payRemaining', 'planMonth', 'refundDuplicate']);
    });
  });
}

walk('none', 20261129, 24);
walk('gst', Number(process.env.WALK_SEED ?? 2026), 24);
