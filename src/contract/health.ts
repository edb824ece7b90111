import { z } from 'zod';

export const healthResponse = z.object({
  status: z.enum(['ok', 'unavailable']),
  /** Present only when REDIS_URL is set: can this instance reach Redis right now. */
  redis: z.enum(['up', 'down']).optional(),
});
export type HealthResponse = z.infer<typeof healthResponse>;
