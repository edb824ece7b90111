import { PassThrough, type Readable } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough, strToU8 } from 'fflate';
import type { AppDeps } from '../../deps.ts';
import { ObjectMissingError } from '../../integrations/storage/file-storage.ts';
import { invoicePdf } from '../invoices/invoice-queries.ts';
import type { collectAccountData } from './collect-account-data.ts';
import { exportReadme } from './readme.ts';

// The ZIP of "download all my data", streamed: order files can be hundreds of megabytes, so their
// bytes go from the file storage through fflate to the response in chunks, waiting whenever the
// client reads slower than we produce (nothing is held whole in memory but one invoice PDF).
// data.json is written last: it reports the files that did not fit or could not be read.

type Collected = Awaited<ReturnType<typeof collectAccountData>>;

export interface ExportOptions {
  /** Order files beyond this many bytes in total are left out (and listed in data.json). */
  filesLimitBytes: number;
}

/** A file name safe as one path segment of a ZIP entry: no separators, no "..", no controls. */
export function entrySegment(name: string): string {
  const clean = name
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]/g, '_')
    .replace(/^\.+/, '_')
    .trim()
    .slice(0, 200);
  return clean || 'file';
}

/** "name.pdf", then "name (2).pdf" for the next file of the same name in one folder. */
function uniqueIn(taken: Set<string>, name: string): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

export function exportZipStream(deps: AppDeps, userId: string, collected: Collected, opts: ExportOptions): Readable {
  const out = new PassThrough();
  const zip = new Zip((err, chunk, final) => {
    if (err) return void out.destroy(err);
    out.write(chunk);
    if (final) out.end();
  });
  const drained = () => (out.writableNeedDrain ? new Promise<void>((resolve) => out.once('drain', resolve)) : Promise.resolve());
  const addBytes = async (path: string, bytes: Uint8Array, compress: boolean) => {
    const entry = compress ? new ZipDeflate(path, { level: 6 }) : new ZipPassThrough(path);
    zip.add(entry);
    entry.push(bytes, true);
    await drained();
  };

  const run = async () => {
    await addBytes('README.txt', strToU8(exportReadme(deps.config.BRAND_NAME, opts.filesLimitBytes)), true);

    const invoiceFiles: Record<string, string> = {};
    const usedInvoiceNames = new Set<string>();
    for (const inv of collected.invoices) {
      // invoicePdf checks the owner again: an invoice of someone else could never be rendered here.
      const { pdf, filename } = await invoicePdf(deps, inv.id, userId);
      const path = `invoices/${uniqueIn(usedInvoiceNames, entrySegment(filename))}`;
      invoiceFiles[inv.number] = path;
      await addBytes(path, pdf, false);
    }

    const included: { order: string; name: string; size: number; path: string }[] = [];
    const skipped: { order: string; name: string; size: number; reason: string }[] = [];
    const usedNames = new Map<string, Set<string>>();
    let total = 0;
    for (const { orderPublicId, file } of collected.files) {
      if (total + file.size > opts.filesLimitBytes) {
        skipped.push({ order: orderPublicId, name: file.name, size: file.size, reason: 'over the size limit of one export' });
        continue;
      }
      let body: Readable;
      try {
        body = await deps.fileStorage.get(file.storageKey);
      } catch (err) {
        if (!(err instanceof ObjectMissingError)) throw err;
        deps.log.error({ fileId: file.id, storageKey: file.storageKey }, 'account export: order file bytes missing from the file storage');
        skipped.push({ order: orderPublicId, name: file.name, size: file.size, reason: 'missing from the file storage' });
        continue;
      }
      const folder = entrySegment(orderPublicId);
      const taken = usedNames.get(folder) ?? new Set<string>();
      usedNames.set(folder, taken);
      const path = `files/${folder}/${uniqueIn(taken, entrySegment(file.name))}`;
      // Images, PDFs and archives are compressed already: stored as they are.
      const entry = new ZipPassThrough(path);
      zip.add(entry);
      for await (const chunk of body) {
        entry.push(chunk as Uint8Array);
        await drained();
      }
      entry.push(new Uint8Array(0), true);
      total += file.size;
      included.push({ order: orderPublicId, name: file.name, size: file.size, path });
    }

    const data = {
      ...collected.data,
      invoiceFiles,
      orderFiles: { limitBytes: opts.filesLimitBytes, included, skipped },
    };
    await addBytes('data.json', strToU8(JSON.stringify(data, null, 2)), true);
    zip.end();
  };
  run().catch((err: unknown) => {
    deps.log.error({ err }, 'account export: the ZIP could not be completed');
    zip.terminate();
    out.destroy(err instanceof Error ? err : new Error(String(err)));
  });
  return out;
}
