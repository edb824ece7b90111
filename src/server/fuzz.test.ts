import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../tests/helpers/test-app.ts';
import { createSession } from './features/auth/sessions.ts';
import { registeredRoutes } from './features/admin/route-walk.ts';

// Every operation of the (full, admin) OpenAPI document — and the aliases
// that reach one of them under another spelling (the hidden /chat/chat) — gets NUL bytes, lone
// surrogates, 1 MB strings, 90 KB strings (under the 100 KB body limit) and wrong types in its
// path, query and body, as a visitor, a customer and an admin, each request with a fresh session
// (a sign-out among the operations ends only its own). It never answers 5xx; a NUL or a lone
// surrogate in a declared input is a 400 from the string policy (decision 090) for whoever may call
// the operation; a 90 KB body is read, never refused as too large. One pass per operation and variant.

vi.setConfig({ testTimeout: 300_000, hookTimeout: 300_000 });

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
}
interface Operation {
  parameters?: { in: string; name: string; schema?: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
type Variant = 'nul' | 'surrogate' | 'huge' | 'large' | 'wrongType';

const MB = 'x'.repeat(1024 * 1024);
const LARGE = 'y'.repeat(90 * 1024);
const HUGE = 'HUGE-STRING-MARKER';
const BIG = 'LARGE-STRING-MARKER';
const text: Record<Exclude<Variant, 'wrongType'>, string> = { nul: 'a\u0000b', surrogate: 'a\ud800b', huge: HUGE, large: BIG };
// One 1 MB string per body is enough (the body limit is 100 KB); more would only cost time. The
// 90 KB string also goes in once (the body stays under the limit), the other fields get a short one.
const serialise = (body: unknown) => {
  const once = (json: string, marker: string, value: string, others: string) => {
    const [first, ...rest] = json.split(marker);
    return rest.length ? `${first}${value}${rest.join(others)}` : first!;
  };
  return once(once(JSON.stringify(body), HUGE, MB, 'x'), BIG, LARGE, 'y');
};
// Path segments and query values as a client would put them on the wire.
const wire: Record<Variant, string> = {
  nul: 'a%00b',
  surrogate: 'a%ED%A0%80b',
  huge: 'x'.repeat(8 * 1024),
  large: 'y'.repeat(2 * 1024),
  wrongType: '%7B%7D',
};
const VARIANTS = ['nul', 'surrogate', 'huge', 'large', 'wrongType'] as const;

const typeOf = (s: JsonSchema | undefined): string => {
  const t = s?.type ?? s?.anyOf?.[0]?.type ?? s?.oneOf?.[0]?.type;
  return (Array.isArray(t) ? t[0] : t) ?? 'string';
};

/** A value of the wrong type for a schema: numbers get strings, strings get objects, and so on. */
function wrongValue(s: JsonSchema | undefined): unknown {
  switch (typeOf(s)) {
    case 'string':
      return { nested: ['x'] };
    case 'number':
    case 'integer':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    default:
      return 12345;
  }
}

/** The body of one variant: every property (one level deep, and inside objects) gets the bad value. */
function fuzzBody(s: JsonSchema | undefined, variant: Variant, depth = 0): unknown {
  if (variant === 'wrongType' && depth > 0) return wrongValue(s);
  const t = typeOf(s);
  if (t === 'object' || s?.properties) {
    const props = s?.properties ?? {};
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(props))
      out[k] = depth < 2 ? fuzzBody(v, variant, depth + 1) : variant === 'wrongType' ? wrongValue(v) : text[variant];
    if (!Object.keys(out).length) out.field = variant === 'wrongType' ? 1 : text[variant];
    if (variant === 'nul' || variant === 'surrogate') out[`k${text[variant]}`] = 'key';
    return out;
  }
  if (t === 'array') return [fuzzBody(s?.items, variant, depth + 1)];
  if (variant === 'wrongType') return wrongValue(s);
  return text[variant];
}

/** Operations with their own, smaller body limit: a 90 KB body is too large for them by design. */
const OWN_BODY_LIMIT: Record<string, number> = { 'POST /api/v1/payment/webhook': 64 * 1024 };

/**
 * Whether the variant's bad character reaches an input the policy reads: a path parameter, a JSON
 * body, or (NUL only) a declared query parameter. A lone surrogate cannot be sent in a query: its
 * UTF-8 form `%ED%A0%80` is not valid UTF-8, and the query parser keeps such a value as the literal
 * text "%ED%A0%80" (harmless; the route's schema judges it).
 */
const policyApplies = (variant: Variant, path: string, op: Operation) =>
  /\{\w+\}/.test(path) ||
  !!op.requestBody?.content?.['application/json'] ||
  (variant === 'nul' && (op.parameters ?? []).some((p) => p.in === 'query'));

let t: TestApp;
let operations: { method: string; path: string; op: Operation; alias?: string }[] = [];
const users: Record<'customer' | 'admin', string> = { customer: '', admin: '' };

/** A new session per request: a sign-out (or "sign out everywhere") among the operations ends only its own. */
async function headersOf(role: 'visitor' | 'customer' | 'admin'): Promise<Record<string, string>> {
  if (role === 'visitor') return {};
  return { authorization: `Bearer ${await createSession(t.deps.db, users[role], 'fuzz')}` };
}

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await loginAs(t, 'fuzz.admin@example.com', 'admin');
  users.admin = admin.user.id;
  users.customer = (await loginAs(t, 'fuzz.customer@example.com')).user.id;
  const doc = (await t.app.inject({ url: '/api/openapi.json', headers: admin.headers })).json() as {
    paths: Record<string, Record<string, Operation>>;
  };
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
  // Routes the document does not list that differ from a listed operation only by a trailing slash
  // (aliases such as /chat/chat for the spec's /chat/chat/) are the same operation: fuzzed with its schema.
  const listed = new Map(operations.map((o) => [`${o.method} ${o.path}`, o]));
  for (const r of registeredRoutes(t.app)) {
    const path = r.url.replace(/:(\w+)/g, '{$1}');
    if (!path.startsWith('/api/') || listed.has(`${r.method} ${path}`)) continue;
    const twin = listed.get(`${r.method} ${path.endsWith('/') ? path.slice(0, -1) : `${path}/`}`);
    if (twin) operations.push({ ...twin, path, alias: twin.path });
  }
  // The assistant's bare spelling, rewritten to its operation's path before routing (features/assistant/routes.ts).
  const assistant = listed.get('POST /api/v1/chat/chat/');
  if (assistant) operations.push({ ...assistant, path: '/api/v1/chat/chat', alias: assistant.path });
});
afterAll(() => t?.close());

