import { DEFAULT_CITY, DEFAULT_WEATHER, type Weather } from '../../../domain/weather.ts';
import type { AppDeps } from '../../deps.ts';
import { createIpGeolocation, type IpGeolocation, type Place } from '../../integrations/geo/ip-geolocation.ts';
import { TtlCache } from '../../integrations/geo/ttl-cache.ts';
import { createWeatherProvider, type CityWeather, type WeatherProvider } from '../../integrations/geo/weather.ts';

const PLACE_TTL_MS = 60 * 60 * 1000;
const FAILURE_TTL_MS = 60 * 1000;

/**
 * The footer's location and weather (spec §2, DESIGN §4): the caller's IP → city (cached per IP),
 * city → weather (cached per city), each call with a short timeout; any failure falls back to the
 * default city and 'Clear Sky'. The providers' keys never leave the server.
 */
export function createWeatherService(config: AppDeps['config'], providers?: { geo?: IpGeolocation; weather?: WeatherProvider }) {
  const geo = providers?.geo ?? createIpGeolocation({ url: config.GEOIP_URL, timeoutMs: config.GEO_TIMEOUT_MS });
  const weather =
    providers?.weather ?? createWeatherProvider({ url: config.WEATHER_URL, apiKey: config.WEATHER_API_KEY, timeoutMs: config.GEO_TIMEOUT_MS });
  const places = new TtlCache<Place | null>(10_000);
  const forecasts = new TtlCache<CityWeather | null>(2_000);
  const weatherTtl = config.WEATHER_CACHE_SECONDS * 1000;

  return {
    async forIp(ip: string): Promise<Weather> {
      const place = await places.get(ip, () => geo.locate(ip), (p) => (p ? PLACE_TTL_MS : FAILURE_TTL_MS));
      const city = place?.city ?? DEFAULT_CITY;
      // The spec's default city is written 'Newyork'; the provider knows it as 'New York'.
      const query = place ? city : 'New York';
      const now = await forecasts.get(query.toLowerCase(), () => weather.byCity(query), (w) => (w ? weatherTtl : FAILURE_TTL_MS));
      if (!now) return { ...DEFAULT_WEATHER, city, country: place?.country ?? null };
      return { city, country: place?.country ?? null, ...now, source: place ? 'live' : 'default' };
    },
  };
}
