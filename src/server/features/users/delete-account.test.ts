import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type BuiltApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { buildTestApp, createThrowAwayDatabase, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { chatClient, nextEvent, request } from '../../../../tests/helpers/chat-client.ts';
import { DELETED_CUSTOMER_NAME, ERASED_TEXT, deletedEmailFor } from '../../../domain/deleted-account.ts';
import { DELIVERY_STAGE } from '../../../domain/tracker.ts';
import { confirmSession } from '../auth/sessions.ts';
import { freshIp, lastCodeFor } from '../../../../tests/fixtures/sign-in.ts';
import { registeredRoutes } from '../admin/route-walk.ts';
import { seedPaidOrder, seedRemainingPayment } from '../../../../tests/fixtures/paid-orders.ts';
import { seedDeliveredOrder } from '../../../../tests/fixtures/delivered-orders.ts';
import { getOrCreateReferralCode } from '../referrals/referral-code.ts';
import { newChatId, summaryOf } from '../chat/conversations.ts';
import { runJobs } from '../jobs/run-jobs.ts';
import { fileForm } from '../../../../tests/helpers/multipart.ts';
import { PNG } from '../../../../tests/fixtures/file-bytes.ts';

// Decision 192: a person deletes their account. Each attack of the issue is a test:
// deletion without the fresh confirmation, and twice; after it the old token, the old socket, the
// e-mail in every admin list and CSV, the referral code.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

const OWNER = 'owner@example.com';
let t: TestApp;
let base: string;
let owner: Awaited<ReturnType<typeof loginAs>>;

beforeAll(async () => {
  t = await buildTestApp({ ADMIN_EMAILS: OWNER });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  owner = await loginAs(t, OWNER, 'admin');
});
afterAll(() => t.close());

type Who = { headers: Record<string, string> };
const remove = (who: Who, body: object = {}) =>
  t.app.inject({ method: 'POST', url: '/api/v1/user/delete-account', headers: who.headers, payload: body, remoteAddress: freshIp() });
const sendCode = async (email: string) => {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/sendLoginOtp', payload: { email }, remoteAddress: freshIp() });
  expect(res.statusCode, res.body).toBe(200);
  return lastCodeFor(t, email);
};
const sessionOf = async (userId: string) =>
  (
    await t.deps.database.query<{ id: string }>(
      'select id from sessions where user_id = $1 and revoked_at is null order by created_at desc limit 1',
      [userId],
    )
  )[0]!.id;
/** A passkey step-up of the person's session `minutesAgo` ago (what the passkeys feature records). */
const confirmedByPasskey = async (userId: string, minutesAgo = 0) =>
  confirmSession(t.deps.db, await sessionOf(userId), new Date(Date.now() - minutesAgo * 60_000));
const stillThere = async (userId: string) =>
  (await t.deps.database.query<{ deleted_at: Date | null }>('select deleted_at from users where id = $1', [userId]))[0]!.deleted_at ===
  null;

/** Delivers the order through the tracker's own admin route, stage after stage. */
async function deliverByTracker(orderId: string) {
  for (let i = 0; i < 20; i++) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/tracker/order/${orderId}/complete-next-stage`,
      headers: owner.headers,
      payload: { deliveryUrl: 'https://site.example.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
    if (res.json().completed_steps === DELIVERY_STAGE - 1) return;
  }
  throw new Error('not delivered');
}

describe('confirmation', () => {
  it('refuses without a fresh code or a recent passkey confirmation (403 CONFIRMATION_REQUIRED)', async () => {
    const c = await loginAs(t, 'unconfirmed@example.com');
    let res = await remove(c);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ success: false, code: 'CONFIRMATION_REQUIRED' });
    // A passkey confirmation older than ten minutes is not fresh.
    await confirmedByPasskey(c.user.id, 11);
    res = await remove(c);
    expect(res.json().code).toBe('CONFIRMATION_REQUIRED');
    expect(await stillThere(c.user.id)).toBe(true);
    // Within ten minutes it is.
    await confirmedByPasskey(c.user.id, 9);
    res = await remove(c);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });
    expect(await stillThere(c.user.id)).toBe(false);
  });

  it('answers a wrong code 400 like verifyOtp, counts the tries and uses a right code once', async () => {
    const c = await loginAs(t, 'wrongcode@example.com');
    const code = await sendCode('wrongcode@example.com');
    const wrong = code === '000000' ? '111111' : '000000';
    let res = await remove(c, { code: wrong });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'BAD_REQUEST', message: 'Invalid OTP. Please try again.' });
    for (let i = 0; i < 4; i++) await remove(c, { code: wrong });
    // Five wrong tries used the code up: the right one no longer works.
    res = await remove(c, { code });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/expired or was tried too many times/);
    expect(await stillThere(c.user.id)).toBe(true);
    // Malformed codes are refused by the contract.
    expect((await remove(c, { code: '12ab56' })).statusCode).toBe(400);
  });

  it('refuses a code mailed to someone else, and a code that already signed in', async () => {
    const c = await loginAs(t, 'mine@example.com');
    await loginAs(t, 'theirs@example.com');
    const theirs = await sendCode('theirs@example.com');
    expect((await remove(c, { code: theirs })).statusCode).toBe(400);
    const mine = await sendCode('mine@example.com');
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verifyOtp',
      payload: { email: 'mine@example.com', otp: mine },
      remoteAddress: freshIp(),
    });
    expect(signIn.statusCode).toBe(200);
    expect((await remove(c, { code: mine })).statusCode).toBe(400);
    expect(await stillThere(c.user.id)).toBe(true);
  });
});

describe('who may delete, and when', () => {
  it('409 ORDER_IN_PROGRESS from the advance until the delivery, then the deletion goes through', async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'paying@example.com');
    await confirmedByPasskey(customer.user.id);
    let res = await remove(customer);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ success: false, code: 'ORDER_IN_PROGRESS' });
    // The refusal comes before the code is used: it still works once the order is delivered.
    const code = await sendCode('paying@example.com');
    expect((await remove(customer, { code })).json().code).toBe('ORDER_IN_PROGRESS');
    await seedRemainingPayment(t, customer, orderId);
    expect((await remove(customer, { code })).json().code).toBe('ORDER_IN_PROGRESS');
    await deliverByTracker(orderId);
    res = await remove(customer, { code });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stillThere(customer.user.id)).toBe(false);
  });

  it('an unpaid checkout (draft) does not block the deletion, and goes with it', async () => {
    const c = await loginAs(t, 'drafter@example.com');
    const open = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/payment/create-order',
        headers: c.headers,
        payload: { kind: 'advance', acceptTerms: true },
      });
    const drafts = async () =>
      (
        await t.deps.database.query<{ n: number }>(
          "select count(*)::int as n from orders where user_id = $1 and state = 'awaiting_advance'",
          [c.user.id],
        )
      )[0]!.n;
    expect((await open()).statusCode).toBe(200);
    // An older checkout goes; one opened at the provider within the hour may be being paid right now: it stays.
    await t.deps.database.query(`update payment_attempts set created_at = now() - interval '2 hours'`);
    expect((await open()).statusCode).toBe(200);
    expect(await drafts()).toBe(2);
    await confirmedByPasskey(c.user.id);
    expect((await remove(c)).statusCode).toBe(200);
    expect(await drafts()).toBe(1);
  });

  it('refuses the owner (409, re-created at sign-in otherwise) but lets a staff member go', async () => {
    await confirmedByPasskey(owner.user.id);
    const res = await remove(owner);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/owner/i);
    expect(await stillThere(owner.user.id)).toBe(true);

    const staff = await loginAs(t, 'helper.staff@example.com', 'staff');
    await confirmedByPasskey(staff.user.id);
    expect((await remove(staff)).statusCode).toBe(200);
    const [row] = await t.deps.database.query<{ role: string; email: string }>('select role, email from users where id = $1', [
      staff.user.id,
    ]);
    expect(row).toEqual({ role: 'customer', email: deletedEmailFor(staff.user.id) });
  });

  it('refuses while a maintenance plan still charges', async () => {
    const { customer, orderId } = await seedDeliveredOrder(t, 'planned@example.com');
    await t.deps.database.query(
      `insert into maintenance_subscriptions (order_id, provider, provider_subscription_id, provider_plan_id, currency, amount, state)
       select id, 'test', 'sub_del_1', 'plan_1', currency, 100, 'active' from orders where public_id = $1`,
      [orderId],
    );
    await confirmedByPasskey(customer.user.id);
    const res = await remove(customer);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/maintenance plan/);
    await t.deps.database.query(
      "update maintenance_subscriptions set cancel_at_period_end = true where provider_subscription_id = 'sub_del_1'",
    );
    expect((await remove(customer)).statusCode).toBe(200);
  });
});

// The dialog tells what blocks the deletion before it sends a code; the code's mail says what it is
// for and never signs in; the person's own files go, an approved design's keep their hash
// (docs/decisions/275-account-deletion-up-front.md).
describe('up front: blockers, the deletion code, the files', () => {
  const blockers = async (who: Who) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/user/delete-account', headers: who.headers });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().blockers as { kind: string; message: string }[]).map((b) => b.kind);
  };

  it('lists an order in progress and an active maintenance plan before any code is sent, nothing once they are over', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/user/delete-account' })).statusCode).toBe(401);
    const fresh = await loginAs(t, 'nothing.blocks@example.com');
    expect(await blockers(fresh)).toEqual([]);
    expect(await blockers(owner)).toEqual(['owner']);

    const { customer, orderId } = await seedPaidOrder(t, 'blocked.twice@example.com');
    expect(await blockers(customer)).toEqual(['order_in_progress']);
    const delivered = await seedDeliveredOrder(t, 'blocked.plan@example.com');
    await t.deps.database.query(
      `insert into maintenance_subscriptions (order_id, provider, provider_subscription_id, provider_plan_id, currency, amount, state)
       select id, 'test', 'sub_blockers_1', 'plan_1', currency, 100, 'active' from orders where public_id = $1`,
      [delivered.orderId],
    );
    expect(await blockers(delivered.customer)).toEqual(['maintenance_plan']);
    await t.deps.database.query(
      "update maintenance_subscriptions set cancel_at_period_end = true where provider_subscription_id = 'sub_blockers_1'",
    );
    expect(await blockers(delivered.customer)).toEqual([]);
    await seedRemainingPayment(t, customer, orderId);
    await deliverByTracker(orderId);
    expect(await blockers(customer)).toEqual([]);
  });

  it('mails a code that says it deletes the account; it confirms the deletion and never signs in', async () => {
    const email = 'deletion.code@example.com';
    const c = await loginAs(t, email);
    const ask = () =>
      t.app.inject({ method: 'POST', url: '/api/v1/user/delete-account/code', headers: c.headers, remoteAddress: freshIp() });
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/user/delete-account/code', remoteAddress: freshIp() })).statusCode).toBe(
      401,
    );
    expect((await ask()).statusCode).toBe(200);
    const [mail] = await t.deps.database.query<{ subject: string; text_body: string; template: string }>(
      'select subject, text_body, template from mail_outbox where to_address = $1 order by created_at desc limit 1',
      [email],
    );
    expect(mail!.template).toBe('otp-delete');
    expect(mail!.subject).toMatch(/delet/i);
    expect(mail!.text_body).toMatch(/delete your .* account/i);
    expect(mail!.text_body).not.toMatch(/sign-in code|code signs you in/i);
    const code = await lastCodeFor(t, email);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verifyOtp',
      payload: { email, otp: code },
      remoteAddress: freshIp(),
    });
    expect(signIn.statusCode).toBe(400);
    await t.deps.database.query('delete from login_codes where email = $1', [email]);
    expect((await ask()).statusCode).toBe(200);
    expect((await remove(c, { code: await lastCodeFor(t, email) })).statusCode).toBe(200);
    expect(await stillThere(c.user.id)).toBe(false);
  });

  it("erases the customer's own files, bytes and names, keeping only the hash of a file in an approved design round", async () => {
    const { customer, orderId } = await seedPaidOrder(t, 'files.erased@example.com');
    const upload = async (who: Who, url: string, name: string) => {
      const form = fileForm(name, PNG);
      const res = await t.app.inject({ method: 'POST', url, headers: { ...who.headers, ...form.headers }, payload: form.payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().file.id as string;
    };
    const loose = await upload(customer, `/api/v1/orders/${orderId}/files`, 'my-logo.png');
    const approved = await upload(customer, `/api/v1/orders/${orderId}/files`, 'my-sketch.png');
    const agency = await upload(owner, `/api/v1/admin/orders/${orderId}/files`, 'design.png');
    const round = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${orderId}/reviews`,
      headers: owner.headers,
      payload: { kind: 'ui', title: 'Home from your sketch', fileIds: [approved, agency] },
    });
    expect(round.statusCode, round.body).toBe(201);
    const decided = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${orderId}/reviews/${round.json().review.id}/decision`,
      headers: customer.headers,
      payload: { decision: 'approve' },
    });
    expect(decided.statusCode, decided.body).toBe(200);
    await seedRemainingPayment(t, customer, orderId);
    await deliverByTracker(orderId);
    type Row = { id: string; name: string; size: number; sha256: string; storage_key: string; uploader_user_id: string | null };
    const rows = async () =>
      new Map(
        (
          await t.deps.database.query<Row>(
            'select id, name, size::int as size, sha256, storage_key, uploader_user_id from order_files where id = any($1::uuid[])',
            [[loose, approved, agency]],
          )
        ).map((r) => [r.id, r]),
      );
    const before = await rows();
    await confirmedByPasskey(customer.user.id);
    const gone = await remove(customer);
    expect(gone.statusCode, gone.body).toBe(200);
    await runJobs(t.deps);
    const after = await rows();
    // Not part of any approval: the row and the bytes go.
    expect(after.has(loose)).toBe(false);
    expect(await t.deps.fileStorage.stat(before.get(loose)!.storage_key)).toBeNull();
    // Part of the approved round: the hash stays in the record, nothing else of the file.
    expect(after.get(approved)).toMatchObject({
      name: 'Erased file',
      size: 0,
      sha256: before.get(approved)!.sha256,
      uploader_user_id: null,
    });
    expect(after.get(approved)!.storage_key).not.toBe(before.get(approved)!.storage_key);
    expect(await t.deps.fileStorage.stat(before.get(approved)!.storage_key)).toBeNull();
    const download = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/orders/${orderId}/files/${approved}`,
      headers: owner.headers,
    });
    expect(download.statusCode).toBe(404);
    // The agency's own file is the agency's: kept whole.
    expect(after.get(agency)).toEqual(before.get(agency));
    expect(await t.deps.fileStorage.stat(before.get(agency)!.storage_key)).not.toBeNull();
  });
});

