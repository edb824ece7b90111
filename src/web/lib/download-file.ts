import { tokenStore } from './api.ts';
import { STEP_UP_REQUIRED, signalStepUpRequired } from './step-up-signal.ts';

/**
 * Downloads a file from the API with the session's bearer token (a plain link cannot send it):
 * CSV exports, invoice PDFs, the account's ZIP. `url` is a file operation's (features go through
 * `downloadOperation` in src/web/lib/call-file.ts: docs/decisions/295-file-operations.md).
 * Returns an error sentence, or null when the download started.
 */
export async function downloadUrl(url: string, fallbackName: string): Promise<string | null> {
  try {
    const res = await fetch(url, {
      headers: { authorization: `Bearer ${tokenStore.get() ?? ''}` },
    });
    if (!res.ok) {
      const body = (await res.json().catch(() => null)) as { code?: string; message?: string } | null;
      // An admin export of a session not yet confirmed: the back office asks for the passkey (decision 194).
      if (res.status === 403 && body?.code === STEP_UP_REQUIRED) signalStepUpRequired();
      // The server's own sentence when it gave one (a rate limit says when to try again).
      return body?.message ?? `Download failed (${res.status}).`;
    }
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
    saveBlob(await res.blob(), name);
    return null;
  } catch {
    return 'Network error. Please check your connection and try again.';
  }
}

/** Hands a file made or fetched in the page to the browser's downloads (the recovery codes' text file too). */
export function saveBlob(blob: Blob, name: string) {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
