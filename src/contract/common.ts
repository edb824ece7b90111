import { z } from 'zod';

/** Every error response of the API. */
export const errorResponse = z.object({
  success: z.literal(false),
  message: z.string(),
  code: z.string(),
  /** Which fields of the request were refused and why, for forms to show under each field. */
  fields: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});
export type FieldError = { path: string; message: string };
export type ErrorResponse = z.infer<typeof errorResponse>;

/** Standard error responses to spread into a route's `response` map. */
export const errorResponses = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  422: errorResponse,
  429: errorResponse,
} as const;

export const API_BASE = '/api/v1';

/**
 * The header that makes a create or state-changing POST happen once (docs/decisions/210-idempotency-key.md):
 * 1 to 128 printable ASCII characters, kept per account for 24 h.
 */
export { IDEMPOTENCY_HEADER, IDEMPOTENCY_KEY_PATTERN } from './idempotency.ts';
