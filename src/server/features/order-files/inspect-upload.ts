import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

// Everything the type decision and the metadata need, gathered while the upload streams to the
// storage: one pass, nothing buffered but the first few KB.

/** Byte strings looked for anywhere in the file (ZIP entry names, OLE stream names). */
export const MARKERS = {
  contentTypesXml: Buffer.from('[Content_Types].xml'),
  wordDocumentXml: Buffer.from('word/document.xml'),
  excelWorkbookXml: Buffer.from('xl/workbook.xml'),
  powerpointXml: Buffer.from('ppt/presentation.xml'),
  // OLE directory entries are UTF-16LE.
  oleWord: Buffer.from('WordDocument', 'utf16le'),
  oleExcel: Buffer.from('Workbook', 'utf16le'),
  oleExcel95: Buffer.from('Book', 'utf16le'),
  olePowerPoint: Buffer.from('PowerPoint Document', 'utf16le'),
} as const;
export type Marker = keyof typeof MARKERS;

export interface Inspection {
  size: number;
  sha256: string;
  /** The first HEAD_BYTES bytes. */
  head: Buffer;
  /** Valid UTF-8 from start to end, without a NUL byte. */
  isText: boolean;
  markers: Set<Marker>;
}

export const HEAD_BYTES = 8 * 1024;
const OVERLAP = Math.max(...Object.values(MARKERS).map((m) => m.length)) - 1;

/** A pass-through stream that inspects what flows through it; `result()` once it has ended. */
export function inspectUpload(): Transform & { result: () => Inspection } {
  const hash = createHash('sha256');
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const headParts: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  let isText = true;
  let carry = Buffer.alloc(0);
  const markers = new Set<Marker>();

  const look = (chunk: Buffer) => {
    // The end of the previous chunk is kept so a marker split between two chunks is still found.
    const window = carry.length ? Buffer.concat([carry, chunk]) : chunk;
    for (const [name, bytes] of Object.entries(MARKERS) as [Marker, Buffer][]) {
      if (!markers.has(name) && window.includes(bytes)) markers.add(name);
    }
    carry = Buffer.from(window.subarray(Math.max(0, window.length - OVERLAP)));
  };

  const stream = new Transform({
    transform(chunk: Buffer, _enc, done: TransformCallback) {
      size += chunk.length;
      hash.update(chunk);
      if (headLength < HEAD_BYTES) {
        const part = chunk.subarray(0, HEAD_BYTES - headLength);
        headParts.push(Buffer.from(part));
        headLength += part.length;
      }
      if (isText) {
        if (chunk.includes(0)) isText = false;
        else {
          try {
            decoder.decode(chunk, { stream: true });
          } catch {
            isText = false;
          }
        }
      }
      look(chunk);
      done(null, chunk);
    },
    flush(done: TransformCallback) {
      if (isText) {
        try {
          decoder.decode(); // a multi-byte character cut off at the end
        } catch {
          isText = false;
        }
      }
      done();
    },
  });
  let digest: string | undefined;
  return Object.assign(stream, {
    result: (): Inspection => ({ size, sha256: (digest ??= hash.digest('hex')), head: Buffer.concat(headParts), isText, markers }),
  });
}
