// The Idempotency-Key header (docs/decisions/210-idempotency-key.md). Kept apart from the zod
// schemas: the browser's API client reads it on every page, and zod must not ride along into the
// public pages' first load (the page-JS budget, decision 115).
export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const IDEMPOTENCY_KEY_PATTERN = /^[\x20-\x7E]{1,128}$/;
