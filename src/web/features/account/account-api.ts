import type { DeletionCheckResponse, ProfileResponse, SessionListResponse, UpdateProfileBody } from '../../../contract/account.ts';
import type { OkResponse } from '../../../contract/auth.ts';
import { api } from '../../lib/api.ts';

// The privacy self-service calls, typed by src/contract/account.ts.

export const updateProfile = (body: UpdateProfileBody) => api<ProfileResponse>('PATCH', 'user/profile', body);

export const requestEmailChange = (email: string) => api<{ success: true; message: string }>('POST', 'user/email-change', { email });

export const confirmEmailChange = (code: string) => api<{ success: true }>('POST', 'user/email-change/confirm', { code });

export const listSessions = () => api<SessionListResponse>('GET', 'auth/sessions');

export const endSession = (id: string) => api<OkResponse>('DELETE', `auth/sessions/${encodeURIComponent(id)}`);

/** `code`: a fresh sign-in code; without it the server accepts a session a passkey confirmed minutes ago. */
export const deleteAccount = (code?: string) => api<{ success: true }>('POST', 'user/delete-account', code ? { code } : {});

/** What blocks the deletion now (docs/decisions/275-account-deletion-up-front.md): read before a code is sent. */
export const deletionBlockers = () => api<DeletionCheckResponse>('GET', 'user/delete-account');

/** Mails the code that confirms the deletion (it never signs in). */
export const sendDeletionCode = () => api<OkResponse>('POST', 'user/delete-account/code', {});
