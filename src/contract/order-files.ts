import { z } from 'zod';
import { errorResponse, errorResponses } from './common.ts';
import { defineOperation } from './operation.ts';

// Order files: brand assets and content from the customer, designs and
// deliverables from the agency. Customer routes: /api/v1/orders/{orderId}/files…; the founder's
// are the same under /api/v1/admin/orders/{orderId}/files….
// The upload is multipart/form-data with ONE part named `file`; the server decides the type from
// the bytes (decision 141) and answers 415 for anything outside the list below.

/** What the server accepts, as decided from the bytes (decision 141). */
export const ORDER_FILE_TYPES = [
  'image/png',
  'image/jpeg',
  'image/webp',
  'image/gif',
  'image/svg+xml',
  'application/pdf',
  'application/zip',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/msword',
  'application/vnd.ms-excel',
  'application/vnd.ms-powerpoint',
  'text/plain',
  'text/markdown',
  'text/csv',
] as const;
export type OrderFileType = (typeof ORDER_FILE_TYPES)[number];

/** Raster images: the only files the server may answer inline (`?inline=1`), e.g. for thumbnails. */
export const INLINE_IMAGE_TYPES: readonly OrderFileType[] = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'];

/** The file input's `accept` hint for browsers (the server decides from the bytes anyway). */
export const ORDER_FILE_ACCEPT = '.png,.jpg,.jpeg,.webp,.gif,.svg,.pdf,.zip,.docx,.xlsx,.pptx,.doc,.xls,.ppt,.txt,.md,.csv';

/** The multipart part that carries the file. */
export const ORDER_FILE_PART = 'file';

export const orderFile = z.object({
  id: z.string().uuid(),
  /** The original name, sanitised (no path, control or bidi characters; ≤ 200 characters). */
  name: z.string(),
  /** Bytes. */
  size: z.number().int(),
  contentType: z.enum(ORDER_FILE_TYPES),
  uploadedBy: z.enum(['customer', 'agency']),
  createdAt: z.string(),
});
export type OrderFile = z.infer<typeof orderFile>;

export const orderFilesResponse = z.object({
  success: z.literal(true),
  files: z.array(orderFile),
});
export type OrderFilesResponse = z.infer<typeof orderFilesResponse>;

export const orderFileResponse = z.object({
  success: z.literal(true),
  file: orderFile,
});
export type OrderFileResponse = z.infer<typeof orderFileResponse>;

export const deleteOrderFileResponse = z.object({
  success: z.literal(true),
});

/** `orderId` is the public id (ORD…); `fileId` a uuid. Any other shape is simply not found. */
export const orderFilesParams = z.object({ orderId: z.string().min(1).max(40) });
export const orderFileParams = z.object({ orderId: z.string().min(1).max(40), fileId: z.string().min(1).max(64) });

/** `inline=1` answers a checked raster image inline (still sandboxed); anything else is always an attachment. */
export const downloadOrderFileQuery = z.object({ inline: z.enum(['0', '1']).optional() });

/** The file's bytes (any of ORDER_FILE_TYPES), described for the OpenAPI document. */
export const orderFileBytes = z.unknown().describe('The file (Content-Disposition: attachment)');

// Operations (docs/decisions/280-contract-operations.md), one per side's path. The upload and the
// download carry a file, not JSON (`multipart`, `binary`: docs/decisions/295-file-operations.md).

/** An upload's answers: too large (413) and a type outside ORDER_FILE_TYPES (415) besides the usual. */
const uploadErrors = { ...errorResponses, 413: errorResponse, 415: errorResponse };

/** The order's files, oldest first (the customer's) */
export const getOrdersFiles = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/files',
  params: orderFilesParams,
  responses: { 200: orderFilesResponse },
});

/** The order's files, oldest first (the back office's) */
export const getAdminOrdersFiles = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:orderId/files',
  params: orderFilesParams,
  responses: { 200: orderFilesResponse },
});

/** Uploads one file (the customer's) */
export const postOrdersFiles = defineOperation({
  method: 'POST',
  path: '/api/v1/orders/:orderId/files',
  params: orderFilesParams,
  multipart: { part: ORDER_FILE_PART },
  responses: { 201: orderFileResponse },
  errors: uploadErrors,
});

/** Uploads one file (the back office's) */
export const postAdminOrdersFiles = defineOperation({
  method: 'POST',
  path: '/api/v1/admin/orders/:orderId/files',
  params: orderFilesParams,
  multipart: { part: ORDER_FILE_PART },
  responses: { 201: orderFileResponse },
  errors: uploadErrors,
});

/** Downloads a file (the customer's) */
export const getOrdersFilesByFileId = defineOperation({
  method: 'GET',
  path: '/api/v1/orders/:orderId/files/:fileId',
  params: orderFileParams,
  query: downloadOrderFileQuery,
  binary: true,
  responses: { 200: orderFileBytes },
});

/** Downloads a file (the back office's) */
export const getAdminOrdersFilesByFileId = defineOperation({
  method: 'GET',
  path: '/api/v1/admin/orders/:orderId/files/:fileId',
  params: orderFileParams,
  query: downloadOrderFileQuery,
  binary: true,
  responses: { 200: orderFileBytes },
});

/** Deletes a file the customer uploaded */
export const deleteOrdersFilesByFileId = defineOperation({
  method: 'DELETE',
  path: '/api/v1/orders/:orderId/files/:fileId',
  params: orderFileParams,
  responses: { 200: deleteOrderFileResponse },
});

/** Deletes a file the agency uploaded */
export const deleteAdminOrdersFilesByFileId = defineOperation({
  method: 'DELETE',
  path: '/api/v1/admin/orders/:orderId/files/:fileId',
  params: orderFileParams,
  responses: { 200: deleteOrderFileResponse },
});
