import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, loginAs, type TestApp } from '../../../../tests/helpers/test-app.ts';
import { findSession, revokeSession } from './sessions.ts';

// The session cache must never let a revoked session through. (A look-up in flight at
// the revocation is not joined by later requests: session-cache.ts clears `inFlight` — the ordering
// of queries inside PGlite makes that race impossible to pin down in a test.)
describe('session cache', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('a cached session is dropped at sign-out', async () => {
    const { token } = await loginAs(t, 'cache2@example.com');
    const auth = await findSession(t.deps.db, token);
    expect(await findSession(t.deps.db, token)).toEqual(auth); // from the cache
    await revokeSession(t.deps.db, auth!.sessionId);
    expect(await findSession(t.deps.db, token)).toBeNull();
  });
});
