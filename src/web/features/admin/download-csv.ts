import { API_BASE, tokenStore } from '../../lib/api.ts';

/** Downloads an admin CSV export with the session's bearer token (a plain link cannot send it). */
export async function downloadCsv(path: string, fallbackName: string): Promise<string | null> {
  try {
    const res = await fetch(`${API_BASE}/admin/${path}`, { headers: { authorization: `Bearer ${tokenStore.get() ?? ''}` } });
    if (!res.ok) return `Export failed (${res.status}).`;
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
