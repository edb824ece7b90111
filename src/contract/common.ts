import { z } from 'zod';

/** Every error response of the API. */
export const errorResponse = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.string(),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/** Standard error responses to spread into a route's `response` map. */
export const errorResponses = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  429: errorResponse,
} as const;

export const API_BASE = '/api/v1';
