import type { Db } from '../../db/client.ts';

/**
 * How many orders used each code. The orders feature (issue 5) owns the redemptions; until its
 * tables exist every count is 0.
 */
export async function couponUseCounts(_db: Db, _code?: string): Promise<Map<string, number>> {
  return new Map();
}
