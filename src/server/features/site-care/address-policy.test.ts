import { describe, expect, it } from 'vitest';
import { isPublicAddress, urlProblem } from './address-policy.ts';
import { rdapNames } from './probe.ts';

// The address policy without I/O (docs/decisions/325-site-checks-in-the-job-pass.md).
describe('isPublicAddress', () => {
  it('accepts public IPv4 and IPv6 addresses', () => {
    for (const a of ['93.184.215.14', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])
      expect(isPublicAddress(a), a).toBe(true);
  });
  it('refuses loopback, private, link-local, metadata, CGNAT, reserved and multicast, IPv4-mapped ones too', () => {
    for (const a of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.1',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '198.18.0.1',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd00:ec2::254',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '::ffff:169.254.169.254',
      'not-an-ip',
    ])
      expect(isPublicAddress(a), a).toBe(false);
    expect(isPublicAddress('172.32.0.1')).toBe(true);
  });
});

describe('urlProblem', () => {
  it('takes http(s) URLs with a host and no credentials', () => {
    expect(urlProblem('https://example.com/shop')).toBeNull();
    expect(urlProblem('http://example.com:8080/')).toBeNull();
    expect(urlProblem('ftp://example.com/')).toMatch(/http/);
    expect(urlProblem('javascript:alert(1)')).toMatch(/http/);
    expect(urlProblem('https://user:pw@example.com/')).toMatch(/password/);
    expect(urlProblem('example.com')).toMatch(/full URL/);
  });
});

describe('rdapNames', () => {
  it('asks for the host, then each parent down to two labels; none for an address or a bare name', () => {
    expect(rdapNames('www.shop.example.in')).toEqual(['www.shop.example.in', 'shop.example.in', 'example.in']);
    expect(rdapNames('Example.COM.')).toEqual(['example.com']);
    expect(rdapNames('127.0.0.1')).toEqual([]);
    expect(rdapNames('[::1]')).toEqual([]);
    expect(rdapNames('localhost')).toEqual([]);
  });
});
