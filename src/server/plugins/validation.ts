import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { applyTextPolicy } from '../../contract/text-policy.ts';
import { badRequest } from '../lib/app-error.ts';

const PART_NAMES: Record<string, string> = { body: 'body', querystring: 'query string', params: 'path' };

/**
 * The zod validator of every route, preceded by the contract's string policy
 * (src/contract/text-policy.ts): a NUL byte, a lone surrogate or a control character anywhere in
 * the body, the path parameters or the query string is a 400 naming the field, before any route
 * code or database sees it. The route's schema tells which fields are multi-line (tab, LF, CR). Headers are left
 * to Node, which already refuses control characters in them.
 */
export const validatorWithTextPolicy: FastifySchemaCompiler<unknown> = (route) => {
  const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
  const part = route.httpPart ?? 'body';
  if (!(part in PART_NAMES)) return validate;
  return (data: unknown) => {
    const checked = applyTextPolicy(data, route.schema);
    if (!checked.ok) {
      const where = checked.path ? `${PART_NAMES[part]} field "${checked.path}"` : `the ${PART_NAMES[part]}`;
      const field = checked.path ? [{ path: checked.path, message: `This field ${checked.reason}. Remove it and try again.` }] : undefined;
      return { error: badRequest(`Invalid ${PART_NAMES[part]}: ${where} ${checked.reason}. Remove it and try again.`, field) };
    }
    return validate(checked.value);
  };
};
