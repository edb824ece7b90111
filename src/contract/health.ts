import { z } from 'zod';
import { defineOperation } from './operation.ts';

export const healthResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  /** Present only when REDIS_URL is set: can this instance reach Redis right now. */
  redis: z.enum(['up', 'down']).optional(),
});
export type HealthResponse = z.infer<typeof healthResponse>;

// Operations (docs/decisions/280-contract-operations.md).

/** Liveness and database check; names Redis state when REDIS_URL is set */
export const getHealth = defineOperation({
  method: 'GET',
  path: '/api/v1/health',
  responses: { 200: healthResponse },
  errors: { 503: healthResponse },
});
