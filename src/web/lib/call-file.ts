import type { AnyOperation, OperationOutput, OperationUrlInput } from '../../contract/operation.ts';
import { request, tokenStore } from './api.ts';
import { operationUrl } from './call.ts';
import { downloadUrl } from './download-file.ts';

// The operations that carry a file rather than JSON (docs/decisions/295-file-operations.md): an
// upload (`multipart`) is sent with `upload`, a file (`binary`) is read through `fileUrl` or
// `downloadOperation`. `call` refuses both at compile time (their OperationInput is `never`).

type UploadOperation = AnyOperation & { readonly multipart: { readonly part: string } };
export type BinaryOperation = AnyOperation & { readonly binary: true };
/** The params and query of the call (what `operationUrl` reads). */
export type UrlInput<Op extends AnyOperation> = OperationUrlInput<Op> & { params?: unknown; query?: unknown };

/** Sends `file` as multipart/form-data in the operation's one part; the answer as `call` gives it, failures as ApiError. */
export function upload<Op extends UploadOperation>(op: Op, input: UrlInput<Op>, file: File): Promise<OperationOutput<Op>> {
  const form = new FormData();
  form.append(op.multipart.part, file, file.name);
  return request<OperationOutput<Op>>(op.method, operationUrl(op, input), form);
}

/** The URL of a file operation's answer (fetched with the bearer token: an <img> or a link cannot send it). */
export const fileUrl = <Op extends BinaryOperation>(op: Op, input: UrlInput<Op>): string => operationUrl(op, input);

/** A file operation's answer as a Blob (fetched with the bearer token), or null when refused or unreachable. */
export async function fetchFile<Op extends BinaryOperation>(op: Op, input: UrlInput<Op>): Promise<Blob | null> {
  try {
    const res = await fetch(fileUrl(op, input), { headers: { authorization: `Bearer ${tokenStore.get() ?? ''}` } });
    return res.ok ? await res.blob() : null;
  } catch {
    return null;
  }
}

/** Downloads a file operation's answer; an error sentence, or null when the download started. */
export const downloadOperation = <Op extends BinaryOperation>(op: Op, input: UrlInput<Op>, fallbackName: string): Promise<string | null> =>
  downloadUrl(fileUrl(op, input), fallbackName);
