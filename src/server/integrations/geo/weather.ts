import { z } from 'zod';
import { capitalizeWords, metersPerSecondToKmh } from '../../../domain/weather.ts';

export interface CityWeather {
  description: string;
  temp: number;
  humidity: number;
  /** km/h */
  wind: number;
  icon: string;
}

export interface WeatherProvider {
  /** Current weather of a city in metric units, or null when unknown or failing. */
  byCity(city: string): Promise<CityWeather | null>;
}

// OpenWeatherMap current weather (GET {WEATHER_URL}?q=city&units=metric&appid=key).
const answer = z.object({
  weather: z.array(z.object({ description: z.string().max(100), icon: z.string().regex(/^\d{2}[dn]$/) })).min(1),
  main: z.object({ temp: z.number(), humidity: z.number() }),
  wind: z.object({ speed: z.number() }),
});

export function createWeatherProvider(opts: { url: string; apiKey: string | undefined; timeoutMs: number }): WeatherProvider {
  return {
    async byCity(city) {
      // Without a key the provider cannot answer: the footer shows the spec's defaults.
      if (!opts.apiKey) return null;
      const url = new URL(opts.url);
      url.searchParams.set('q', city);
      url.searchParams.set('units', 'metric');
      url.searchParams.set('appid', opts.apiKey);
      try {
        const res = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs) });
        if (!res.ok) return null;
        const parsed = answer.safeParse(await res.json());
        if (!parsed.success) return null;
        const w = parsed.data;
        return {
          description: capitalizeWords(w.weather[0]!.description),
          temp: Math.round(w.main.temp * 10) / 10,
          humidity: Math.round(w.main.humidity),
          wind: metersPerSecondToKmh(w.wind.speed),
          icon: w.weather[0]!.icon,
        };
      } catch {
        return null;
      }
    },
  };
}
