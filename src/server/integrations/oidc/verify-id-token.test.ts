import { describe, expect, it } from 'vitest';
import { expectedIssuer } from './verify-id-token.ts';

describe('expected issuer', () => {
  const entra = 'https://login.microsoftonline.com/{tenantid}/v2.0';

  it('is the metadata issuer for single-issuer providers', () => {
    expect(expectedIssuer('https://accounts.google.com', { tid: 'x' })).toBe('https://accounts.google.com');
  });

  it("is checked against the token's own tenant on Microsoft's multi-tenant endpoint", () => {
    const tid = '72f988bf-86f1-41af-91ab-2d7cd011db47';
    expect(expectedIssuer(entra, { tid })).toBe(`https://login.microsoftonline.com/${tid}/v2.0`);
  });

  it('never matches a token without a tenant or with a crafted one', () => {
    expect(expectedIssuer(entra, {})).toBe('https://login.microsoftonline.com/invalid-tenant/v2.0');
    expect(expectedIssuer(entra, { tid: '../evil' })).toContain('invalid-tenant');
  });
});
