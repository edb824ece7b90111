import type { OperationOutput, OperationSpec } from '../../contract/operation.ts';
import { type CallArgs, callEndpoint, operationUrl } from './api.ts';

export { operationUrl };

/**
 * Calls one contract operation (docs/decisions/280-contract-operations.md): the URL from its path
 * and `input.params`/`input.query`, `input.body` as JSON, the answer typed from its responses.
 * Features call the API only this way (the public pages' code through the operation's endpoint,
 * `callEndpoint` in api.ts: docs/decisions/301-zod-free-endpoints.md); `init.signal` cancels a stale request.
 */
export function call<Op extends OperationSpec>(op: Op, ...args: CallArgs<Op>): Promise<OperationOutput<Op>> {
  // An operation is its own endpoint: the same method and path.
  return callEndpoint<Op>(op, ...args);
}
