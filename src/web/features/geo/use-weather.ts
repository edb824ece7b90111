import { useEffect, useState } from 'react';
import type { WeatherResponse } from '../../../contract/geo.ts';
import { DEFAULT_WEATHER } from '../../../domain/weather.ts';
import { visitorWeather } from './weather.ts';

/** The caller's location and weather from our server; failures keep the spec's defaults (§8). */
export function useWeather(): WeatherResponse {
  const [weather, setWeather] = useState<WeatherResponse>(DEFAULT_WEATHER);
  useEffect(() => {
    let alive = true;
    void visitorWeather().then((w) => alive && setWeather(w));
    return () => {
      alive = false;
    };
  }, []);
  return weather;
}
