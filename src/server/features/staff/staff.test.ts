import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Socket } from 'socket.io-client';
import type { BuiltApp } from '../../app.ts';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { instancesOnPostgres } from '../../../../tests/helpers/instances.ts';
import { chatClient, request } from '../../../../tests/helpers/chat-client.ts';
import { ORDER_SOCKET_EVENTS } from '../../../contract/order-messages.ts';
import { createSignupTicket } from '../auth/signup-tickets.ts';
import { freshIp, lastCodeFor, post } from '../../../../tests/fixtures/sign-in.ts';
import { seedPaidOrder } from '../../../../tests/fixtures/paid-orders.ts';

// Decision 191: the owner's staff list. Owner only; an invited customer is staff at
// once, a new address at sign-up or sign-in; a removal makes a customer again and cuts every
// session and socket at once, on every instance.

const OWNER = 'owner@example.com';
let t: TestApp;
let owner: Awaited<ReturnType<typeof loginAs>>;
const sockets: Socket[] = [];

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const invite = (app: BuiltApp, headers: Record<string, string>, email: string) =>
  app.app.inject({ method: 'POST', url: '/api/v1/admin/staff', headers, payload: { email } });
const remove = (app: BuiltApp, headers: Record<string, string>, id: string) =>
  app.app.inject({ method: 'DELETE', url: `/api/v1/admin/staff/${id}`, headers });
const roleOf = async (app: BuiltApp, email: string) =>
  (await app.deps.database.query<{ role: string }>('select role from users where email = $1', [email]))[0]?.role;
