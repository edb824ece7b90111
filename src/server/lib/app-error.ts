// One error model end to end: services throw AppError, the error handler maps the
// code to an HTTP status and the body is always {success:false, message, code}.
export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  /** Support has ended for the order: the answer offers the maintenance plan (decision 170). */
  SUPPORT_ENDED: 402,
  FORBIDDEN: 403,
  /** A back-office session not confirmed by a passkey within ADMIN_STEP_UP_HOURS (decision 190). */
  STEP_UP_REQUIRED: 403,
  /** Deleting the account needs a fresh code or passkey (decision 192). */
  CONFIRMATION_REQUIRED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  /** An order is paid for and not yet delivered: the account cannot be deleted (decision 192). */
  ORDER_IN_PROGRESS: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** The refused fields, for forms to show each message under its field (docs/decisions/211-structured-errors.md). */
  readonly fields?: { path: string; message: string }[];
  constructor(code: ErrorCode, message: string, fields?: { path: string; message: string }[]) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = errorStatus[code];
    if (fields?.length) this.fields = fields;
  }
}

export const badRequest = (message: string, fields?: { path: string; message: string }[]) => new AppError('BAD_REQUEST', message, fields);
export const unauthorized = (message = 'Please sign in.') => new AppError('UNAUTHORIZED', message);
export const forbidden = (message = 'You are not allowed to do this.') => new AppError('FORBIDDEN', message);
export const notFound = (message = 'Not found.') => new AppError('NOT_FOUND', message);
export const conflict = (message: string) => new AppError('CONFLICT', message);
export const tooManyRequests = (message = 'Too many requests. Please try again later.') => new AppError('RATE_LIMITED', message);
