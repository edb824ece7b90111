import { afterEach, describe, expect, it, vi } from 'vitest';
import { getAdminOrdersFilesByFileId, getOrdersFilesByFileId, postOrdersFiles } from '../../contract/order-files.ts';
import { ApiError } from './api.ts';
import { fileUrl, upload } from './call-file.ts';

// The operations that carry a file (docs/decisions/295-file-operations.md).

describe('fileUrl', () => {
  it("builds the file's URL from the operation, params encoded, the query appended", () => {
    expect(fileUrl(getOrdersFilesByFileId, { params: { orderId: 'ORD1', fileId: 'a/b' } })).toBe('/api/v1/orders/ORD1/files/a%2Fb');
    expect(fileUrl(getAdminOrdersFilesByFileId, { params: { orderId: 'ORD1', fileId: 'f' }, query: { inline: '1' } })).toBe(
      '/api/v1/admin/orders/ORD1/files/f?inline=1',
    );
  });
});

// The typing of the file operations is tested by tsc: call-file.test-d.ts.

describe('upload', () => {
  afterEach(() => vi.unstubAllGlobals());

  const network = (status: number, body: unknown) => {
    const sent: { url: string; init: RequestInit }[] = [];
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(JSON.stringify(body), { status });
    });
    return sent;
  };

  it("sends the file as multipart in the operation's part, with no JSON type and no shared Idempotency-Key", async () => {
    const sent = network(201, { success: true, file: { id: 'f1' } });
    const file = new File(['png'], 'logo.png', { type: 'image/png' });
    await expect(upload(postOrdersFiles, { params: { orderId: 'ORD1' } }, file)).resolves.toMatchObject({ file: { id: 'f1' } });
    await upload(postOrdersFiles, { params: { orderId: 'ORD1' } }, file);
    expect(sent[0]!.url).toBe('/api/v1/orders/ORD1/files');
    expect(sent[0]!.init.method).toBe('POST');
    const body = sent[0]!.init.body as FormData;
    expect(body).toBeInstanceOf(FormData);
    expect((body.get('file') as File).name).toBe('logo.png');
    const headers = sent[0]!.init.headers as Record<string, string>;
    expect(headers['content-type']).toBeUndefined();
    expect(Object.keys(headers).filter((h) => h.toLowerCase() === 'idempotency-key')).toEqual([]);
  });

  it("fails with the server's sentence as an ApiError", async () => {
    network(415, { code: 'UNSUPPORTED_TYPE', message: 'This kind of file is not accepted.' });
    const refused = upload(postOrdersFiles, { params: { orderId: 'ORD1' } }, new File(['x'], 'x.exe'));
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 415, message: 'This kind of file is not accepted.' });
  });
});
