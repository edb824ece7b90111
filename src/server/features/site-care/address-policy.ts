import { BlockList, isIP } from 'node:net';
import { lookup as dnsLookup } from 'node:dns/promises';

// Only public addresses are fetched (docs/decisions/325-site-checks-in-the-job-pass.md): a watched
// URL is typed by the agency, and a check that followed it to 127.0.0.1, the private network or
// the cloud's metadata address would let the app be aimed at itself. The name is resolved once, every
// address it resolves to is checked, and the connection is pinned to the checked one (no second
// lookup between the check and the connect: no DNS-rebinding gap). Redirects go through the same.

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, with the cloud metadata address 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  blocked.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local, with AWS's fd00:ec2::254 metadata
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
] as const)
  blocked.addSubnet(net, bits, 'ipv6');

/** Whether an IP address is a public one (not loopback, private, link-local, metadata, reserved). */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !blocked.check(address, 'ipv4');
  if (family === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return isPublicAddress(mapped[1]!);
    return !blocked.check(address, 'ipv6');
  }
  return false;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a name to its addresses (the system resolver; tests may give their own). */
export type Resolve = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolve: Resolve = async (hostname) => {
  const all = await dnsLookup(hostname, { all: true, verbatim: true });
  return all.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

export class AddressRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AddressRefused';
  }
}

/**
 * The address to connect to for `hostname`: every address it resolves to must be public (one
 * private among them refuses the name: which one the connection would take is not ours to choose),
 * unless `allowPrivate`. Throws AddressRefused, or the resolver's error for an unknown name.
 */
export async function pinnedAddress(
  hostname: string,
  opts: { allowPrivate: boolean; resolve: Resolve; isPublic?: (address: string) => boolean },
): Promise<ResolvedAddress> {
  const bare = hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(bare);
  const addresses = literal ? [{ address: bare, family: literal as 4 | 6 }] : await opts.resolve(bare);
  if (addresses.length === 0) throw new Error(`${hostname} has no address`);
  if (!opts.allowPrivate) {
    const isPublic = opts.isPublic ?? isPublicAddress;
    const refused = addresses.find((a) => !isPublic(a.address));
    if (refused) throw new AddressRefused(`${hostname} resolves to ${refused.address}, which is not a public address`);
  }
  return addresses[0]!;
}

/** Whether a URL is one a site check may fetch: http(s), a host, no credentials. The message says why not. */
export function urlProblem(raw: string): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Enter a full URL, e.g. https://example.com.';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'Only http and https URLs can be watched.';
  if (!url.hostname) return 'The URL has no host.';
  if (url.username || url.password) return 'The URL must not carry a user name or password.';
  return null;
}
