import { z } from 'zod';

export interface Place {
  city: string;
  country: string | null;
}

export interface IpGeolocation {
  /** The place of an IP address, or null when the provider does not know or fails. */
  locate(ip: string): Promise<Place | null>;
}

// ip-api.com's JSON API (GET {GEOIP_URL}/{ip}?fields=…): status 'success' | 'fail'.
const answer = z.object({
  status: z.string(),
  city: z.string().max(100).optional(),
  country: z.string().max(100).optional(),
});

/** Loopback and private addresses cannot be located; the provider then locates our own server. */
export function isPrivateIp(ip: string): boolean {
  const v4 = ip.replace(/^::ffff:/, '');
  return (
    /^(127\.|10\.|192\.168\.|169\.254\.|0\.)/.test(v4) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(v4) ||
    ip === '::1' ||
    /^f[cd][0-9a-f]{2}:/i.test(ip) ||
    /^fe80:/i.test(ip)
  );
}

export function createIpGeolocation(opts: { url: string; timeoutMs: number }): IpGeolocation {
  return {
    async locate(ip) {
      const base = opts.url.replace(/\/$/, '');
      const target = isPrivateIp(ip) ? base : `${base}/${encodeURIComponent(ip)}`;
      try {
        const res = await fetch(`${target}?fields=status,city,country`, { signal: AbortSignal.timeout(opts.timeoutMs) });
        if (!res.ok) return null;
        const parsed = answer.safeParse(await res.json());
        if (!parsed.success || parsed.data.status !== 'success' || !parsed.data.city?.trim()) return null;
        return { city: parsed.data.city.trim(), country: parsed.data.country?.trim() || null };
      } catch {
        return null;
      }
    },
  };
}
