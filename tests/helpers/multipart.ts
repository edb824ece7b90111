import { randomBytes } from 'node:crypto';

export interface FormPart {
  name: string;
  /** Written as is (raw UTF-8 bytes, as a browser sends them); undefined = a plain field. */
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

/** A multipart/form-data body built by hand, so tests control every byte of it (names included). */
export function multipartBody(parts: FormPart[]) {
  const boundary = `----vitest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename === undefined ? '' : `; filename="${p.filename}"`}`;
    // A plain field has no Content-Type, as browsers send it (with one, busboy takes it for a file).
    const type = p.contentType ?? (p.filename === undefined ? undefined : 'application/octet-stream');
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`, 'utf8'),
    );
    chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** One file in the part named "file", as the contract asks. */
export const fileForm = (filename: string, data: Buffer | string, contentType = 'application/octet-stream') =>
  multipartBody([{ name: 'file', filename, contentType, data }]);
