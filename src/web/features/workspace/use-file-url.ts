import { useEffect, useState } from 'react';
import type { OrderFile } from '../../../contract/order-files.ts';
import { INLINE_IMAGE_TYPES } from '../../../contract/order-files.ts';
import { API_BASE, tokenStore } from '../../lib/api.ts';
import { filePath, type Workspace } from './workspace-api.ts';

// An <img> cannot send the bearer token, so an image of the order is fetched with it (`?inline=1`,
// which the server honours only for PNG/JPEG/WebP/GIF checked from the bytes, still sandboxed) and
// shown from a blob: URL. SVG is never shown from our origin (decision 141): it stays a download.
// One fetch per file for the whole page (thumbnails, review images and attachments share it).

const cache = new Map<string, Promise<string | null>>();

export const isInlineImage = (file: Pick<OrderFile, 'contentType'>) => INLINE_IMAGE_TYPES.includes(file.contentType);

function objectUrl(path: string): Promise<string | null> {
  let hit = cache.get(path);
  if (!hit) {
    hit = fetch(`${API_BASE}/${path}?inline=1`, { headers: { authorization: `Bearer ${tokenStore.get() ?? ''}` } })
      .then(async (res) => (res.ok ? URL.createObjectURL(await res.blob()) : null))
      .catch(() => null);
    // A failure is not remembered: the next screen tries again.
    void hit.then((url) => url ?? cache.delete(path));
    cache.set(path, hit);
  }
  return hit;
}

/** The blob: URL of one of the order's raster images, or null while loading / not an image / failed. */
export function useImageUrl(ws: Workspace, file: Pick<OrderFile, 'id' | 'contentType'> | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  const path = file && isInlineImage(file) ? filePath(ws, file.id) : null;
  useEffect(() => {
    if (!path) return;
    let live = true;
    void objectUrl(path).then((u) => live && setUrl(u));
    return () => {
      live = false;
    };
  }, [path]);
  return path ? url : null;
}
