import { describe, expect, it } from 'vitest';
import { billingDetailsBody } from './invoices.ts';
import { TEXT_POLICY_MESSAGE, applyTextPolicy, safeString } from './text-policy.ts';

describe('applyTextPolicy', () => {
  it('keeps a __proto__ key as an own property and never changes the prototype', () => {
    // What the query parser hands over for `?__proto__[polluted]=1`-style input, or JSON.parse for a body.
    const input = JSON.parse('{"__proto__": {"polluted": true}, "constructor": {"prototype": {"polluted": true}}, "ok": "a\\u0007b"}') as object;
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

  it('refuses NUL and lone surrogates, in values and keys, and strips other controls', () => {
    expect(applyTextPolicy({ a: ['x', 'y\u0000'] })).toEqual({ ok: false, path: 'a[1]', reason: 'contains a NUL character (\\u0000)' });
    expect(applyTextPolicy({ 'k\uD800': 1 })).toMatchObject({ ok: false, reason: 'contains invalid Unicode (a lone surrogate)' });
    expect(applyTextPolicy('tab\tnew\nline\u001b')).toEqual({ ok: true, value: 'tab\tnew\nline' });
    expect(safeString().safeParse('a\u0000').success).toBe(false);
    expect(safeString().parse('a\u0001b')).toBe('ab');
  });
});

describe('billing details follow the same policy (decision 090)', () => {
  it('removes control characters and refuses NUL with the policy message', () => {
    expect(billingDetailsBody.parse({ billingName: ' Acme\u0007 Ltd\u001b ', billingAddress: 'Line 1\nLine 2' })).toMatchObject({
      billingName: 'Acme Ltd',
      billingAddress: 'Line 1\nLine 2',
    });
    const refused = billingDetailsBody.safeParse({ billingName: 'Acme\u0000' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(TEXT_POLICY_MESSAGE);
    expect(billingDetailsBody.safeParse({ billingName: 'x'.repeat(121) }).error?.issues[0]?.message).toBe('The billing name can be at most 120 characters.');
  });
});
