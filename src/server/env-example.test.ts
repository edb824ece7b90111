import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { envSchema } from './config.ts';
import { gstinProblem } from '../domain/gst.ts';

// `.env.example` lists every variable config.ts reads, with a comment (README "Configuration",
// docs/decisions/334-refund-footer-and-env-example.md). The variables are read from the schema
// itself, so a variable added to config.ts without a line here fails this test.

const example = readFileSync(new URL('../../.env.example', import.meta.url), 'utf8');
/** Every `NAME=` at the start of a line, set or commented out (`# NAME=`). */
const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!));
const sample = (name: string) => example.match(new RegExp(`^#?\\s*${name}=(\\S+)`, 'm'))?.[1];

describe('.env.example', () => {
  it('lists every variable config.ts reads, and none it does not', () => {
    const read = Object.keys(envSchema.shape).sort();
    expect(
      read.filter((v) => !listed.has(v)),
      'read by config.ts, missing from .env.example',
    ).toEqual([]);
    expect([...listed].filter((v) => !read.includes(v)).sort(), 'in .env.example, never read by config.ts').toEqual([]);
  });

  it('gives sample GSTINs with the right check character', () => {
    for (const name of ['SELLER_GSTIN', 'SELLER_TAX_ID']) {
      const v = sample(name);
      expect(v, `${name} has a sample`).toBeTruthy();
      expect(gstinProblem(v!), `${name}=${v}`).toBeNull();
    }
  });
});
