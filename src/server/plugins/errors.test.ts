import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildTestApp, type TestApp } from '../../../tests/helpers/test-app.ts';

// A route declared here exercises the shared validation and error handling the way every
// feature route uses it.
let t: TestApp;
let stored: unknown[] = [];
beforeAll(async () => {
  t = await buildTestApp();
  t.app
    .withTypeProvider<ZodTypeProvider>()
    .post('/api/v1/__echo', { schema: { body: z.object({ name: z.string().max(5), age: z.number().int() }) } }, async (req) => {
      stored.push(req.body);
      return { ok: true };
    });
  t.app.get('/api/v1/__boom', async () => {
    throw new Error('secret database password leaked in message');
  });
});
afterAll(async () => {
  await t.close();
});

const post = (payload: string, contentType = 'application/json') =>
  t.app.inject({ method: 'POST', url: '/api/v1/__echo', payload, headers: { 'content-type': contentType } });

describe('bad input', () => {
  it('refuses malformed JSON with 400', async () => {
    const res = await post('{"name": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'BAD_REQUEST' });
  });

  it('refuses a wrong content type with 415', async () => {
    const res = await post('name=a', 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ success: false, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('refuses an oversized body with 413', async () => {
    const res = await post(JSON.stringify({ name: 'a', age: 1, pad: 'x'.repeat(200 * 1024) }));
    expect(res.statusCode).toBe(413);
    expect(res.json().code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('names a missing field', async () => {
    const res = await post(JSON.stringify({ name: 'abc' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('age');
  });

  it('names a wrongly typed or too long field', async () => {
    const res = await post(JSON.stringify({ name: 'abcdefgh', age: 'old' }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/name/);
    expect(res.json().message).toMatch(/age/);
  });

  it('drops unknown fields', async () => {
    stored = [];
    const res = await post(JSON.stringify({ name: 'abc', age: 3, isAdmin: true }));
    expect(res.statusCode).toBe(200);
    expect(stored).toEqual([{ name: 'abc', age: 3 }]);
  });

  it('never leaks internals of an unexpected error', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/__boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('secret');
    expect(res.body).not.toContain('at ');
    expect(res.json()).toEqual({ success: false, code: 'INTERNAL', message: 'Something went wrong. Please try again.' });
  });
});
