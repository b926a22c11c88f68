import { createHash } from 'node:crypto';
import type { GraphQLRequest } from '@apollo/server';
import type { GraphQLError } from 'graphql';
import { ClientErrorCode, httpError } from '../../plugin-sdk/index.js';

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * What is wrong with the request's automatic persisted query extension, as a coded 400, or
 * undefined when it is absent or well formed: `{ "version": 1, "sha256Hash": "<64 hex>" }`,
 * and with a query, the query's own sha256 (what Apollo Server would check, uncoded).
 */
export function persistedQueryProblem(request: GraphQLRequest): GraphQLError | undefined {
  const persisted: unknown = request.extensions?.persistedQuery;
  if (persisted === undefined || persisted === null) return undefined;
  const invalid = (message: string) => httpError(ClientErrorCode.PERSISTED_QUERY_INVALID, message);
  if (typeof persisted !== 'object' || Array.isArray(persisted)) {
    return invalid('extensions.persistedQuery must be an object: { "version": 1, "sha256Hash": "<sha256 hex>" }.');
  }
  const { version, sha256Hash } = persisted as { version?: unknown; sha256Hash?: unknown };
  if (version !== 1) return invalid('Unsupported persisted query version: only version 1 is supported.');
  if (typeof sha256Hash !== 'string' || !SHA256_HEX.test(sha256Hash)) {
    return invalid('extensions.persistedQuery.sha256Hash must be 64 lower-case hex digits.');
  }
  if (typeof request.query === 'string' && createHash('sha256').update(request.query).digest('hex') !== sha256Hash) {
    return httpError(
      ClientErrorCode.PERSISTED_QUERY_HASH_MISMATCH,
      'The provided sha256Hash does not match the query.',
    );
  }
  return undefined;
}
