import { useEffect, useState } from 'react';
import type { WeatherResponse } from '../../../contract/geo.ts';
import { DEFAULT_WEATHER } from '../../../domain/weather.ts';
import { api } from '../../lib/api.ts';

let pending: Promise<WeatherResponse> | null = null;

/** The caller's location and weather from our server; failures keep the spec's defaults (§8). */
export function useWeather(): WeatherResponse {
  const [weather, setWeather] = useState<WeatherResponse>(DEFAULT_WEATHER);
  useEffect(() => {
    let alive = true;
    pending ??= api<WeatherResponse>('GET', 'geo/weather').catch(() => {
      pending = null;
      return DEFAULT_WEATHER;
    });
    void pending.then((w) => alive && setWeather(w));
    return () => {
      alive = false;
    };
  }, []);
  return weather;
}