describe('after the deletion', () => {
  const EMAIL = 'vanishing.person@example.com';
  let person: Awaited<ReturnType<typeof loginAs>>;
  let orderId = '';
  let chatId = '';
  const guestChat = newChatId();
  let referralCode = '';
  const counts = async () =>
    (
      await t.deps.database.query<Record<string, number>>(
        `select (select count(*)::int from orders o where o.user_id = $1) as orders,
                (select count(*)::int from installments i join orders o on o.id = i.order_id where o.user_id = $1) as installments,
                (select count(*)::int from payment_attempts p join installments i on i.id = p.installment_id join orders o on
                  o.id = i.order_id where o.user_id = $1) as payments,
                (select count(*)::int from invoices where user_id = $1) as invoices`,
        [person.user.id],
      )
    )[0]!;
  let before: Record<string, number>;
  let socketGone: Promise<unknown>;
  let consoleSaw: Promise<{ chatId: string }>;
  let auditBefore = 0;

  beforeAll(async () => {
    ({ customer: person, orderId } = await seedDeliveredOrder(t, EMAIL));
    const id = person.user.id;
    const q = (text: string, params: unknown[] = []) => t.deps.database.query(text, params);
    // Someone bought with the person's referral code: a money record that stays.
    referralCode = await getOrCreateReferralCode(t.deps.db, id);
    // What the person left everywhere: a chat signed in and one as a guest, a lead, a contact message,
    // order and support messages, a brief, a pin on a review, a passkey, a social identity, billing details.
    const start = await t.app.inject({
      method: 'POST',
      url: '/api/v1/chat/start',
      payload: { userId: id },
      headers: person.headers,
      remoteAddress: freshIp(),
    });
    chatId = start.json().chatId;
    await q(`insert into chat_messages (conversation_id, sender, body) values ($1, 'user', 'my secret plans')`, [chatId]);
    await q(`update chat_conversations set last_message = 'my secret plans', last_message_at = now() where id = $1`, [chatId]);
    await q(`insert into chat_conversations (id, contact_email, last_message, last_message_at) values ($1, $2, 'guest secret', now())`, [
      guestChat,
      EMAIL.toUpperCase(),
    ]);
    await q(`insert into chat_messages (conversation_id, sender, body) values ($1, 'user', 'guest secret')`, [guestChat]);
    await t.app.inject({ method: 'POST', url: '/api/v1/alert/sendEmail', payload: { email: EMAIL }, remoteAddress: freshIp() });
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/contact/addContact',
      payload: { name: 'Vanishing Person', email: EMAIL, message: 'call me', phone_code: '+1', phone_number: '5551234', address: '' },
      remoteAddress: freshIp(),
    });
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/orders/${orderId}/messages`,
          headers: person.headers,
          payload: { text: 'my home is 12 Secret Lane' },
        })
      ).statusCode,
    ).toBe(201);
    const support = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${orderId}/support/requests`,
      headers: person.headers,
      payload: { title: 'Secret Lane typo', description: 'fix 12 Secret Lane', category: 'bug' },
    });
    expect(support.statusCode, support.body).toBe(201);
    await q(
      `insert into order_briefs (order_id, answers) select id, '{"business":"Secret Lane Bakery"}'::jsonb from orders where public_id = $1`,
      [orderId],
    );
    await q(
      `with f as (insert into order_files (order_id, uploader_user_id, uploaded_by, name, size, content_type, sha256, storage_key)
                  select id, null, 'agency', 'ui.png', 1, 'image/png', repeat('a', 64), 'del-test-key' from orders where public_id = $1 returning id, order_id),
            r as (insert into order_reviews (order_id, kind, round, title) select order_id, 'ui', 1, 'UI round' from f returning id),
            rf as (insert into order_review_files (review_id, file_id, position) select r.id, f.id, 0 from r, f returning review_id, file_id)
       insert into order_review_comments (review_id, file_id, x, y, text, author, author_user_id)
       select review_id, file_id, 0.5, 0.5, 'Secret Lane logo', 'customer', $2 from rf`,
      [orderId, id],
    );
    await q(`insert into passkeys (user_id, credential_id, public_key, name) values ($1, 'cred-del', 'pk', 'Laptop')`, [id]);
    await q(`insert into identities (user_id, provider, subject, email) values ($1, 'google', 'g-del', $2)`, [id, EMAIL]);
    await q(`insert into billing_details (user_id, billing_name, billing_address) values ($1, 'Vanishing Person', '12 Secret Lane')`, [id]);
    before = await counts();
    expect(before.invoices).toBeGreaterThanOrEqual(2);
    auditBefore = (
      await t.deps.database.query<{ n: number }>("select count(*)::int as n from admin_audit_log where action = 'account.delete'")
    )[0]!.n;

    const socket = await chatClient(base, person.token);
    socketGone = new Promise((resolve) => socket.once('disconnect', resolve));
    // The founder's console is open: the erased chat closes there at once.
    const ownerConsole = await chatClient(base, owner.token);
    expect(await request(ownerConsole, 'getActiveChats')).toMatchObject({ ok: true });
    consoleSaw = nextEvent<{ chatId: string }>(ownerConsole, 'chatClosed', (p) => p.chatId === chatId, 10_000).finally(() =>
      ownerConsole.disconnect(),
    );
    const code = await sendCode(EMAIL);
    const res = await remove(person, { code });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('cuts the old socket at once, and the old token gets 401 everywhere — a second deletion too', async () => {
    expect(await socketGone).toBe('io server disconnect');
    expect(await consoleSaw).toEqual({ chatId });
    for (const [method, url] of [
      ['GET', '/api/v1/user/getUserById'],
      ['GET', '/api/v1/auth/sessions'],
      ['GET', `/api/v1/orders/${orderId}/messages`],
      ['GET', '/api/v1/referral/summary'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: person.headers });
      expect(res.statusCode, `${method} ${url}`).toBe(401);
    }
    const again = await remove(person, { code: '123456' });
    expect(again.statusCode).toBe(401);
  });

  it('anonymises the account and ends every sign-in path', async () => {
    const [u] = await t.deps.database.query<Record<string, unknown>>('select * from users where id = $1', [person.user.id]);
    expect(u).toMatchObject({
      name: DELETED_CUSTOMER_NAME,
      email: deletedEmailFor(person.user.id),
      phone_code: null,
      phone_number: null,
      address: null,
      role: 'customer',
      first_utm_source: null,
      first_referrer_host: null,
    });
    expect(u!.deleted_at).toBeTruthy();
    expect(String(u!.email)).toMatch(/^deleted-[0-9a-f]{12}@deleted\.invalid$/);
    const n = async (sql: string) => (await t.deps.database.query<{ n: number }>(sql, [person.user.id, EMAIL]))[0]!.n;
    expect(await n('select count(*)::int as n from sessions where user_id = $1 and revoked_at is null and $2::text is not null')).toBe(0);
    expect(await n('select count(*)::int as n from passkeys where user_id = $1 and $2::text is not null')).toBe(0);
    expect(await n('select count(*)::int as n from identities where user_id = $1 or email = $2')).toBe(0);
    expect(await n('select count(*)::int as n from billing_details where user_id = $1 and $2::text is not null')).toBe(0);
    expect(await n('select count(*)::int as n from login_codes where email = $2 and $1::uuid is not null')).toBe(0);
    expect(await n('select count(*)::int as n from mail_outbox where to_address = $2 and $1::uuid is not null')).toBe(0);
    // Signing in with the address again starts a new account: nothing of the old one answers.
    const code = await sendCode(EMAIL);
    const signIn = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/verifyOtp',
      payload: { email: EMAIL, otp: code },
      remoteAddress: freshIp(),
    });
    expect(signIn.json()).toMatchObject({ success: true, isNewUser: true });
    await t.deps.database.query('delete from mail_outbox where to_address = $1', [EMAIL]);
  });

  it('erases what the person wrote in every feature', async () => {
    const q = <T>(sql: string, params: unknown[] = [person.user.id]) => t.deps.database.query<T>(sql, params);
    expect(await q('select body from chat_messages where conversation_id in ($1, $2)', [chatId, guestChat])).toEqual([]);
    const chats = await q<{ contact_email: string | null; last_message: string | null; state: string; user_id: string }>(
      `select contact_email, last_message, state, user_id from chat_conversations where id in ($1, $2)`,
      [guestChat, chatId],
    );
    expect(chats).toHaveLength(2);
    for (const c of chats) expect(c).toEqual({ contact_email: null, last_message: null, state: 'closed', user_id: person.user.id });
    expect(await q('select id from leads where lower(email) = $1', [EMAIL])).toEqual([]);
    expect(await q('select id from contact_messages where lower(email) = $1', [EMAIL])).toEqual([]);
    const texts = await q<{ text: string }>(
      `select m.text from order_messages m join orders o on o.id = m.order_id where o.user_id = $1 and m.sender = 'customer'`,
    );
    expect(texts.length).toBeGreaterThan(0);
    expect(texts.every((m) => m.text === ERASED_TEXT)).toBe(true);
    const support = await q<{ title: string; description: string }>(
      'select title, description from support_requests where created_by = $1',
    );
    expect(support).toHaveLength(1);
    expect(JSON.stringify(support)).not.toContain('Secret');
    const supportMessages = await q<{ text: string }>(`select text from support_messages where sender_user_id = $1`);
    expect(supportMessages.every((m) => m.text === ERASED_TEXT)).toBe(true);
    expect(await q(`select text from order_review_comments where author_user_id = $1`)).toEqual([{ text: ERASED_TEXT }]);
    expect(await q(`select answers from order_briefs b join orders o on o.id = b.order_id where o.user_id = $1`)).toEqual([
      { answers: {} },
    ]);
    expect(
      await q(`select n.id from notices n join orders o on o.id = n.order_id where o.user_id = $1 and n.recipient = 'customer'`),
    ).toEqual([]);
  });

  it('keeps orders, installments, payments and invoices, the invoice still printing the frozen buyer', async () => {
    expect(await counts()).toEqual(before);
    const [inv] = await t.deps.database.query<{ snapshot: { buyer: { email: string } } }>(
      'select snapshot from invoices where user_id = $1 limit 1',
      [person.user.id],
    );
    expect(inv!.snapshot.buyer.email).toBe(EMAIL);
    const list = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${orderId}/invoices`, headers: owner.headers });
    expect(list.statusCode).toBe(200);
    const invoices = list.json().invoices as { id: string }[];
    expect(invoices.length).toBe(before.invoices);
    const pdf = await t.app.inject({ method: 'GET', url: `/api/v1/admin/invoices/${invoices[0]!.id}/pdf`, headers: owner.headers });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toMatch(/application\/pdf/);
  });

  it("switches the person's referral code off", async () => {
    const other = await loginAs(t, 'would.be.referred@example.com');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/coupon/verifyCoupon',
      headers: other.headers,
      payload: { coupon_code: referralCode },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: false, discount_percent: 0 });
  });

  it('shows "Deleted customer" where the person was, and the address in no admin list or CSV', async () => {
    const customers = await t.app.inject({ method: 'GET', url: '/api/v1/admin/customers', headers: owner.headers });
    expect(customers.body).toContain(DELETED_CUSTOMER_NAME);
    const page = await t.app.inject({ method: 'GET', url: `/api/v1/admin/customers/${person.user.id}`, headers: owner.headers });
    expect(page.json()).toMatchObject({ customer: { name: DELETED_CUSTOMER_NAME } });
    const order = await t.app.inject({ method: 'GET', url: `/api/v1/admin/orders/${orderId}`, headers: owner.headers });
    expect(order.body).toContain(DELETED_CUSTOMER_NAME);
    const orders = await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: owner.headers });
    expect(orders.body).toContain(DELETED_CUSTOMER_NAME);
    expect((await summaryOf(t.deps.database, chatId))?.name).toBe(DELETED_CUSTOMER_NAME);

    // Every admin GET route (lists, pages, CSVs), with the person's ids where a route takes one.
    const fill = (url: string) =>
      url.replace(/:(\w+)/g, (_, name: string) =>
        url.includes('/customers/') ? person.user.id : ['id', 'orderId'].includes(name) ? orderId : '00000000-0000-4000-8000-000000000000',
      );
    const walked: string[] = [];
    for (const r of registeredRoutes(t.app).filter((x) => x.method === 'GET' && x.url.startsWith('/api/v1/admin'))) {
      const url = fill(r.url);
      const res = await t.app.inject({ method: 'GET', url, headers: owner.headers });
      if (res.headers['content-type']?.toString().includes('application/pdf')) continue;
      walked.push(`${res.statusCode} ${url}`);
      expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBeLessThan(500);
      for (const secret of ['vanishing.person', 'Vanishing Person', 'Secret Lane', 'my secret plans', 'guest secret']) {
        expect(res.body.toLowerCase(), `${url} mentions ${secret}`).not.toContain(secret.toLowerCase());
      }
    }
    expect(walked.some((w) => w.includes('.csv'))).toBe(true);
  });

  it('records the deletion in the audit log: who and when, no personal data', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/admin/audit?action=account.delete', headers: owner.headers });
    expect(res.statusCode).toBe(200);
    const items = res.json().items as { entityId: string; actorUserId: string; actorEmail: string; at: string }[];
    expect(items).toHaveLength(auditBefore + 1);
    const mine = items.find((i) => i.entityId === person.user.id)!;
    expect(mine).toMatchObject({ actorUserId: person.user.id, actorEmail: deletedEmailFor(person.user.id), entity: 'user' });
    expect(JSON.stringify(mine)).not.toContain('vanishing');
  });
});

describe('retention (INVOICE_RETENTION_YEARS, default 8)', () => {
  it("clears a deleted account's order texts once the retention ran out, in the jobs runner, and keeps the money records", async () => {
    const { customer, orderId } = await seedDeliveredOrder(t, 'long.ago@example.com');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/orders/${orderId}/messages`,
          headers: customer.headers,
          payload: { text: 'hello' },
        })
      ).statusCode,
    ).toBe(201);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/v1/admin/orders/${orderId}/internal-note`,
          headers: owner.headers,
          payload: { note: 'Prefers calls' },
        })
      ).statusCode,
    ).toBe(200);
    await confirmedByPasskey(customer.user.id);
    expect((await remove(customer)).statusCode).toBe(200);
    const texts = async () =>
      (
        await t.deps.database.query<Record<string, number | string | null>>(
          `select (select count(*)::int from order_messages m where m.order_id = o.id) as messages,
                  (select count(*)::int from admin_order_notes n where n.order_id = o.id) as notes,
                  o.delivery_url as url,
                  (select count(*)::int from invoices i where i.order_id = o.id) as invoices,
                  (select count(*)::int from installments i where i.order_id = o.id and i.state = 'paid') as paid
             from orders o where o.public_id = $1`,
          [orderId],
        )
      )[0]!;
    const kept = await texts();
    expect(kept).toMatchObject({ messages: 1, notes: 1, url: 'https://site.example.com', paid: 2 });
    const year = 365.25 * 24 * 3600 * 1000;
    // A day before the eighth year ends nothing goes…
    let pass = await runJobs(t.deps, new Date(Date.now() + 8 * year - 2 * 24 * 3600 * 1000));
    expect(await texts()).toEqual(kept);
    // …after it, the texts go; the order, its paid installments and its invoices stay.
    pass = await runJobs(t.deps, new Date(Date.now() + 8 * year + 2 * 24 * 3600 * 1000));
    expect(pass.retentionPurged).toBeGreaterThanOrEqual(1);
    expect(await texts()).toEqual({ messages: 0, notes: 0, url: null, invoices: kept.invoices, paid: 2 });
    // Nothing left to do: the next pass clears nothing.
    expect((await runJobs(t.deps, new Date(Date.now() + 9 * year))).retentionPurged).toBe(0);
  });

  it("purges a deleted account's order files, rows and bytes, with the rest of the order at the end of the retention", async () => {
    const { customer, orderId } = await seedDeliveredOrder(t, 'files.long.ago@example.com');
    const form = fileForm('brand.png', PNG);
    const design = fileForm('design.png', PNG);
    const up = await t.app.inject({
      method: 'POST',
      url: `/api/v1/orders/${orderId}/files`,
      headers: { ...customer.headers, ...form.headers },
      payload: form.payload,
    });
    expect(up.statusCode, up.body).toBe(201);
    const theirs = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${orderId}/files`,
      headers: { ...owner.headers, ...design.headers },
      payload: design.payload,
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    // The agency's file is attached to a message: still purged with the order.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/api/v1/admin/orders/${orderId}/messages`,
          headers: owner.headers,
          payload: { text: 'Design', fileIds: [theirs.json().file.id] },
        })
      ).statusCode,
    ).toBe(201);
    const files = () =>
      t.deps.database.query<{ storage_key: string }>(
        'select f.storage_key from order_files f join orders o on o.id = f.order_id where o.public_id = $1',
        [orderId],
      );
    expect(await files()).toHaveLength(2);
    await confirmedByPasskey(customer.user.id);
    expect((await remove(customer)).statusCode).toBe(200);
    // The customer's own file went with the account (docs/decisions/275-account-deletion-up-front.md);
    // the agency's stays until the retention ends.
    const keys = (await files()).map((f) => f.storage_key);
    expect(keys).toHaveLength(1);
    const year = 365.25 * 24 * 3600 * 1000;
    await runJobs(t.deps, new Date(Date.now() + 8 * year - 2 * 24 * 3600 * 1000));
    expect(await files()).toHaveLength(1);
    for (const key of keys) expect(await t.deps.fileStorage.stat(key), key).not.toBeNull();
    const pass = await runJobs(t.deps, new Date(Date.now() + 8 * year + 2 * 24 * 3600 * 1000));
    expect(pass.retentionPurged).toBeGreaterThanOrEqual(1);
    expect(await files()).toEqual([]);
    for (const key of keys) expect(await t.deps.fileStorage.stat(key), key).toBeNull();
  });
});

