import {
  deleteAuthSessionsById,
  patchUserProfile,
  postUserDeleteAccount,
  postUserDeleteAccountCode,
  postUserEmailChange,
  postUserEmailChangeConfirm,
  type UpdateProfileBody,
} from '../../../contract/account.ts';
import { call } from '../../lib/call.ts';

// The privacy self-service calls, typed by src/contract/account.ts.

export const updateProfile = (body: UpdateProfileBody) => call(patchUserProfile, { body });

export const requestEmailChange = (email: string) => call(postUserEmailChange, { body: { email } });

export const confirmEmailChange = (code: string) => call(postUserEmailChangeConfirm, { body: { code } });

export const endSession = (id: string) => call(deleteAuthSessionsById, { params: { id } });

/** `code`: a fresh sign-in code; without it the server accepts a session a passkey confirmed minutes ago. */
export const deleteAccount = (code?: string) => call(postUserDeleteAccount, { body: code ? { code } : {} });

/** What blocks the deletion now (docs/decisions/275-account-deletion-up-front.md): read before a code is sent. */
/** Mails the code that confirms the deletion (it never signs in). */
export const sendDeletionCode = () => call(postUserDeleteAccountCode);
