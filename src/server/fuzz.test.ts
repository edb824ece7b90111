import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../tests/helpers/test-app.ts';

// Issue 13 "Done when": every operation of the (full, admin) OpenAPI document gets NUL bytes,
// lone surrogates, 1 MB strings and wrong types in its path, query and body, as a visitor, a
// customer and an admin — and never answers 5xx. One pass per operation and variant.

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
type Variant = 'nul' | 'surrogate' | 'huge' | 'wrongType';

const MB = 'x'.repeat(1024 * 1024);
const HUGE = 'HUGE-STRING-MARKER';
const text: Record<Exclude<Variant, 'wrongType'>, string> = { nul: 'a\u0000b', surrogate: 'a\ud800b', huge: HUGE };
// One 1 MB string per body is enough (the body limit is 100 kB); more would only cost time.
const serialise = (body: unknown) => {
  const [first, ...rest] = JSON.stringify(body).split(HUGE);
  return rest.length ? `${first}${MB}${rest.join('x')}` : first!;
};
// Path segments and query values as a client would put them on the wire.
const wire: Record<Variant, string> = { nul: 'a%00b', surrogate: 'a%ED%A0%80b', huge: 'x'.repeat(8 * 1024), wrongType: '%7B%7D' };

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
    for (const [k, v] of Object.entries(props)) out[k] = depth < 2 ? fuzzBody(v, variant, depth + 1) : variant === 'wrongType' ? wrongValue(v) : text[variant];
    if (!Object.keys(out).length) out.field = variant === 'wrongType' ? 1 : text[variant];
    if (variant !== 'wrongType') out[`k${text[variant].slice(0, 3)}`] = 'key';
    return out;
  }
  if (t === 'array') return [fuzzBody(s?.items, variant, depth + 1)];
  if (variant === 'wrongType') return wrongValue(s);
  return text[variant];
}

let t: TestApp;
let operations: { method: string; path: string; op: Operation }[] = [];
const who: Record<'visitor' | 'customer' | 'admin', Record<string, string>> = { visitor: {}, customer: {}, admin: {} };

beforeAll(async () => {
  t = await buildTestApp();
  const admin = await loginAs(t, 'fuzz.admin@example.com', 'admin');
  who.admin = admin.headers;
  who.customer = (await loginAs(t, 'fuzz.customer@example.com')).headers;
  const doc = (await t.app.inject({ url: '/api/openapi.json', headers: admin.headers })).json() as { paths: Record<string, Record<string, Operation>> };
  operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
  // Signing out would end the session the next operations use: those run last.
  operations.sort((a, b) => Number(/logout/i.test(a.path)) - Number(/logout/i.test(b.path)));
});
afterAll(() => t?.close());

describe('fuzz of every OpenAPI operation', () => {
  it('answers no 5xx to NUL bytes, lone surrogates, 1 MB strings and wrong types', async () => {
    expect(operations.length).toBeGreaterThan(40);
    const failures: string[] = [];
    let sent = 0;
    const started = Date.now();
    let address = 0;
    for (const { method, path, op } of operations) {
      const query = (op.parameters ?? []).filter((p) => p.in === 'query');
      const bodySchema = op.requestBody?.content?.['application/json']?.schema;
      for (const variant of ['nul', 'surrogate', 'huge', 'wrongType'] as const) {
        const url =
          path.replace(/\{(\w+)\}/g, () => wire[variant]) +
          (query.length ? `?${query.map((p) => `${p.name}=${wire[variant]}`).join('&')}` : `?q=${wire[variant]}`);
        const payload = method === 'GET' || method === 'DELETE' ? undefined : serialise(fuzzBody(bodySchema, variant));
        for (const [role, headers] of Object.entries(who)) {
          // Each request from its own address, so per-address limits do not hide the handlers.
          const remoteAddress = `10.77.${Math.floor(++address / 250)}.${address % 250}`;
          const res = await t.app.inject({
            method: method as 'GET',
            url,
            headers: { ...headers, ...(payload ? { 'content-type': 'application/json' } : {}) },
            payload,
            remoteAddress,
          });
          sent++;
          if (res.statusCode >= 500) failures.push(`${role} ${method} ${path} [${variant}] → ${res.statusCode} ${res.body.slice(0, 120)}`);
        }
      }
    }
    console.log(`fuzz: ${operations.length} operations, ${sent} requests in ${Date.now() - started} ms`);
    expect(sent).toBeGreaterThan(40 * 12);
    expect(failures).toEqual([]);
  });
});
