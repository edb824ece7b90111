import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { UserProfile } from '../../contract/users.ts';
import {
  getCouponGetCouponsByUserIdByUserIdEndpoint,
  getUserGetUserByIdEndpoint,
  postAuthLogoutEndpoint,
} from '../../contract/endpoints.ts';
import { callEndpoint, tokenStore } from './api.ts';
import { signedInUserId } from './signed-in.ts';
import { clearChatStorage } from './chat-storage.ts';

// Spec §4 "Session": a stored token is verified, then the profile and coupon are fetched; any
// failure logs out silently.

/** The profile of user/getUserById (spec §3 "User profile"), typed by the contract. */
export type SessionUser = UserProfile;

export interface Session {
  loading: boolean;
  isLoggedIn: boolean;
  userId: string | null;
  user: SessionUser | null;
  couponCode: string | null;
  /** Stores a new token and loads the user; resolves to the user (for where to go next). */
  login(token: string): Promise<SessionUser | null>;
  /** Revokes the session on the server (best effort) and clears local state. */
  logout(): Promise<void>;
  refresh(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);

interface Loaded {
  userId: string;
  user: SessionUser | null;
  couponCode: string | null;
}

/** The stored token's user, or null (no token, or it was refused: then it is cleared). */
async function fetchSession(): Promise<Loaded | null> {
  const userId = await signedInUserId();
  if (!userId) return null;
  const [profile, coupons] = await Promise.allSettled([
    callEndpoint(getUserGetUserByIdEndpoint),
    callEndpoint(getCouponGetCouponsByUserIdByUserIdEndpoint, { params: { userId } }),
  ]);
  if (coupons.status === 'rejected') console.log('coupon fetch failed');
  return {
    userId,
    user: profile.status === 'fulfilled' ? profile.value.user : null,
    couponCode: coupons.status === 'fulfilled' ? (coupons.value.coupons[0]?.coupon_code ?? null) : null,
  };
}

// A prerendered page has several islands, each with its own provider: they share the first look-up.
let firstLoad: Promise<Loaded | null> | null = null;

export function SessionProvider({ children }: { children: ReactNode }) {
  const [loading, setLoading] = useState(true);
  const [userId, setUserId] = useState<string | null>(null);
  const [user, setUser] = useState<SessionUser | null>(null);
  const [couponCode, setCouponCode] = useState<string | null>(null);

  const clear = useCallback(() => {
    setUserId(null);
    setUser(null);
    setCouponCode(null);
  }, []);

  const load = useCallback(
    async (fresh = true) => {
      const loaded = await (fresh ? fetchSession() : (firstLoad ??= fetchSession()));
      if (loaded) {
        setUserId(loaded.userId);
        setUser(loaded.user);
        setCouponCode(loaded.couponCode);
      } else clear();
      setLoading(false);
      return loaded?.user ?? null;
    },
    [clear],
  );

  useEffect(() => {
    void load(false);
  }, [load]);

  const value = useMemo<Session>(
    () => ({
      loading,
      isLoggedIn: userId !== null,
      userId,
      user,
      couponCode,
      async login(token) {
        tokenStore.set(token);
        firstLoad = null;
        setLoading(true);
        return load();
      },
      async logout() {
        if (tokenStore.get()) await callEndpoint(postAuthLogoutEndpoint).catch(() => {});
        tokenStore.clear();
        firstLoad = null;
        clearChatStorage();
        clear();
      },
      refresh: async () => void (await load()),
    }),
    [loading, userId, user, couponCode, load, clear],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession must be used inside SessionProvider');
  return s;
}
