import { useId, useRef, useState } from 'react';
import { ORDER_FILE_ACCEPT, type OrderFile } from '../../../contract/order-files.ts';
import { Button, buttonClass } from '../../components/ui/button.tsx';
import { errorMessage } from '../../lib/api.ts';
import { call } from '../../lib/call.ts';
import { downloadOperation } from '../../lib/call-file.ts';
import { FileThumb } from './file-thumb.tsx';
import { typeLabel, uploadOrderFile, useOrderFiles, whoLabel } from './order-files.ts';
import { PanelCard, PanelError, PanelLoading, formatShortWhen, formatSize } from './panel-ui.tsx';
import { ORDER_FILE, ORDER_FILE_DELETE, type Workspace } from './workspace-api.ts';

// Files both ways. The customer uploads brand assets and content, the founder
// designs and deliverables; each file shows its name, size, type, who and when, images as
// thumbnails. One's own files can be deleted (the server refuses one used in a review, and says so).

export default function FilesPanel({ ws }: { ws: Workspace }) {
  const files = useOrderFiles(ws);
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const upload = async (list: FileList | null) => {
    if (!list?.length) return;
    setError(null);
    setNotice(null);
    const done: string[] = [];
    for (const file of Array.from(list)) {
      setBusy(`Uploading ${file.name}…`);
      try {
        done.push((await uploadOrderFile(ws, file)).name);
      } catch (err) {
        setError(`${file.name}: ${errorMessage(err)}`);
        break;
      }
    }
    setBusy(null);
    if (input.current) input.current.value = '';
    if (done.length) setNotice(`Uploaded ${done.join(', ')}.`);
    await files.reload();
  };

  const remove = async (file: OrderFile) => {
    if (!window.confirm(`Delete ${file.name}?`)) return;
    setError(null);
    try {
      await call(ORDER_FILE_DELETE[ws.side], { params: { orderId: ws.orderId, fileId: file.id } });
      setNotice(`Deleted ${file.name}.`);
      await files.reload();
    } catch (err) {
      setError(errorMessage(err));
    }
  };

  const download = async (file: OrderFile) => {
    const failed = await downloadOperation(ORDER_FILE[ws.side], { params: { orderId: ws.orderId, fileId: file.id } }, file.name);
    if (failed) setError(failed);
  };

  return (
    <PanelCard className="flex flex-col gap-5">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex flex-col gap-1">
          <h2 className="text-xl font-semibold text-white">Files</h2>
          <p className="text-sm text-muted">
            {ws.side === 'customer'
              ? 'Your logo, photos and texts for the website; the designs and deliverables we share appear here too.'
              : 'The customer’s assets and content, and the designs and deliverables you share.'}
          </p>
        </div>
        <div className="flex flex-col gap-1 sm:items-end">
          <label
            htmlFor={inputId}
            className={buttonClass(
              'primary',
              'cursor-pointer has-disabled:cursor-not-allowed has-disabled:opacity-60 focus-within:outline-2 focus-within:outline-accent',
            )}
          >
            Upload files
            <input
              ref={input}
              id={inputId}
              type="file"
              multiple
              accept={ORDER_FILE_ACCEPT}
              className="sr-only"
              disabled={busy !== null}
              onChange={(e) => void upload(e.target.files)}
            />
          </label>
          <p className="text-xs text-muted">Images, PDF, ZIP, Office documents, text · up to 25 MB each</p>
        </div>
      </div>
      <p role="status" className="text-sm text-success empty:hidden">
        {busy ?? notice ?? ''}
      </p>
      {error && <PanelError message={error} />}
      {files.error ? (
        <PanelError message={files.error} />
      ) : !files.data ? (
        <PanelLoading label="Loading the files" />
      ) : files.data.length === 0 ? (
        <p className="text-sm text-muted">No files yet.</p>
      ) : (
        <ul className="flex flex-col divide-y divide-line" aria-label="Files of the order">
          {files.data.map((f) => (
            <li key={f.id} className="flex min-w-0 flex-wrap items-center gap-3 py-3 sm:flex-nowrap" data-testid="order-file">
              <FileThumb ws={ws} file={f} />
              <div className="min-w-0 flex-1 basis-40">
                <p className="font-medium wrap-anywhere text-white">{f.name}</p>
                <p className="text-xs text-muted">
                  {typeLabel(f.contentType)} · {formatSize(f.size)} · {whoLabel(f.uploadedBy, ws.side)} · {formatShortWhen(f.createdAt)}
                </p>
              </div>
              <div className="flex gap-2">
                <Button variant="secondary" className="px-3" onClick={() => void download(f)} aria-label={`Download ${f.name}`}>
                  Download
                </Button>
                {f.uploadedBy === ws.side && (
                  <Button variant="ghost" className="px-3" onClick={() => void remove(f)} aria-label={`Delete ${f.name}`}>
                    Delete
                  </Button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </PanelCard>
  );
}
