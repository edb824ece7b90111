import type { Config } from '../../config.ts';
import { createIpGeolocation, isPrivateIp, type IpGeolocation } from '../../integrations/geo/ip-geolocation.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';

// The sessions list shows where a sign-in came from: the city of the client's
// address, from the geo lookup the footer already uses. Only the city is kept, never the address.
// The lookup has its own timeout (GEO_TIMEOUT_MS) and answers null on any failure, so a sign-in is
// never refused and never waits longer than that; a private or loopback address has no city (the
// provider would locate our own server) and costs no call.

const CITY_TTL_MS = 60 * 60 * 1000;
const FAILURE_TTL_MS = 60 * 1000;

interface Lookup {
  geo: IpGeolocation;
  cities: TtlCache<Promise<string | null>>;
}
const lookups = new WeakMap<Config, Lookup>();

function lookupFor(config: Config): Lookup {
  let l = lookups.get(config);
  if (!l) {
    l = {
      geo: createIpGeolocation({ url: config.GEOIP_URL, timeoutMs: config.GEO_TIMEOUT_MS }),
      cities: new TtlCache(5_000, CITY_TTL_MS),
    };
    lookups.set(config, l);
  }
  return l;
}

/** The city of a client address, or null (private address, unknown, provider down or slow). */
export async function cityOfAddress(config: Config, ip: string | undefined): Promise<string | null> {
  if (!ip || isPrivateIp(ip)) return null;
  const { geo: provider, cities } = lookupFor(config);
  try {
    return await cities.getOrLoad(
      ip,
      async () => (await provider.locate(ip))?.city ?? null,
      (city) => (city ? CITY_TTL_MS : FAILURE_TTL_MS),
    );
  } catch {
    return null;
  }
}