// The old socket and session on ANOTHER instance end at once too (shared PostgreSQL: the socket
// adapter and the invalidation bus carry the revocation).
describe.skipIf(!process.env.TEST_DATABASE_URL || process.env.TEST_DB !== 'postgres')('two instances', () => {
  let db: Awaited<ReturnType<typeof createThrowAwayDatabase>>;
  let a: BuiltApp & { url: string };
  let b: BuiltApp & { url: string };
  const start = async () => {
    const config = loadConfig(
      { NODE_ENV: 'test', LOG_LEVEL: 'silent', ADMIN_STEP_UP: 'off', DATABASE_URL: db.url },
      { webDistDir: '/nonexistent' },
    );
    const built = await buildApp(config, { pollMail: false });
    await built.app.listen({ port: 0, host: '127.0.0.1' });
    return { ...built, url: `http://127.0.0.1:${(built.app.server.address() as { port: number }).port}` };
  };
  beforeAll(async () => {
    db = await createThrowAwayDatabase();
    [a, b] = await Promise.all([start(), start()]);
  });
  afterAll(async () => {
    await Promise.all([a?.app.close(), b?.app.close()]);
    await db?.drop();
  });

  it('disconnects the socket on the other instance and its cached session answers 401 there', async () => {
    const person = await loginAs(a, 'two.instances@example.com');
    // The session is cached on B by a first request.
    expect((await b.app.inject({ method: 'GET', url: '/api/v1/user/getUserById', headers: person.headers })).statusCode).toBe(200);
    const socket = await chatClient(b.url, person.token);
    const gone = new Promise((resolve) => socket.once('disconnect', resolve));
    const [session] = await a.deps.database.query<{ id: string }>('select id from sessions where user_id = $1', [person.user.id]);
    await confirmSession(a.deps.db, session!.id);
    const res = await a.app.inject({ method: 'POST', url: '/api/v1/user/delete-account', headers: person.headers, payload: {} });
    expect(res.statusCode, res.body).toBe(200);
    expect(await gone).toBe('io server disconnect');
    // The bus drops B's cache entry at once (no waiting for SESSION_CACHE_MS).
    await new Promise((r) => setTimeout(r, 300));
    expect((await b.app.inject({ method: 'GET', url: '/api/v1/user/getUserById', headers: person.headers })).statusCode).toBe(401);
  });
});
