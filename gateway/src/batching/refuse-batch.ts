import { HeaderMap, type HTTPGraphQLRequest, type HTTPGraphQLResponse } from '@apollo/server';
import { CLIENT_ERRORS, ClientErrorCode } from '../error-registry.js';

/**
 * The answer to a batched request (a POST whose body is a JSON array) that must not start:
 * empty, over `maxOperations`, or holding an operation Apollo Server would reject as a
 * malformed request. Decided from the body's shape alone, before anything of it is parsed or
 * run: Apollo Server starts every operation of a batch at once and fails the whole batch on
 * the first malformed one, so the operations before it would run (and be charged) for an
 * answer nobody gets. `undefined` for anything else (one operation, a GET).
 */
export function refuseBatch(request: HTTPGraphQLRequest, maxOperations: number): HTTPGraphQLResponse | undefined {
  const { body } = request;
  if (request.method !== 'POST' || !Array.isArray(body)) return undefined;
  if (body.length === 0) return refusal(ClientErrorCode.BAD_REQUEST, 'The batch holds no operation.');
  if (body.length > maxOperations) {
    return refusal(
      ClientErrorCode.BATCH_TOO_LARGE,
      `A batch may hold at most ${maxOperations} operations; this one holds ${body.length}. Send fewer at once.`,
    );
  }
  for (const [index, operation] of body.entries()) {
    const problem = malformed(operation);
    if (problem) return refusal(ClientErrorCode.BAD_REQUEST, `Operation ${index} of the batch ${problem}.`);
  }
  return undefined;
}

/** Apollo Server's checks of a POST body (runHttpQuery.ts), which throw instead of answering. */
function malformed(operation: unknown): string | undefined {
  if (!isRecord(operation) || Object.keys(operation).length === 0) return 'is not a JSON object with keys';
  const { query, variables, extensions, operationName } = operation;
  if (query && typeof query !== 'string') return 'has a `query` that is not a string';
  if (variables !== undefined && variables !== null && !isRecord(variables))
    return 'has `variables` that are not an object';
  if (extensions !== undefined && extensions !== null && !isRecord(extensions)) {
    return 'has `extensions` that are not an object';
  }
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') {
    return 'has an `operationName` that is not a string';
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The same shape as every refusal the gateway writes: `{"errors":[{"message","extensions":{"code"}}]}`. */
function refusal(code: ClientErrorCode, message: string): HTTPGraphQLResponse {
  return {
    status: CLIENT_ERRORS[code].status,
    headers: new HeaderMap([['content-type', 'application/json; charset=utf-8']]),
    body: { kind: 'complete', string: JSON.stringify({ errors: [{ message, extensions: { code } }] }) },
  };
}
