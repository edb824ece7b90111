import { describe, expect, it } from 'vitest';
import { getAdminOrdersFilesByFileId, getOrdersFiles, getOrdersFilesByFileId, postOrdersFiles } from '../../contract/order-files.ts';
import { call } from './call.ts';
import { fileUrl, upload } from './call-file.ts';

// The operations that carry a file (docs/decisions/295-file-operations.md).

describe('fileUrl', () => {
  it("builds the file's URL from the operation, params encoded, the query appended", () => {
    expect(fileUrl(getOrdersFilesByFileId, { params: { orderId: 'ORD1', fileId: 'a/b' } })).toBe('/api/v1/orders/ORD1/files/a%2Fb');
    expect(fileUrl(getAdminOrdersFilesByFileId, { params: { orderId: 'ORD1', fileId: 'f' }, query: { inline: '1' } })).toBe('/api/v1/admin/orders/ORD1/files/f?inline=1');
  });
});

describe('file operations typing', () => {
  it('go through upload / fileUrl, never through call; JSON operations the other way round', () => {
    // Never executed: these lines exist for the type checker (tsc fails if an error goes away).
    const typeChecks = (file: File) => {
      void upload(postOrdersFiles, { params: { orderId: 'ORD1' } }, file);
      // @ts-expect-error an upload is not JSON: call refuses it
      void call(postOrdersFiles, { params: { orderId: 'ORD1' } });
      // @ts-expect-error a file's bytes are not JSON: call refuses them
      void call(getOrdersFilesByFileId, { params: { orderId: 'ORD1', fileId: 'f' } });
      // @ts-expect-error a JSON read has no file URL
      void fileUrl(getOrdersFiles, { params: { orderId: 'ORD1' } });
      // @ts-expect-error the query takes '0' or '1'
      void fileUrl(getOrdersFilesByFileId, { params: { orderId: 'ORD1', fileId: 'f' }, query: { inline: 'yes' } });
    };
    expect(typeof typeChecks).toBe('function');
  });
});
