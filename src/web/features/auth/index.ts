// The public face of src/web/features/auth: other features import it only from here
// (docs/decisions/338-web-reads-and-folder-rules.md, checked by src/web/architecture.test.ts).
export { logoutEverywhere } from './auth-api.ts';
export { FormError } from './auth-shell.tsx';
export { listPasskeys, stepUpVerify } from './passkey-api.ts';
export { addPasskey, confirmWithPasskey, passkeyProblem, passkeysSupported } from './passkey-ceremonies.ts';
export { PasskeyIcon } from './passkey-sign-in.tsx';
export { RecoveryCodes } from './recovery-codes.tsx';
