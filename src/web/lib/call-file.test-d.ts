import { getOrdersFiles, getOrdersFilesByFileId, postOrdersFiles } from '../../contract/order-files.ts';
import { call } from './call.ts';
import { fileUrl, upload } from './call-file.ts';

// Type tests of the file operations (docs/decisions/295-file-operations.md): checked by
// `npm run typecheck` (tsc over src/), never run. Each `@ts-expect-error` fails the type check when
// the error it expects goes away: files go through upload / fileUrl, never through call; JSON
// operations the other way round.

export function fileOperationsTyping(file: File) {
  void upload(postOrdersFiles, { params: { orderId: 'ORD1' } }, file);
  // @ts-expect-error an upload is not JSON: call refuses it
  void call(postOrdersFiles, { params: { orderId: 'ORD1' } });
  // @ts-expect-error a file's bytes are not JSON: call refuses them
  void call(getOrdersFilesByFileId, { params: { orderId: 'ORD1', fileId: 'f' } });
  // @ts-expect-error a JSON read has no file URL
  void fileUrl(getOrdersFiles, { params: { orderId: 'ORD1' } });
  // @ts-expect-error the query takes '0' or '1'
  void fileUrl(getOrdersFilesByFileId, { params: { orderId: 'ORD1', fileId: 'f' }, query: { inline: 'yes' } });
}
