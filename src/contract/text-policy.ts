import { z } from 'zod';

// The one string policy of the API (docs/decisions/090-string-policy.md, extended by decision 130).
// It applies to every string a client sends — JSON bodies, path parameters, query strings (the
// server's validator compiler runs `applyTextPolicy` before any route schema) and socket payloads
// (their contract schemas use `safeString`). Refused with a 400 naming the field:
// - U+0000, which PostgreSQL text cannot hold;
// - lone UTF-16 surrogates, which have no UTF-8 encoding (the database, the mailer and
//   JSON.stringify would each mangle them);
// - every other C0 control character and DEL: invisible, never meant, and a way to forge lines or
//   run escape sequences in logs, terminals and CSV exports. Tab, line feed and carriage return
//   are the exception, and only in fields a schema marks `multiLine()` (a message, an address, a
//   note); everywhere else — names, e-mails, codes, query strings, paths — they are refused too.

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const CONTROL_IN_MULTI_LINE = /[\u0001-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
const CONTROL_IN_SINGLE_LINE = /[\u0001-\u001F\u007F]/;
const LINE_OR_TAB = /[\t\n\r]/;

export const TEXT_POLICY_MESSAGE = 'Text must not contain NUL or other control characters, or invalid Unicode (lone surrogates).';
export const SINGLE_LINE_MESSAGE = 'This field must be a single line: remove line breaks and tabs.';

export type Lines = 'single' | 'multi';

const codePoint = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Why a string is refused, or null when it is acceptable. */
export function refusedText(s: string, lines: Lines = 'single'): string | null {
  if (s.includes('\u0000')) return 'contains a NUL character (\\u0000)';
  if (LONE_SURROGATE.test(s)) return 'contains invalid Unicode (a lone surrogate)';
  const control = (lines === 'multi' ? CONTROL_IN_MULTI_LINE : CONTROL_IN_SINGLE_LINE).exec(s);
  if (!control) return null;
  if (LINE_OR_TAB.test(control[0])) return 'contains a line break or tab, which this field does not allow';
  return `contains a control character (${codePoint(control[0])})`;
}

// The mark of a multi-line schema: a no-op check. Zod copies a schema's checks into every schema
// derived from it (`.trim()`, `.max()`, …), so the mark survives chaining after `multiLine()`; the
// walk below unwraps `.optional()`, `.default()` and `.pipe()` around it to find it.
const MULTI_LINE = new WeakSet<object>();

type Def = {
  type?: string;
  checks?: object[];
  innerType?: unknown;
  in?: unknown;
  shape?: Record<string, unknown>;
  element?: unknown;
  valueType?: unknown;
  options?: unknown[];
  left?: unknown;
  right?: unknown;
};

/** Marks a string schema as multi-line text (tab, LF and CR allowed). Returns a marked copy. */
export function multiLine<T extends z.ZodType>(schema: T): T {
  const marked = schema.superRefine(() => {}) as T;
  const checks = defOf(marked)?.checks ?? [];
  const mark = checks[checks.length - 1];
  if (mark) MULTI_LINE.add(mark);
  return marked;
}

const defOf = (schema: unknown): Def | undefined => (schema as { _zod?: { def?: Def } } | undefined)?._zod?.def;
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'catch', 'readonly', 'nonoptional']);

/** The schema and every schema it wraps (optional, default, pipe input, …). */
function layers(schema: unknown): unknown[] {
  const out: unknown[] = [];
  let s = schema;
  for (let i = 0; s && i < 16; i++) {
    out.push(s);
    const def = defOf(s);
    if (def?.type && WRAPPERS.has(def.type)) s = def.innerType;
    else if (def?.type === 'pipe') s = def.in;
    else break;
  }
  return out;
}

/** True when the schema, something it wraps, or one of a union's options is marked multi-line. */
function marksMultiLine(schema: unknown, depth = 0): boolean {
  return layers(schema).some((l) => {
    const def = defOf(l);
    if (def?.checks?.some((c) => MULTI_LINE.has(c))) return true;
    return def?.type === 'union' && depth < 8 && (def.options ?? []).some((o) => marksMultiLine(o, depth + 1));
  });
}
const isMultiLine = (schemas: unknown[]) => schemas.some((s) => marksMultiLine(s));

/** The schemas that may describe `key` (an object key, or an array index when key is a number). */
function childSchemas(schemas: unknown[], key: string | number): unknown[] {
  const out: unknown[] = [];
  const visit = (s: unknown, depth: number) => {
    for (const layer of layers(s)) {
      const def = defOf(layer);
      if (!def || depth > 8) continue;
      if (def.type === 'object' && typeof key === 'string' && def.shape && Object.hasOwn(def.shape, key)) out.push(def.shape[key]);
      else if (def.type === 'array' && typeof key === 'number') out.push(def.element);
      else if (def.type === 'record') out.push(def.valueType);
      else if (def.type === 'union') for (const o of def.options ?? []) visit(o, depth + 1);
      else if (def.type === 'intersection') [def.left, def.right].forEach((o) => visit(o, depth + 1));
    }
  };
  for (const s of schemas) visit(s, 0);
  return out;
}

export type TextPolicyResult = { ok: true; value: unknown } | { ok: false; path: string; reason: string };

const MAX_DEPTH = 64;

/**
 * Walks a decoded request part (object keys included) beside its zod schema, if any, and returns
 * the first refused string and where it was. A string is multi-line only where the schema marks it
 * so; without a schema every string is single-line. The value is returned as a copy.
 */
export function applyTextPolicy(value: unknown, schema?: unknown): TextPolicyResult {
  return walk(value, schema === undefined ? [] : [schema], '', 0);
}

function walk(value: unknown, schemas: unknown[], path: string, depth: number): TextPolicyResult {
  if (typeof value === 'string') {
    const reason = refusedText(value, isMultiLine(schemas) ? 'multi' : 'single');
    return reason ? { ok: false, path, reason } : { ok: true, value };
  }
  if (value === null || typeof value !== 'object' || depth > MAX_DEPTH) return { ok: true, value };
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      const r = walk(value[i], childSchemas(schemas, i), `${path}[${i}]`, depth + 1);
      if (!r.ok) return r;
      out.push(r.value);
    }
    return { ok: true, value: out };
  }
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const keyReason = refusedText(key);
    if (keyReason) return { ok: false, path: path || 'field name', reason: keyReason };
    const r = walk(v, childSchemas(schemas, key), path ? `${path}.${key}` : key, depth + 1);
    if (!r.ok) return r;
    // Defined, never assigned: a key such as `__proto__` (e.g. `?__proto__=x`, which the query
    // parser hands over as an own property) stays a plain own property and cannot set the copy's
    // prototype.
    Object.defineProperty(out, key, { value: r.value, enumerable: true, writable: true, configurable: true });
  }
  return { ok: true, value: out };
}

/**
 * A zod string under the policy, for payloads that do not pass the HTTP validator (sockets) and
 * for schemas also used on their own. Single-line unless `{ multiLine: true }`.
 */
export const safeString = (opts: { multiLine?: boolean } = {}) => {
  const lines: Lines = opts.multiLine ? 'multi' : 'single';
  const schema = z.string().superRefine((s, ctx) => {
    const reason = refusedText(s, lines);
    if (reason)
      ctx.addIssue({ code: 'custom', message: reason.includes('line break') ? SINGLE_LINE_MESSAGE : TEXT_POLICY_MESSAGE, abort: true });
  });
  return opts.multiLine ? multiLine(schema) : schema;
};
