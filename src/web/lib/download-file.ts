import { API_BASE, tokenStore } from './api.ts';
import { STEP_UP_REQUIRED, signalStepUpRequired } from './step-up-signal.ts';

/**
 * Downloads a file from the API with the session's bearer token (a plain link cannot send it):
 * CSV exports, invoice PDFs. Returns an error sentence, or null when the download started.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<string | null> {
  try {
    const res = await fetch(`${API_BASE}/${path.replace(/^\//, '')}`, {
      headers: { authorization: `Bearer ${tokenStore.get() ?? ''}` },
    });
    if (!res.ok) {
      // An admin export of a session not yet confirmed: the back office asks for the passkey (decision 194).
      const body = res.status === 403 ? ((await res.json().catch(() => null)) as { code?: string } | null) : null;
      if (body?.code === STEP_UP_REQUIRED) signalStepUpRequired();
      return `Download failed (${res.status}).`;
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
