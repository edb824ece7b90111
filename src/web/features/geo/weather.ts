import type { WeatherResponse } from '../../../contract/geo.ts';
import { DEFAULT_WEATHER } from '../../../domain/weather.ts';
import { getGeoWeatherEndpoint } from '../../../contract/endpoints.ts';
import { callEndpoint } from '../../lib/api.ts';

// No React here: the footer's DOM island and the pricing plan's read it before React loads.
let pending: Promise<WeatherResponse> | null = null;

/** The caller's location and weather from our server, asked once per page load; a failure gives
 * the spec's defaults (§8) and is asked again next time. */
export function visitorWeather(): Promise<WeatherResponse> {
  pending ??= callEndpoint(getGeoWeatherEndpoint).catch(() => {
    pending = null;
    return DEFAULT_WEATHER;
  });
  return pending;
}
