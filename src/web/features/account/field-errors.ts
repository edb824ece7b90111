import { ApiError, errorMessage } from '../../lib/api.ts';

export interface FieldErrors {
  /** Messages by body field name (name, phone_number, …). */
  fields: Record<string, string>;
  /** What belongs to no field, for the form's own error line. */
  form: string | null;
}

/**
 * Splits the server's validation answer ("Invalid body. phone_number: …; name: …", the one error
 * handler's format) into messages for the fields they are about, so each shows next to its field;
 * anything else stays a form-level sentence.
 */
export function fieldErrorsFrom(err: unknown, known: readonly string[]): FieldErrors {
  if (!(err instanceof ApiError) || err.code !== 'BAD_REQUEST') return { fields: {}, form: errorMessage(err) };
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  // The server lists the refused fields (docs/decisions/211-structured-errors.md); the sentence is
  // only read for answers without that list.
  if (err.fields.length) {
    for (const f of err.fields) {
      const field = f.path.split('.')[0];
      if (field && known.includes(field) && !fields[field]) fields[field] = f.message;
      else rest.push(f.path ? `${f.path}: ${f.message}` : f.message);
    }
    return { fields, form: rest.length ? rest.join(' ') : null };
  }
  const parts = err.message.replace(/^Invalid \w+\.\s*/, '').split('; ');
  for (const part of parts) {
    const m = /^([\w.]+): (.+)$/.exec(part);
    const field = m?.[1]?.split('.')[0];
    if (m && field && known.includes(field) && !fields[field]) fields[field] = m[2]!;
    else if (part.trim()) rest.push(part.trim());
  }
  return { fields, form: rest.length ? rest.join(' ') : null };
}
