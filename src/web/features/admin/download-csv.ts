import { downloadFile } from '../../lib/download-file.ts';

/** Downloads an admin CSV export with the session's bearer token (a plain link cannot send it). */
export async function downloadCsv(path: string, fallbackName: string): Promise<string | null> {
  const error = await downloadFile(`admin/${path}`, fallbackName);
  return error?.replace('Download failed', 'Export failed') ?? null;
}
