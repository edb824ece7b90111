import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { clientAddress } from './client-address.ts';

const req = (peer: string, xff?: string) =>
  ({ socket: { remoteAddress: peer }, headers: xff ? { 'x-forwarded-for': xff } : {} }) as unknown as IncomingMessage;

describe('clientAddress', () => {
  it.each([
    ['ignores X-Forwarded-For without TRUST_PROXY', req('10.0.0.9', '1.1.1.1'), undefined, '10.0.0.9'],
    ['takes the address one hop behind the proxy', req('10.0.0.9', '6.6.6.6, 2.2.2.2'), '1', '2.2.2.2'],
    ['cannot be spoofed past the trusted hops', req('10.0.0.9', 'spoofed, 2.2.2.2'), '1', '2.2.2.2'],
    ['takes the left-most with TRUST_PROXY=true', req('10.0.0.9', '3.3.3.3, 2.2.2.2'), 'true', '3.3.3.3'],
    ['falls back to the peer without the header', req('10.0.0.9'), '1', '10.0.0.9'],
  ])('%s', (_name, r, trust, expected) => {
    expect(clientAddress(r, trust)).toBe(expected);
  });
});
