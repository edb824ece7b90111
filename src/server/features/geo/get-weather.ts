import { DEFAULT_CITY, DEFAULT_WEATHER, type Weather } from '../../../domain/weather.ts';
import type { AppDeps } from '../../deps.ts';
import { weatherResponse } from '../../../contract/geo.ts';
import { cachedRead } from '../../lib/cached-read.ts';
import { createIpGeolocation, isPrivateIp, type IpGeolocation, type Place } from '../../integrations/geo/ip-geolocation.ts';
import { TtlCache } from '../../lib/ttl-cache.ts';
import { createWeatherProvider, type CityWeather, type WeatherProvider } from '../../integrations/geo/weather.ts';

const PLACE_TTL_MS = 60 * 60 * 1000;
const FAILURE_TTL_MS = 60 * 1000;

/**
 * The footer's location and weather (spec §2): the caller's IP → city (cached per IP),
 * city → weather (cached per city), each call with a short timeout; any failure falls back to the
 * default city and 'Clear Sky'. The providers' keys never leave the server.
 */
export function createWeatherService(config: AppDeps['config'], providers?: { geo?: IpGeolocation; weather?: WeatherProvider }) {
  const geo = providers?.geo ?? createIpGeolocation({ url: config.GEOIP_URL, timeoutMs: config.GEO_TIMEOUT_MS });
  const weather =
    providers?.weather ??
    createWeatherProvider({ url: config.WEATHER_URL, apiKey: config.WEATHER_API_KEY, timeoutMs: config.GEO_TIMEOUT_MS });
  const weatherTtl = config.WEATHER_CACHE_SECONDS * 1000;
  const places = new TtlCache<Promise<Place | null>>(10_000, PLACE_TTL_MS);
  const forecasts = new TtlCache<Promise<CityWeather | null>>(2_000, Math.max(weatherTtl, FAILURE_TTL_MS));

  // Every loopback or private address is "the server's own place" for the provider: one look-up
  // shared by all of them, not one per address ( a bench or a LAN of visitors).
  const placeOf = (ip: string) => {
    const key = isPrivateIp(ip) ? 'private' : ip;
    return places.getOrLoad(
      key,
      () => geo.locate(ip),
      (p) => (p ? PLACE_TTL_MS : FAILURE_TTL_MS),
    );
  };
  const forPlace = async (place: Place | null): Promise<Weather> => {
    const city = place?.city ?? DEFAULT_CITY;
    // The spec's default city is written 'Newyork'; the provider knows it as 'New York'.
    const query = place ? city : 'New York';
    const now = await forecasts.getOrLoad(
      query.toLowerCase(),
      () => weather.byCity(query),
      (w) => (w ? weatherTtl : FAILURE_TTL_MS),
    );
    if (!now) return { ...DEFAULT_WEATHER, city, country: place?.country ?? null };
    return { city, country: place?.country ?? null, ...now, source: place ? 'live' : 'default' };
  };
  // The answer per located place, validated and serialised once; the forecast behind it has its own
  // TTL (WEATHER_CACHE_SECONDS), so this one only needs to be short. The key is the place itself.
  const bodies = cachedRead({
    schema: weatherResponse,
    ttlMs: Math.min(weatherTtl, FAILURE_TTL_MS),
    maxKeys: 2_000,
    load: (key: string) => {
      const [city, country] = key ? (JSON.parse(key) as [string, string | null]) : [];
      return forPlace(city === undefined ? null : { city, country: country ?? null });
    },
  });

  return {
    /** The serialised answer for a caller: its place (cached per IP, one entry for every private address), then the body per place. */
    async jsonForIp(ip: string): Promise<string> {
      const place = await placeOf(ip);
      return bodies.json(place ? JSON.stringify([place.city, place.country]) : '');
    },
  };
}
