import type { OrderFile } from '../../../contract/order-files.ts';
import { upload } from '../../lib/call-file.ts';
import { useOperation } from '../../lib/use-operation.ts';
import { ORDER_FILES, ORDER_FILE_UPLOAD, type Side, type Workspace } from './workspace-api.ts';

/** The order's files (both sides'), oldest first as the server orders them. */
export function useOrderFiles(ws: Workspace): { data: OrderFile[] | null; error: string | null; reload(): Promise<void> } {
  const { data, error, reload } = useOperation(ORDER_FILES[ws.side], { params: { orderId: ws.orderId } });
  return { data: data?.files ?? null, error, reload };
}

/** Uploads one file as multipart/form-data (one part named `file`, the contract); throws ApiError with the server's message. */
export async function uploadOrderFile(ws: Workspace, file: File): Promise<OrderFile> {
  return (await upload(ORDER_FILE_UPLOAD[ws.side], { params: { orderId: ws.orderId } }, file)).file;
}

/** "You" for one's own side, else who it is from the reader's point of view. */
export const whoLabel = (uploadedBy: Side, reader: Side) =>
  uploadedBy === reader ? 'You' : uploadedBy === 'agency' ? 'The agency' : 'The customer';

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
