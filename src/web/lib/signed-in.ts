import { getAuthVerifyTokenEndpoint } from '../../contract/endpoints.ts';
import { ApiError, callEndpoint, tokenStore } from './api.ts';

/**
 * The stored token's user id, or null (no token, or it was refused: then it is forgotten). No
 * React: used by the session provider and by DOM islands that only need to know who is there.
 */
export async function signedInUserId(): Promise<string | null> {
  if (!tokenStore.get()) return null;
  try {
    return (await callEndpoint(getAuthVerifyTokenEndpoint)).userId;
  } catch (err) {
    // Only a refused token is forgotten. A failed or cut-off look-up (network, a busy server, a
    // reload in the middle of it) must not sign the person out of every tab.
    if (err instanceof ApiError && err.status === 401) tokenStore.clear();
    return null;
  }
}