const listening = async (app: BuiltApp) => {
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.app.server.address() as { port: number }).port}`;
};
const disconnected = (s: Socket) => new Promise<string>((resolve) => (s.disconnected ? resolve('already') : s.once('disconnect', resolve)));

/**
 * A staff member at work: their socket in the chat console and an order's room, and their session
 * cached by `app` (a removal must not wait for the cache). `gone` resolves when the socket is cut.
 */
async function staffAtWork(app: BuiltApp, url: string, staff: { token: string; headers: Record<string, string> }, orderId: string) {
  const socket = await chatClient(url, staff.token);
  sockets.push(socket);
  expect(await request(socket, 'getActiveChats')).toMatchObject({ ok: true });
  expect(await request(socket, ORDER_SOCKET_EVENTS.joinOrder, { orderId })).toEqual({ ok: true });
  expect((await app.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: staff.headers })).statusCode).toBe(200);
  // Wrapped: an async function returning the promise itself would wait for the disconnection.
  return { gone: disconnected(socket) };
}

beforeAll(async () => {
  t = await buildTestApp({ ADMIN_EMAILS: OWNER });
  owner = await loginAs(t, OWNER, 'admin');
});
afterAll(() => t.close());
afterEach(() => {
  for (const s of sockets.splice(0)) s.disconnect();
});

describe('inviting staff', () => {
  it('makes an existing customer staff at once, on the token they already hold, and e-mails the invitation', async () => {
    const person = await loginAs(t, 'designer@example.com');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: person.headers })).statusCode).toBe(403);
    const res = await invite(t, owner.headers, ' Designer@Example.com ');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      success: true,
      member: {
        id: expect.any(String),
        email: 'designer@example.com',
        userId: person.user.id,
        name: 'designer',
        invitedAt: expect.any(String),
        invitedBy: OWNER,
        lastSeenAt: expect.any(String),
      },
    });
    expect(await roleOf(t, 'designer@example.com')).toBe('staff');
    // No waiting for the session cache: the next request already has the role.
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: person.headers })).statusCode).toBe(200);
    const [mail] = await t.deps.database.query<{ template: string; subject: string; text_body: string; html_body: string }>(
      "select template, subject, text_body, html_body from mail_outbox where to_address = 'designer@example.com' order by created_at desc limit 1",
    );
    expect(mail).toMatchObject({ template: 'staff-invitation', subject: expect.stringContaining('team') });
    expect(mail!.text_body).toContain(OWNER);
    expect(mail!.text_body).toContain('http://localhost:3000/login');
  });

  it('refuses the owner (ADMIN_EMAILS, or an account that is the owner), a listed address, and bad input', async () => {
    expect((await invite(t, owner.headers, 'OWNER@example.com')).json()).toMatchObject({ code: 'CONFLICT' });
    expect((await invite(t, owner.headers, 'OWNER@example.com')).statusCode).toBe(409);
    await loginAs(t, 'cofounder@example.com', 'admin');
    const other = await invite(t, owner.headers, 'cofounder@example.com');
    expect(other.statusCode).toBe(409);
    expect(await roleOf(t, 'cofounder@example.com')).toBe('admin');
    expect((await invite(t, owner.headers, 'twice@example.com')).statusCode).toBe(201);
    const again = await invite(t, owner.headers, 'TWICE@example.com');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This address is already on the staff.');
    for (const email of ['not-an-email', '<script>@x', 'a'.repeat(400) + '@example.com', '']) {
      expect((await invite(t, owner.headers, email)).statusCode, email).toBe(400);
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/admin/staff', headers: owner.headers, payload: {} })).statusCode).toBe(400);
  });

  it('gives a new address the staff role when it signs up, and a listed account when it signs in', async () => {
    expect((await invite(t, owner.headers, 'newhire@example.com')).json().member.userId).toBeNull();
    const signupTicket = await createSignupTicket(t.deps, { email: 'newhire@example.com' });
    const res = await post(
      t,
      'user/addUser',
      { name: 'New Hire', address: '1 Road', phone_code: '91', phone_number: '9876543210', email: 'newhire@example.com', signupTicket },
      freshIp(),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await roleOf(t, 'newhire@example.com')).toBe('staff');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: bearer(res.json().token) })).statusCode).toBe(200);
    const listed = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/staff', headers: owner.headers })).json().staff;
    expect(listed.find((m: { email: string }) => m.email === 'newhire@example.com')).toMatchObject({
      userId: res.json().userId,
      name: 'New Hire',
      invitedBy: OWNER,
    });

    // An address put on the list while it held a customer account (a direct insert: no promotion at
    // invitation time) gets the role at its next sign-in by code…
    const later = await loginAs(t, 'later@example.com');
    await t.deps.database.query("insert into staff_members (email) values ('later@example.com')");
    expect((await post(t, 'auth/sendLoginOtp', { email: 'later@example.com', location: 'x' }, freshIp())).statusCode).toBe(200);
    const signedIn = await post(
      t,
      'auth/verifyOtp',
      { email: 'later@example.com', otp: await lastCodeFor(t, 'later@example.com') },
      freshIp(),
    );
    expect(signedIn.json().userId).toBe(later.user.id);
    expect(await roleOf(t, 'later@example.com')).toBe('staff');
    // …and staff whose address is not on the list (any more) sign in as customers.
    await loginAs(t, 'unlisted@example.com', 'staff');
    expect((await post(t, 'auth/sendLoginOtp', { email: 'unlisted@example.com', location: 'x' }, freshIp())).statusCode).toBe(200);
    const again = await post(
      t,
      'auth/verifyOtp',
      { email: 'unlisted@example.com', otp: await lastCodeFor(t, 'unlisted@example.com') },
      freshIp(),
    );
    expect(again.statusCode).toBe(200);
    expect(await roleOf(t, 'unlisted@example.com')).toBe('customer');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: bearer(again.json().token) })).statusCode).toBe(403);
  });

  it('asks an invited new address only for a name: no home address or phone (decision 276); a customer still gives both', async () => {
    expect((await invite(t, owner.headers, 'name.only@example.com')).statusCode).toBe(201);
    expect((await post(t, 'auth/sendLoginOtp', { email: 'name.only@example.com', location: 'x' }, freshIp())).statusCode).toBe(200);
    const verified = await post(
      t,
      'auth/verifyOtp',
      { email: 'name.only@example.com', otp: await lastCodeFor(t, 'name.only@example.com') },
      freshIp(),
    );
    expect(verified.json()).toMatchObject({ isNewUser: true, invitedStaff: true });
    const res = await post(
      t,
      'user/addUser',
      { name: 'Name Only', email: 'name.only@example.com', signupTicket: verified.json().signupTicket },
      freshIp(),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(await roleOf(t, 'name.only@example.com')).toBe('staff');
    const [row] = await t.deps.database.query<Record<string, unknown>>(
      "select phone_code, phone_number, address from users where email = 'name.only@example.com'",
    );
    expect(row).toEqual({ phone_code: null, phone_number: null, address: null });

    // A customer's sign-up still needs both, each missing field named; the ticket survives the refusal.
    expect((await post(t, 'auth/sendLoginOtp', { email: 'plain.customer@example.com', location: 'x' }, freshIp())).statusCode).toBe(200);
    const customer = await post(
      t,
      'auth/verifyOtp',
      { email: 'plain.customer@example.com', otp: await lastCodeFor(t, 'plain.customer@example.com') },
      freshIp(),
    );
    expect(customer.json().invitedStaff).toBeUndefined();
    const refused = await post(
      t,
      'user/addUser',
      { name: 'Plain', email: 'plain.customer@example.com', signupTicket: customer.json().signupTicket },
      freshIp(),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().fields.map((f: { path: string }) => f.path)).toEqual(['phone_code', 'phone_number', 'address']);
    const ok = await post(
      t,
      'user/addUser',
      {
        name: 'Plain',
        address: '1 Road',
        phone_code: '91',
        phone_number: '9876543210',
        email: 'plain.customer@example.com',
        signupTicket: customer.json().signupTicket,
      },
      freshIp(),
    );
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('is the owner’s alone: staff cannot list, invite or remove staff (403), and nothing changes', async () => {
    await invite(t, owner.headers, 'helper@example.com');
    const helper = await loginAs(t, 'helper@example.com', 'staff');
    const id = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/staff', headers: owner.headers })).json().staff[0].id as string;
    const before = (await t.deps.database.query<{ n: number }>('select count(*)::int as n from staff_members'))[0]!.n;
    for (const res of [
      await t.app.inject({ method: 'GET', url: '/api/v1/admin/staff', headers: helper.headers }),
      await invite(t, helper.headers, 'friend@example.com'),
      await remove(t, helper.headers, id),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, code: 'FORBIDDEN', message: 'Only the owner can do this.' });
    }
    expect((await t.deps.database.query<{ n: number }>('select count(*)::int as n from staff_members'))[0]!.n).toBe(before);
    expect(await roleOf(t, 'friend@example.com')).toBeUndefined();
  });
});

describe('the audit log names who did what', () => {
  it('records invitations and removals by the owner, and staff work under the staff member, with the role', async () => {
    const invited = await invite(t, owner.headers, 'auditee@example.com');
    const auditee = await loginAs(t, 'auditee@example.com', 'staff');
    const { orderId } = await seedPaidOrder(t, 'audit.buyer@example.com');
    const stage = await t.app.inject({
      method: 'POST',
      url: `/api/v1/admin/orders/${orderId}/stages/next`,
      headers: auditee.headers,
      payload: { note: 'Done by staff' },
    });
    expect(stage.statusCode, stage.body).toBe(200);
    expect((await remove(t, owner.headers, invited.json().member.id)).statusCode).toBe(200);
    const items = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/audit?pageSize=10', headers: owner.headers })).json().items as {
      action: string;
      actorEmail: string;
      actorRole: string;
      entityId: string;
      before: unknown;
      after: unknown;
    }[];
    const find = (action: string) => items.find((i) => i.action === action)!;
    expect(find('staff.invite')).toMatchObject({
      actorEmail: OWNER,
      actorRole: 'admin',
      entityId: invited.json().member.id,
      after: { email: 'auditee@example.com', role: 'staff' },
    });
    expect(find('order.stage.complete')).toMatchObject({ actorEmail: 'auditee@example.com', actorRole: 'staff', entityId: orderId });
    expect(find('staff.remove')).toMatchObject({
      actorEmail: OWNER,
      actorRole: 'admin',
      before: { email: 'auditee@example.com', role: 'staff' },
      after: { role: 'customer', sessionsEnded: 1 },
    });
    // The staff member's entry keeps its role after the person is a customer again.
    expect(await roleOf(t, 'auditee@example.com')).toBe('customer');
  });
});

describe('removing staff', () => {
  it('makes a customer again and ends every session and socket at once', async () => {
    const id = (await invite(t, owner.headers, 'leaver@example.com')).json().member.id as string;
    const leaver = await loginAs(t, 'leaver@example.com', 'staff');
    const second = await loginAs(t, 'leaver@example.com', 'staff');
    const { orderId } = await seedPaidOrder(t, 'leaver.buyer@example.com');
    const { gone } = await staffAtWork(t, await listening(t), leaver, orderId);
    const res = await remove(t, owner.headers, id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, revokedSessions: 2 });
    expect(await gone).toBe('io server disconnect');
    for (const who of [leaver, second]) {
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: who.headers })).statusCode).toBe(401);
    }
    expect(await roleOf(t, 'leaver@example.com')).toBe('customer');
    const staff = (await t.app.inject({ method: 'GET', url: '/api/v1/admin/staff', headers: owner.headers })).json().staff as {
      email: string;
    }[];
    expect(staff.map((m) => m.email)).not.toContain('leaver@example.com');
    // A fresh sign-in is a customer's.
    const back = await loginAs(t, 'leaver@example.com');
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: back.headers })).json()).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Admins only.',
    });
    // Twice, or an unknown id: 404; not a uuid: 400.
    expect((await remove(t, owner.headers, id)).statusCode).toBe(404);
    expect((await remove(t, owner.headers, 'not-a-uuid')).statusCode).toBe(400);
  });
});

const pgUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!pgUrl || process.env.TEST_DB !== 'postgres')('two instances on one PostgreSQL', () => {
  const apps = instancesOnPostgres(2, { ADMIN_EMAILS: OWNER });

  it("a removal on one instance cuts the member's socket and session on the other at once", async () => {
    const [a, b] = apps as [BuiltApp, BuiltApp];
    const [, urlB] = [await listening(a), await listening(b)];
    const boss = await loginAs(a, OWNER, 'admin');
    const id = (await invite(a, boss.headers, 'remote@example.com')).json().member.id as string;
    const remote = await loginAs(b, 'remote@example.com', 'staff');
    const { orderId } = await seedPaidOrder(a as TestApp, 'remote.buyer@example.com');
    // Working through instance B (which has the session cached); the owner removes them on A.
    const { gone } = await staffAtWork(b, urlB, remote, orderId);
    expect((await remove(a, boss.headers, id)).json()).toEqual({ success: true, revokedSessions: 1 });
    expect(await gone).toBe('io server disconnect');
    // The socket is cut through the socket adapter and B's session cache is dropped through the
    // invalidation bus (src/server/lib/invalidation-bus.ts): two channels, so B may hear of the
    // revocation a moment after the socket went. "At once" here is within that delivery, not a TTL.
    await expect
      .poll(async () => (await b.app.inject({ method: 'GET', url: '/api/v1/admin/orders', headers: remote.headers })).statusCode, {
        timeout: 1_000,
        interval: 25,
      })
      .toBe(401);
  });
});
