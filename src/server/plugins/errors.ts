import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { AppError, type ErrorCode, errorStatus } from '../lib/app-error.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';

const fastifyCodes: Record<string, ErrorCode> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_RATE_LIMIT_EXCEEDED: 'RATE_LIMITED',
};

const statusCodes: Record<number, ErrorCode> = Object.fromEntries(
  Object.entries(errorStatus).map(([code, status]) => [status, code as ErrorCode]),
);

/** Installs the one error handler and the JSON 404 for unknown API paths. */
export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = err.validationContext ?? 'body';
      // `message` keeps its old wording for clients that show one sentence; `fields` lets a form put
      // each message under its field (docs/decisions/211-structured-errors.md).
      const fields = err.validation.map((v) => ({
        path: v.instancePath.replace(/^\//, '').replace(/\//g, '.'),
        message: v.message ?? 'Invalid value.',
      }));
      const details = fields.map((f) => (f.path ? `${f.path}: ${f.message}` : `${where}: ${f.message}`));
      return reply.status(400).send({ success: false, code: 'BAD_REQUEST', message: `Invalid ${where}. ${details.join('; ')}`, fields });
    }
    if (err instanceof AppError) {
      return reply
        .status(err.status)
        .send({ success: false, code: err.code, message: err.message, ...(err.fields ? { fields: err.fields } : {}) });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply.status(500).send({ success: false, code: 'INTERNAL', message: 'Something went wrong. Please try again.' });
    }
    if (isDatabaseUnavailable(err)) {
      request.log.warn({ err: err.message }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send({ success: false, code: 'UNAVAILABLE', message: 'The service is briefly unavailable. Please try again in a moment.' });
    }
    const mapped = err.code ? fastifyCodes[err.code] : undefined;
    const status = mapped ? errorStatus[mapped] : (err.statusCode ?? 500);
    if (status >= 500) {
      request.log.error({ err }, 'unhandled error');
      return reply.status(500).send({ success: false, code: 'INTERNAL', message: 'Something went wrong. Please try again.' });
    }
    const code = mapped ?? statusCodes[status] ?? 'BAD_REQUEST';
    const message =
      code === 'PAYLOAD_TOO_LARGE'
        ? 'Request body is too large.'
        : code === 'UNSUPPORTED_MEDIA_TYPE'
          ? 'Unsupported content type. Send application/json.'
          : code === 'RATE_LIMITED'
            ? 'Too many requests. Please try again later.'
            : err.message;
    return reply.status(status).send({ success: false, code, message });
  });
}

/**
 * Errors Fastify answers before any route or error handler runs — a path that is not valid UTF-8
 * once decoded (`%ED%A0%80`, a lone surrogate; `%C0`) — in the API's error shape (Fastify option
 * `frameworkErrors`), with the string policy's wording (decision 090) instead of FST_ERR_BAD_URL.
 */
export function frameworkErrors(err: FastifyError, _request: FastifyRequest, reply: FastifyReply) {
  if (err.code === 'FST_ERR_BAD_URL') {
    return reply.status(400).send({
      success: false,
      code: 'BAD_REQUEST',
      message: 'Invalid path: it contains invalid Unicode (a lone surrogate or a broken UTF-8 sequence). Remove it and try again.',
    });
  }
  const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
  return reply.status(status).send({ success: false, code: statusCodes[status] ?? 'BAD_REQUEST', message: 'Invalid request.' });
}

export function sendApiNotFound(method: string, url: string) {
  return { success: false as const, code: 'NOT_FOUND' as const, message: `No such API route: ${method} ${url.split('?')[0]}` };
}
