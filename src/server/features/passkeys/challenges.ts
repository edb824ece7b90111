import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { webauthnChallenges } from '../../db/schema/account-security.ts';
import { badRequest } from '../../lib/app-error.ts';

// One row per ceremony (decision 190): a challenge is consumed once, atomically, and only for the
// purpose, account and session it was issued to; after five minutes it is worthless.

export const CHALLENGE_TTL_MS = 5 * 60_000;

export type ChallengePurpose = 'registration' | 'login' | 'step-up';

/** The account and session a registration or step-up challenge belongs to (none for sign-in). */
export interface ChallengeOwner {
  userId: string;
  sessionId: string;
}

export async function storeChallenge(db: Db, challenge: string, purpose: ChallengePurpose, owner?: ChallengeOwner) {
  // Expired rows are useless: each new ceremony sweeps them, so strangers' sign-in options cannot pile up.
  await db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, new Date()));
  await db.insert(webauthnChallenges).values({
    challenge,
    purpose,
    userId: owner?.userId ?? null,
    sessionId: owner?.sessionId ?? null,
    expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
  });
}

const EXPIRED = 'This passkey request has expired or was already used. Please try again.';

/**
 * Takes the challenge the browser signed (clientDataJSON.challenge) and consumes its row in one
 * UPDATE … WHERE consumed_at IS NULL RETURNING: of two requests with the same answer only one
 * gets it. The verifier then checks the signature over exactly this challenge.
 */
export async function consumeChallenge(db: Db, clientDataJSON: string, purpose: ChallengePurpose, owner?: ChallengeOwner): Promise<string> {
  const challenge = challengeOf(clientDataJSON);
  const [row] = await db
    .update(webauthnChallenges)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(webauthnChallenges.challenge, challenge),
        eq(webauthnChallenges.purpose, purpose),
        isNull(webauthnChallenges.consumedAt),
        gt(webauthnChallenges.expiresAt, new Date()),
        owner ? eq(webauthnChallenges.userId, owner.userId) : isNull(webauthnChallenges.userId),
        owner ? eq(webauthnChallenges.sessionId, owner.sessionId) : isNull(webauthnChallenges.sessionId),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  if (!row) throw badRequest(EXPIRED);
  return row.challenge;
}

/** The challenge inside the browser's clientDataJSON (base64url of a JSON object). */
function challengeOf(clientDataJSON: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
  } catch {
    throw badRequest('The passkey response is not readable (clientDataJSON).');
  }
  const challenge = (parsed as { challenge?: unknown } | null)?.challenge;
  if (typeof challenge !== 'string' || !/^[A-Za-z0-9_-]{16,200}$/.test(challenge)) {
    throw badRequest('The passkey response carries no valid challenge.');
  }
  return challenge;
}
