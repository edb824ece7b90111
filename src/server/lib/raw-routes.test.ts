import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RAW_ROUTES } from './raw-routes.ts';

// Every schema'd route comes from a contract operation; the exceptions are the list in raw-routes.ts
// (docs/decisions/340-mails-in-their-transaction.md, "Raw routes").

const SRC = fileURLToPath(new URL('../../', import.meta.url));

function serverFiles(dir = join(SRC, 'server')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? serverFiles(join(dir, e.name))
      : /\.ts$/.test(e.name) && !/\.test\.ts$/.test(e.name)
        ? [relative(SRC, join(dir, e.name))]
        : [],
  );
}

/** `app.get('/x', …)` and `app.post(\n '/x', …)`: the raw registrations of one file's text. */
export function rawRegistrations(text: string): { method: string; path: string }[] {
  return [...text.matchAll(/\bapp\.(get|post|put|patch|delete|head)\(\s*['"`]([^'"`]+)['"`]/g)].map((m) => ({
    method: m[1]!.toUpperCase(),
    path: m[2]!,
  }));
}

describe('raw routes', () => {
  const found = serverFiles().flatMap((file) => rawRegistrations(readFileSync(join(SRC, file), 'utf8')).map((r) => ({ file, ...r })));
  const key = (r: { file: string; method: string; path: string }) => `${r.method} ${r.path} (${r.file})`;

  it('every route registered without an operation is in the one list, with its reason', () => {
    const listed = new Set(RAW_ROUTES.map(key));
    expect(found.map(key).filter((k) => !listed.has(k))).toEqual([]);
    for (const r of RAW_ROUTES) expect(r.why.length, key(r)).toBeGreaterThan(10);
  });

  it('every listed route still exists', () => {
    const registered = new Set(found.map(key));
    expect(RAW_ROUTES.map(key).filter((k) => !registered.has(k))).toEqual([]);
  });

  it('no app.route() outside lib/route.ts', () => {
    expect(serverFiles().filter((f) => f !== 'server/lib/route.ts' && /\bapp\.route\(/.test(readFileSync(join(SRC, f), 'utf8')))).toEqual(
      [],
    );
  });

  it('the scan finds planted raw routes', () => {
    expect(rawRegistrations("app.post(\n  '/orders/:id/x',\n  { schema: {} },\n  handler,\n);\napp.get('/y', h);")).toEqual([
      { method: 'POST', path: '/orders/:id/x' },
      { method: 'GET', path: '/y' },
    ]);
  });
});
