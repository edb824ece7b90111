import type { AnyOperation, OperationOutput, OperationUrlInput } from '../../contract/operation.ts';
import type { FieldError } from '../../contract/common.ts';
import { ApiError, tokenStore } from './api.ts';
import { operationUrl } from './call.ts';
import { downloadUrl } from './download-file.ts';
import { STEP_UP_REQUIRED, signalStepUpRequired } from './step-up-signal.ts';

// The operations that carry a file rather than JSON (docs/decisions/295-file-operations.md): an
// upload (`multipart`) is sent with `upload`, a file (`binary`) is read through `fileUrl` or
// `downloadOperation`. `call` refuses both at compile time (their OperationInput is `never`).

type UploadOperation = AnyOperation & { readonly multipart: { readonly part: string } };
export type BinaryOperation = AnyOperation & { readonly binary: true };
/** The params and query of the call (what `operationUrl` reads). */
export type UrlInput<Op extends AnyOperation> = OperationUrlInput<Op> & { params?: unknown; query?: unknown };

/** Sends `file` as multipart/form-data in the operation's one part; the answer as `call` gives it, failures as ApiError. */
export async function upload<Op extends UploadOperation>(op: Op, input: UrlInput<Op>, file: File): Promise<OperationOutput<Op>> {
  const form = new FormData();
  form.append(op.multipart.part, file, file.name);
  let res: Response;
  try {
    res = await fetch(operationUrl(op, input), { method: op.method, headers: { authorization: `Bearer ${tokenStore.get() ?? ''}` }, body: form });
  } catch {
    throw new ApiError(0, 'NETWORK', 'Network error. Please check your connection and try again.');
  }
  const data = (await res.json().catch(() => null)) as (OperationOutput<Op> & { message?: string; code?: string; fields?: FieldError[] }) | null;
  if (res.status === 403 && data?.code === STEP_UP_REQUIRED) signalStepUpRequired();
  if (!res.ok || !data) throw new ApiError(res.status, data?.code ?? 'ERROR', data?.message ?? `Upload failed (${res.status}).`, data?.fields ?? []);
  return data;
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
