import { useCallback } from 'react';
import { ORDER_FILE_PART, type OrderFile, type OrderFileResponse, type OrderFilesResponse } from '../../../contract/order-files.ts';
import { API_BASE, ApiError, tokenStore } from '../../lib/api.ts';
import { useLoad } from './use-load.ts';
import { call, type Side, type Workspace } from './workspace-api.ts';

/** The order's files (both sides'), newest as the server orders them. */
export function useOrderFiles(ws: Workspace) {
  const load = useCallback(async () => (await call<OrderFilesResponse>(ws, 'GET', 'files')).files, [ws]);
  return useLoad<OrderFile[]>(load);
}

/** Uploads one file as multipart/form-data (one part named `file`, the contract); throws ApiError with the server's message. */
export async function uploadOrderFile(ws: Workspace, file: File): Promise<OrderFile> {
  const form = new FormData();
  form.append(ORDER_FILE_PART, file, file.name);
  let res: Response;
  try {
    res = await fetch(`${API_BASE}/${ws.base}/files`, { method: 'POST', headers: { authorization: `Bearer ${tokenStore.get() ?? ''}` }, body: form });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Network error. Please check your connection and try again.');
  }
  const data = (await res.json().catch(() => null)) as (OrderFileResponse & { message?: string; code?: string }) | null;
  if (!res.ok || !data) throw new ApiError(res.status, data?.code ?? 'ERROR', data?.message ?? `Upload failed (${res.status}).`);
  return data.file;
}

/** "You" for one's own side, else who it is from the reader's point of view. */
export const whoLabel = (uploadedBy: Side, reader: Side) => (uploadedBy === reader ? 'You' : uploadedBy === 'agency' ? 'The agency' : 'The customer');

/** A short name of the type for people: "PNG image", "PDF", "Word document". */
export function typeLabel(contentType: string): string {
  const known: Record<string, string> = {
    'image/png': 'PNG image',
    'image/jpeg': 'JPEG image',
    'image/webp': 'WebP image',
    'image/gif': 'GIF image',
    'image/svg+xml': 'SVG image',
    'application/pdf': 'PDF',
    'application/zip': 'ZIP archive',
    'text/plain': 'Text',
    'text/markdown': 'Markdown',
    'text/csv': 'CSV',
  };
  if (known[contentType]) return known[contentType];
  if (/word/.test(contentType)) return 'Word document';
  if (/sheet|excel/.test(contentType)) return 'Spreadsheet';
  if (/presentation|powerpoint/.test(contentType)) return 'Presentation';
  return contentType;
}
