import { z } from 'zod';

// The one string policy of the API (docs/decisions/090-string-policy.md). It applies to every
// string a client sends — JSON bodies, path parameters, query strings (the server's validator
// compiler runs `applyTextPolicy` before any route schema) and socket payloads (their contract
// schemas use `safeString`):
// - refused (400): U+0000, which PostgreSQL text cannot hold, and lone UTF-16 surrogates, which
//   have no UTF-8 encoding (the database, the mailer and JSON.stringify would each mangle them);
// - normalised (removed): the other C0 control characters and DEL, except tab, line feed and
//   carriage return — invisible, never meant, and a way to forge lines in logs and terminals.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const STRIPPED = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

export const TEXT_POLICY_MESSAGE = 'Text must not contain NUL characters (\\u0000) or invalid Unicode (lone surrogates).';

/** Why a string is refused, or null when it is acceptable. */
export function refusedText(s: string): string | null {
  if (s.includes('\u0000')) return 'contains a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(s)) return 'contains invalid Unicode (a lone surrogate)';
  return null;
}

/** Removes the control characters the policy normalises away. */
export const stripControls = (s: string) => (STRIPPED.test(s) ? s.replace(STRIPPED, '') : s);

export type TextPolicyResult = { ok: true; value: unknown } | { ok: false; path: string; reason: string };

const MAX_DEPTH = 64;

/**
 * Walks a decoded request part (object keys included) and returns it with control characters
 * stripped, or the first refused string and where it was. Values are copied, never mutated.
 */
export function applyTextPolicy(value: unknown, path = '', depth = 0): TextPolicyResult {
  if (typeof value === 'string') {
    const reason = refusedText(value);
    return reason ? { ok: false, path, reason } : { ok: true, value: stripControls(value) };
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return { ok: true, value };
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const r = applyTextPolicy(value[i], `${path}[${i}]`, depth + 1);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return { ok: true, value: out };
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const keyReason = refusedText(key);
    if (keyReason) return { ok: false, path: path || 'field name', reason: keyReason };
    const r = applyTextPolicy(v, path ? `${path}.${key}` : key, depth + 1);
    if (!r.ok) return r;
    // Defined, never assigned: a key such as `__proto__` (e.g. `?__proto__=x`, which the query
    // parser hands over as an own property) stays a plain own property and cannot set the copy's
    // prototype.
    Object.defineProperty(out, stripControls(key), { value: r.value, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value: out };
}

/** A zod string under the policy, for payloads that do not pass the HTTP validator (sockets). */
export const safeString = () =>
  z
    .string()
    .refine((s) => refusedText(s) === null, { message: TEXT_POLICY_MESSAGE, abort: true })
    .overwrite(stripControls);
