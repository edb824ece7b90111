import { useEffect, useState } from 'react';
import type { OrderFile } from '../../../contract/order-files.ts';
import { INLINE_IMAGE_TYPES } from '../../../contract/order-files.ts';
import { fetchFile, fileUrl } from '../../lib/call-file.ts';
import { ORDER_FILE, type Workspace } from './workspace-api.ts';

// An <img> cannot send the bearer token, so an image of the order is fetched with it (`?inline=1`,
// which the server honours only for PNG/JPEG/WebP/GIF checked from the bytes, still sandboxed) and
// shown from a blob: URL. SVG is never shown from our origin (decision 141): it stays a download.
// One fetch per file for the whole page (thumbnails, review images and attachments share it).

const cache = new Map<string, Promise<string | null>>();

export const isInlineImage = (file: Pick<OrderFile, 'contentType'>) => INLINE_IMAGE_TYPES.includes(file.contentType);

function objectUrl(ws: Workspace, fileId: string): Promise<string | null> {
  const op = ORDER_FILE[ws.side];
  const input = { params: { orderId: ws.orderId, fileId }, query: { inline: '1' as const } };
  const key = fileUrl(op, input);
  let hit = cache.get(key);
  if (!hit) {
    hit = fetchFile(op, input).then((blob) => blob && URL.createObjectURL(blob));
    // A failure is not remembered: the next screen tries again.
    void hit.then((url) => url ?? cache.delete(key));
    cache.set(key, hit);
  }
  return hit;
}

/** The blob: URL of one of the order's raster images, or null while loading / not an image / failed. */
export function useImageUrl(ws: Workspace, file: Pick<OrderFile, 'id' | 'contentType'> | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  const imageId = file && isInlineImage(file) ? file.id : null;
  useEffect(() => {
    if (!imageId) return;
    let live = true;
    void objectUrl(ws, imageId).then((u) => live && setUrl(u));
    return () => {
      live = false;
    };
  }, [ws, imageId]);
  return imageId ? url : null;
}
