import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { OperationSpec } from './operation.ts';

// Every operation whose success answer carries a secret is marked `secretAnswer`, so the
// Idempotency-Key store never keeps it (docs/decisions/331-secrets-never-replayed.md). A secret is
// found by its field's name in the answer's schema (a token, a ticket, recovery codes, a secret);
// the site links carry theirs in the URL's fragment and are named here.

const SECRET_FIELD = /^(token|.*Token|signupTicket|handoff|recoveryCodes|.*[sS]ecret.*)$/;
const TOKEN_IN_URL = new Set([
  'POST /api/v1/orders/:orderId/reviews/:reviewId/site-link',
  'POST /api/v1/admin/orders/:orderId/reviews/:reviewId/site-link',
]);

function fieldNames(schema: unknown, out = new Set<string>()): Set<string> {
  if (!schema || typeof schema !== 'object') return out;
  const node = schema as Record<string, unknown>;
  if (node.properties && typeof node.properties === 'object') {
    for (const [name, sub] of Object.entries(node.properties)) {
      out.add(name);
      fieldNames(sub, out);
    }
  }
  for (const key of ['items', 'additionalProperties']) fieldNames(node[key], out);
  for (const key of ['anyOf', 'oneOf', 'allOf']) for (const sub of (node[key] as unknown[] | undefined) ?? []) fieldNames(sub, out);
  return out;
}

async function operations(): Promise<OperationSpec[]> {
  const files = readdirSync(new URL('.', import.meta.url)).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
  const found: OperationSpec[] = [];
  for (const file of files) {
    const mod = (await import(/* @vite-ignore */ new URL(file, import.meta.url).href)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      const op = value as Partial<OperationSpec> | null;
      if (op && typeof op === 'object' && typeof op.method === 'string' && typeof op.path === 'string' && op.responses)
        found.push(op as OperationSpec);
    }
  }
  return found;
}

describe('operations whose answer carries a secret', () => {
  it('are all marked secretAnswer, and only they are', async () => {
    const ops = await operations();
    expect(ops.length).toBeGreaterThan(100);
    const carrying: string[] = [];
    for (const op of ops) {
      const names = new Set<string>();
      for (const schema of Object.values(op.responses))
        fieldNames(z.toJSONSchema(schema as z.ZodType, { unrepresentable: 'any', io: 'output' }), names);
      const id = `${op.method} ${op.path}`;
      if ([...names].some((n) => SECRET_FIELD.test(n)) || TOKEN_IN_URL.has(id)) carrying.push(id);
    }
    const marked = ops.filter((op) => op.secretAnswer).map((op) => `${op.method} ${op.path}`);
    expect(carrying.sort()).toEqual(marked.sort());
    expect(marked.sort()).toEqual([
      'POST /api/v1/admin/orders/:orderId/reviews/:reviewId/site-link',
      'POST /api/v1/auth/authLogin',
      'POST /api/v1/auth/passkeys/login/verify',
      'POST /api/v1/auth/passkeys/registration/verify',
      'POST /api/v1/auth/verifyOtp',
      'POST /api/v1/orders/:orderId/reviews/:reviewId/site-link',
      'POST /api/v1/user/addUser',
    ]);
  });
});
