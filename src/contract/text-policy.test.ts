import { describe, expect, it } from 'vitest';
import { billingDetailsBody } from './invoices.ts';
import { z } from 'zod';
import { SINGLE_LINE_MESSAGE, TEXT_POLICY_MESSAGE, applyTextPolicy, multiLine, safeString } from './text-policy.ts';

describe('applyTextPolicy', () => {
  it('keeps a __proto__ key as an own property and never changes the prototype', () => {
    // What the query parser hands over for `?__proto__[polluted]=1`-style input, or JSON.parse for a body.
    const input = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "ok": "ab"}') as object;
    const r = applyTextPolicy({ nested: input });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const nested = (r.value as { nested: Record<string, unknown> }).nested;
    expect(Object.getPrototypeOf(nested)).toBe(Object.prototype);
    expect(Object.hasOwn(nested, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(nested, '__proto__')?.value).toEqual({ polluted: true });
    expect((nested as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
    expect(nested.ok).toBe('ab');
    expect(Object.keys(nested)).toEqual(['__proto__', 'constructor', 'ok']);
  });

  it('a string prototype key from a query string is kept as data too', () => {
    const q = Object.create(null) as Record<string, string>;
    q.__proto__ = 'a';
    q.q = 'x';
    const r = applyTextPolicy(q);
    expect(r.ok && Object.getPrototypeOf(r.value)).toBe(Object.prototype);
    expect(r.ok && Object.getOwnPropertyDescriptor(r.value, '__proto__')?.value).toBe('a');
  });

  it('refuses NUL and lone surrogates, in values and keys', () => {
    expect(applyTextPolicy({ a: ['x', 'y\u0000'] })).toEqual({ ok: false, path: 'a[1]', reason: 'contains a NUL character (\\u0000)' });
    expect(applyTextPolicy({ 'k\uD800': 1 })).toMatchObject({ ok: false, reason: 'contains invalid Unicode (a lone surrogate)' });
    expect(safeString().safeParse('a\u0000').success).toBe(false);
  });

  it('refuses every other C0 control and DEL, and line breaks and tabs outside multi-line fields', () => {
    for (const c of ['\u0001', '\u0008', '\u000b', '\u000c', '\u001b', '\u001f', '\u007f']) {
      const code = `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
      expect(applyTextPolicy({ a: `x${c}` })).toEqual({ ok: false, path: 'a', reason: `contains a control character (${code})` });
      expect(safeString({ multiLine: true }).safeParse(`x${c}`).success).toBe(false);
    }
    expect(applyTextPolicy({ a: 'one\ntwo' })).toMatchObject({
      ok: false,
      reason: 'contains a line break or tab, which this field does not allow',
    });
    expect(applyTextPolicy('tab\there')).toMatchObject({ ok: false });
    expect(applyTextPolicy({ 'key\u001b': 'v' })).toMatchObject({ ok: false, path: 'field name' });
    expect(safeString().safeParse('a\nb').error?.issues[0]?.message).toBe(SINGLE_LINE_MESSAGE);
    expect(safeString({ multiLine: true }).parse('a\tb\r\nc')).toBe('a\tb\r\nc');
    // Printable text, emoji and right-to-left scripts pass untouched.
    expect(applyTextPolicy({ a: 'Ünïcødé 👋 مرحبا' })).toEqual({ ok: true, value: { a: 'Ünïcødé 👋 مرحبا' } });
  });

  it('finds multi-line fields through optional, default, pipe, arrays, records and unions', () => {
    const schema = z.object({
      note: multiLine(z.string().trim()).optional(),
      lines: z.array(multiLine(z.string())).default([]),
      answers: z.record(z.string(), z.union([multiLine(z.string()), z.array(z.string())])),
      nested: z
        .object({
          body: multiLine(
            z
              .string()
              .transform((s) => s.trim())
              .pipe(z.string().min(1)),
          ),
        })
        .nullable(),
      title: z.string(),
    });
    const ok = { note: 'a\nb', lines: ['c\nd'], answers: { about: 'e\nf' }, nested: { body: 'g\nh' }, title: 'one line' };
    expect(applyTextPolicy(ok, schema)).toEqual({ ok: true, value: ok });
    expect(applyTextPolicy({ ...ok, title: 'two\nlines' }, schema)).toMatchObject({ ok: false, path: 'title' });
    // An unknown key is single-line: no schema marks it.
    expect(applyTextPolicy({ ...ok, extra: 'x\ny' }, schema)).toMatchObject({ ok: false, path: 'extra' });
    // The mark survives chaining after it (zod copies checks into derived schemas).
    const chained = z.object({
      a: multiLine(z.string()).trim().max(50),
      b: safeString({ multiLine: true }).trim().max(50).optional().default(''),
    });
    expect(applyTextPolicy({ a: 'x\ny', b: 'z\r\nw' }, chained)).toMatchObject({ ok: true });
    // Multi-line still refuses the other controls.
    expect(applyTextPolicy({ ...ok, note: 'a\u001bb' }, schema)).toMatchObject({ ok: false, path: 'note' });
  });
});

describe('billing details follow the same policy (decision 090)', () => {
  it('refuses control characters and NUL with the policy message', () => {
    expect(billingDetailsBody.parse({ billingName: ' Acme Ltd ', billingAddress: 'Line 1\nLine 2' })).toMatchObject({
      billingName: 'Acme Ltd',
      billingAddress: 'Line 1\nLine 2',
    });
    expect(billingDetailsBody.safeParse({ billingName: 'Acme\u0007 Ltd' }).error?.issues[0]?.message).toBe(TEXT_POLICY_MESSAGE);
    expect(billingDetailsBody.safeParse({ billingName: 'Acme\nLtd' }).error?.issues[0]?.message).toBe(SINGLE_LINE_MESSAGE);
    const refused = billingDetailsBody.safeParse({ billingName: 'Acme\u0000' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(TEXT_POLICY_MESSAGE);
    expect(billingDetailsBody.safeParse({ billingName: 'x'.repeat(121) }).error?.issues[0]?.message).toBe(
      'The billing name can be at most 120 characters.',
    );
  });
});
