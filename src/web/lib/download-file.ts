import { API_BASE, tokenStore } from './api.ts';

/**
 * Downloads a file from the API with the session's bearer token (a plain link cannot send it):
 * CSV exports, invoice PDFs. Returns an error sentence, or null when the download started.
 */
export async function downloadFile(path: string, fallbackName: string): Promise<string | null> {
  try {
    const res = await fetch(`${API_BASE}/${path.replace(/^\//, '')}`, {
      headers: { authorization: `Bearer ${tokenStore.get() ?? ''}` },
    });
    if (!res.ok) return `Download failed (${res.status}).`;
    const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? fallbackName;
    const url = URL.createObjectURL(await res.blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    return null;
  } catch {
    return 'Network error. Please check your connection and try again.';
  }
}