describe('fuzz of every OpenAPI operation', () => {
  it('answers no 5xx to NUL bytes, lone surrogates, 1 MB and 90 KB strings and wrong types; 400 to NUL and lone surrogates', async () => {
    expect(operations.length).toBeGreaterThan(40);
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining(['POST /api/v1/chat/chat/', 'POST /api/v1/chat/chat']),
    );
    const failures: string[] = [];
    let sent = 0;
    let refusedByPolicy = 0;
    let largeBodies = 0;
    const started = Date.now();
    let address = 0;
    for (const { method, path, op } of operations) {
      const query = (op.parameters ?? []).filter((p) => p.in === 'query');
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      for (const variant of VARIANTS) {
        const url =
          path.replace(/\{(\w+)\}/g, () => wire[variant]) +
          (query.length ? `?${query.map((p) => `${p.name}=${wire[variant]}`).join('&')}` : `?q=${wire[variant]}`);
        const payload = method === 'GET' || method === 'DELETE' ? undefined : serialise(fuzzBody(bodySchema, variant));
        for (const role of ['visitor', 'customer', 'admin'] as const) {
          // Each request from its own address, so per-address limits do not hide the handlers.
          const remoteAddress = `10.77.${Math.floor(++address / 250)}.${address % 250}`;
          const res = await t.app.inject({
            method: method as 'GET',
            url,
            headers: { ...(await headersOf(role)), ...(payload ? { 'content-type': 'application/json' } : {}) },
            payload,
            remoteAddress,
          });
          sent++;
          const label = `${role} ${method} ${path} [${variant}] → ${res.statusCode} ${res.body.slice(0, 120)}`;
          if (res.statusCode >= 500) failures.push(label);
          // Every refusal in the API's one error shape, whoever produced it (route, validator, Fastify).
          if (res.statusCode >= 400 && res.headers['content-type']?.toString().startsWith('application/json')) {
            const body = res.json() as { success?: unknown; code?: unknown; message?: unknown };
            if (body.success !== false || typeof body.code !== 'string' || typeof body.message !== 'string')
              failures.push(`${label} (not the error shape)`);
          } else if (res.statusCode >= 400) failures.push(`${label} (not JSON)`);
          if ((variant === 'nul' || variant === 'surrogate') && policyApplies(variant, path, op)) {
            // The admin may call every operation: the policy answers. Others may be stopped by the guard first.
            const allowed = role === 'admin' ? [400] : [400, 401, 403];
            if (!allowed.includes(res.statusCode)) failures.push(`${label} (expected ${allowed.join(' or ')})`);
            else if (res.statusCode === 400) {
              refusedByPolicy++;
              if (!/NUL character|lone surrogate/.test(res.json().message as string)) failures.push(`${label} (unclear message)`);
            }
          }
          if (variant === 'large' && payload) {
            largeBodies++;
            if (payload.length >= 100 * 1024) failures.push(`${label} (the 90 KB body is over the limit: ${payload.length})`);
            else if (res.statusCode === 413 && payload.length < (OWN_BODY_LIMIT[`${method} ${path}`] ?? 100 * 1024)) {
              failures.push(`${label} (a body under the limit was refused as too large)`);
            }
          }
        }
      }
    }
    console.log(
      `fuzz: ${operations.length} operations, ${sent} requests (${refusedByPolicy} refused by the string policy, ` +
        `${largeBodies} 90 KB bodies) in ${Date.now() - started} ms`,
    );
    expect(sent).toBeGreaterThan(40 * 15);
    expect(refusedByPolicy).toBeGreaterThan(40);
    expect(largeBodies).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });
});
