import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deleteAdminOrdersFilesByFileId,
  deleteOrdersFilesByFileId,
  getAdminOrdersFiles,
  getAdminOrdersFilesByFileId,
  getOrdersFiles,
  getOrdersFilesByFileId,
  INLINE_IMAGE_TYPES,
  ORDER_FILE_PART,
  postAdminOrdersFiles,
  postOrdersFiles,
  type OrderFileType,
} from '../../../contract/order-files.ts';
import type { AppDeps } from '../../deps.ts';
import { AppError } from '../../lib/app-error.ts';
import { route } from '../../lib/route.ts';
import { perSession } from '../../lib/per-session-limit.ts';
import { authOf, requireUser } from '../../plugins/auth.ts';
import { contentDisposition } from './file-name.ts';
import {
  deleteOrderFile,
  listOrderFiles,
  listOwnOrderFiles,
  markFilesSeenByAgency,
  openOrderFile,
  orderFor,
  type Viewer,
} from './order-files.ts';
import { maxUploadBytes, refuseEarly, uploadOrderFile } from './upload-file.ts';

// Order files: the same four operations for the customer (/orders/…) and the founder
// (/admin/orders/…), each side's from src/contract/order-files.ts. Only who may see which order and
// which side an upload is on differ.

type Side = Viewer['side'];
const viewerOf = (request: FastifyRequest, side: Side): Viewer => ({ side, userId: authOf(request).user.id });

/**
 * Download headers (decision 141): always `attachment`, except a checked raster image asked for
 * inline; never sniffed; a sandbox CSP so that even a file a browser did render (an SVG with a
 * script, opened by hand) runs no script, as a page of a unique origin.
 */
function sendFile(
  reply: FastifyReply,
  file: { name: string; size: number; contentType: string },
  body: NodeJS.ReadableStream,
  inline: boolean,
) {
  const asInline = inline && INLINE_IMAGE_TYPES.includes(file.contentType as OrderFileType);
  return reply
    .header('content-type', file.contentType.startsWith('text/') ? `${file.contentType}; charset=utf-8` : file.contentType)
    .header('content-length', String(file.size))
    .header('content-disposition', contentDisposition(asInline ? 'inline' : 'attachment', file.name))
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'")
    .header('cross-origin-resource-policy', 'same-origin')
    .header('cache-control', 'private, no-store')
    .send(body);
}

function routesFor(side: Side): FastifyPluginAsyncZod<{ deps: AppDeps }> {
  return async (app, { deps }) => {
    const tags = [side === 'customer' ? 'order-files' : 'admin'];
    // Only for the upload routes of this plugin: the 100 KB JSON body limit stays everywhere else.
    await app.register(multipart, {
      // One byte over the limit, so the upload's own byte counter sees the excess and refuses it
      // (at exactly the limit busboy would cut the file short quietly and call it complete).
      limits: { fileSize: maxUploadBytes(deps.config) + 1, files: 1, fields: 5, parts: 6, fieldSize: 1024, headerPairs: 50 },
    });
    // The customer's routes check the session themselves; the founder's sit behind the admin guard.
    const guard = side === 'customer' ? { onRequest: requireUser(deps.db) } : {};

    route(
      app,
      side === 'customer' ? getOrdersFiles : getAdminOrdersFiles,
      { schema: { tags, summary: "The order's files, oldest first" }, ...guard },
      async (request) => {
        if (side === 'customer')
          return { success: true as const, files: await listOwnOrderFiles(deps, request.params.orderId, authOf(request).user.id) };
        const order = await orderFor(deps, request.params.orderId, viewerOf(request, side));
        // The agency has seen the customer's files: they leave the founder's inbox (docs/decisions/213-action-counts.md).
        if (side === 'agency') {
          await markFilesSeenByAgency(deps, order.id);
          await deps.events.publishAlone('order.seen', { orderId: order.id, side: 'agency', what: 'files', at: new Date() });
        }
        return { success: true as const, files: await listOrderFiles(deps, order) };
      },
    );

    route(
      app,
      side === 'customer' ? postOrdersFiles : postAdminOrdersFiles,
      {
        schema: { tags, summary: 'Uploads one file (multipart/form-data, one part named "file"); the type is decided from its bytes' },
        ...guard,
        config: perSession(60),
      },
      async (request, reply) => {
        const viewer = viewerOf(request, side);
        // Access first: another customer's order is a 404 before a byte of the body is read.
        const order = await orderFor(deps, request.params.orderId, viewer);
        if (!request.isMultipart())
          throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Send the file as multipart/form-data with one part named "${ORDER_FILE_PART}".`);
        const length = Number(request.headers['content-length']);
        await refuseEarly(deps, order, Number.isFinite(length) ? length : undefined);
        const part = await request.file().catch((err: unknown) => {
          // Busboy's own parse errors carry no status (a 500 otherwise): the body is at fault.
          if ((err as { statusCode?: number }).statusCode) throw err;
          throw new AppError('BAD_REQUEST', `The upload is not a readable multipart/form-data body (${(err as Error).message}).`);
        });
        if (!part) throw new AppError('BAD_REQUEST', `The form has no file: add one part named "${ORDER_FILE_PART}".`);
        if (part.fieldname !== ORDER_FILE_PART) {
          part.file.resume();
          throw new AppError('BAD_REQUEST', `The file must be sent in the part named "${ORDER_FILE_PART}" (got "${part.fieldname}").`);
        }
        const file = await uploadOrderFile(deps, order, viewer, { filename: part.filename, file: part.file });
        return reply.status(201).send({ success: true as const, file });
      },
    );

    route(
      app,
      side === 'customer' ? getOrdersFilesByFileId : getAdminOrdersFilesByFileId,
      {
        schema: { tags, summary: 'Downloads a file (attachment, nosniff, sandbox CSP); ?inline=1 shows a PNG/JPEG/WebP/GIF inline' },
        ...guard,
      },
      async (request, reply) => {
        const order = await orderFor(deps, request.params.orderId, viewerOf(request, side));
        const { file, body } = await openOrderFile(deps, order, request.params.fileId);
        return sendFile(reply, file, body, request.query.inline === '1');
      },
    );

    route(
      app,
      side === 'customer' ? deleteOrdersFilesByFileId : deleteAdminOrdersFilesByFileId,
      {
        schema: { tags, summary: 'Deletes a file your side uploaded, unless a review or message uses it' },
        ...guard,
        config: perSession(60),
      },
      async (request) => {
        const viewer = viewerOf(request, side);
        const order = await orderFor(deps, request.params.orderId, viewer);
        await deleteOrderFile(deps, order, request.params.fileId, viewer);
        return { success: true as const };
      },
    );
  };
}

/** The customer's routes (mounted at /api/v1). */
export const orderFileRoutes = routesFor('customer');
/** The founder's routes (mounted under /api/v1/admin, whose guard admits admins only). */
export const adminOrderFileRoutes = routesFor('agency');
