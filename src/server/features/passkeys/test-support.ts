import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { BuiltApp } from '../../app.ts';
import { sessions } from '../../db/schema/platform.ts';
import { hashToken } from '../auth/sessions.ts';
import { freshIp } from '../auth/test-support.ts';
import { type CeremonyOverrides, SoftAuthenticator } from '../../../../tests/helpers/soft-authenticator.ts';

// Helpers of the passkey API tests: the real ceremonies, a software authenticator in the browser's place.

export const ORIGIN = 'http://localhost:3000';

export const newAuthenticator = () => new SoftAuthenticator(ORIGIN);

const bearer = (token?: string) => (token ? { authorization: `Bearer ${token}` } : {});

export function api(t: BuiltApp, method: 'GET' | 'POST' | 'DELETE', url: string, token?: string, payload?: unknown, ip = freshIp()) {
  return t.app.inject({ method, url: `/api/v1/${url}`, headers: bearer(token), remoteAddress: ip, ...(payload === undefined ? {} : { payload: payload as object }) });
}

export async function registrationOptions(t: BuiltApp, token: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const res = await api(t, 'POST', 'auth/passkeys/registration/options', token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Adds a passkey the whole way (options, authenticator, verify); returns the verify answer. */
export async function addPasskey(t: BuiltApp, token: string, authenticator: SoftAuthenticator, name?: string, overrides?: CeremonyOverrides) {
  const options = await registrationOptions(t, token);
  const response = authenticator.register(options, overrides);
  return api(t, 'POST', 'auth/passkeys/registration/verify', token, { response, ...(name ? { name } : {}) });
}

export async function loginOptions(t: BuiltApp): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const res = await api(t, 'POST', 'auth/passkeys/login/options');
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function signInWithPasskey(t: BuiltApp, authenticator: SoftAuthenticator, overrides?: CeremonyOverrides) {
  const response = authenticator.assert(await loginOptions(t), overrides);
  return api(t, 'POST', 'auth/passkeys/login/verify', undefined, { response });
}

export async function stepUpOptions(t: BuiltApp, token: string): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const res = await api(t, 'POST', 'auth/step-up/options', token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

export async function stepUp(t: BuiltApp, token: string, authenticator: SoftAuthenticator, overrides?: CeremonyOverrides) {
  const response = authenticator.assert(await stepUpOptions(t, token), overrides);
  return api(t, 'POST', 'auth/step-up/verify', token, { response });
}

export async function confirmedAtOf(t: BuiltApp, token: string): Promise<Date | null> {
  const [row] = await t.deps.db.select({ at: sessions.confirmedAt }).from(sessions).where(eq(sessions.tokenHash, hashToken(token)));
  return row?.at ?? null;
}
