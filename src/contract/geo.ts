import { z } from 'zod';
import { defineOperation } from './operation.ts';
import { errorResponses } from './common.ts';

/**
 * Spec §3 "Weather data": the footer's location and weather, looked up by the server from the
 * caller's IP. `icon` is the weather provider's icon code ('01d'); the browser draws its own icon
 * for it and never loads anything from the provider. temp °C, humidity %, wind km/h.
 */
export const weatherResponse = z.object({
  city: z.string(),
  country: z.string().nullable(),
  description: z.string(),
  temp: z.number().nullable(),
  humidity: z.number().nullable(),
  wind: z.number().nullable(),
  icon: z.string(),
  /** 'default' when a lookup failed and the spec's fallback (Newyork, 'Clear Sky') is shown. */
  source: z.enum(['live', 'default']),
});
export type WeatherResponse = z.infer<typeof weatherResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** The caller's city and its current weather (defaults on any failure) */
export const getGeoWeather = defineOperation({
  method: 'GET',
  path: '/api/v1/geo/weather',
  responses: { 200: weatherResponse },
  errors: { 429: errorResponses[429] },
});
