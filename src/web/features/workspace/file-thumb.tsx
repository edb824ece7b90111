import type { OrderFile } from '../../../contract/order-files.ts';
import { useImageUrl } from './use-file-url.ts';
import type { Workspace } from './workspace-api.ts';

/** A square preview: the image itself for PNG/JPEG/WebP/GIF, else a badge with the file's extension. */
export function FileThumb({ ws, file, className = 'h-16 w-16' }: { ws: Workspace; file: OrderFile; className?: string }) {
  const url = useImageUrl(ws, file);
  const ext = (/\.([a-z0-9]{1,5})$/i.exec(file.name)?.[1] ?? file.contentType.split('/').pop() ?? '').toUpperCase().slice(0, 4);
  return (
    <span
      className={`flex shrink-0 items-center justify-center overflow-hidden rounded-lg border border-line bg-field ${className}`}
      aria-hidden="true"
    >
      {url ? <img src={url} alt="" className="h-full w-full object-cover" /> : <span className="text-xs font-bold text-muted">{ext}</span>}
    </span>
  );
}
