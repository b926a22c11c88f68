import type { GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { Kind, OperationTypeNode } from 'graphql';
import { OptionIssues } from '../settings/plugin-options.js';
import { RESILIENCE_VALUES } from './settings.js';

export interface SubgraphRetryOptions {
  /** Retries after the first attempt; 0 turns retries off. */
  maxRetries: number;
  /** Wait before the first retry is uniform in [0, backoffMs], doubling with each retry. */
  backoffMs: number;
  /** Retries may be at most this share of the subgraph's recent requests (0..1). */
  budgetRatio: number;
  /** Retries allowed per second whatever the traffic. */
  budgetMinPerSecond: number;
}

/** Throws a PluginOptionsError naming every bad option. */
export function checkRetryOptions(options: SubgraphRetryOptions): void {
  const issues = new OptionIssues();
  issues.check('retry.maxRetries', options.maxRetries, RESILIENCE_VALUES.retries, true);
  issues.check('retry.backoffMs', options.backoffMs, RESILIENCE_VALUES.retryBackoffMs, true);
  issues.check('retry.budgetRatio', options.budgetRatio, RESILIENCE_VALUES.retryBudget, true);
  issues.check('retry.budgetMinPerSecond', options.budgetMinPerSecond, RESILIENCE_VALUES.retryMinPerSec, true);
  issues.throwIfAny('subgraph data source');
}

/**
 * Failures on which no answer was received and a second try may well succeed: nothing
 * listened (a pod restarting), the connection was closed or reset before the answer
 * began (a keep-alive socket the subgraph closed as we reused it), DNS had a hiccup.
 * Not ENOTFOUND (a wrong host stays wrong) and not a timeout (see README).
 */
const RETRYABLE_CONNECTION_ERRORS: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/**
 * 502 and 503 come from a proxy with no healthy upstream or a subgraph shedding load: the
 * request was not processed. Not 504: the upstream was already too slow once, and a
 * retry would double the load on it. Not 500 or 429: the subgraph answered.
 */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([502, 503]);

export const isRetryableConnectionError = (code: string): boolean => RETRYABLE_CONNECTION_ERRORS.has(code);
export const isRetryableStatus = (status: number): boolean => RETRYABLE_STATUSES.has(status);

/**
 * Whether a fetch is a read: a client query's, or one a subscription event runs (its entity
 * fetches read, as a query's do), the only fetches retried and shared in flight. Decided from
 * the client's operation, not the fetch: the `_entities` fetch that follows a mutation's root
 * field is itself a query, but it is part of a mutation and is not retried.
 * Anything unknown (no operation, health checks) is not retried either.
 */
export function isQueryFetch(options: GraphQLDataSourceProcessOptions): boolean {
  if ((options.kind as string) !== 'incoming operation' || !('incomingRequestContext' in options)) return false;
  const incoming = (options.incomingRequestContext as { operation?: { operation?: unknown } }).operation;
  if (incoming?.operation !== OperationTypeNode.QUERY && incoming?.operation !== OperationTypeNode.SUBSCRIPTION)
    return false;
  // The fetch's own operation must be a query too (it always is for a client query).
  const fetch = options.document?.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  return (
    fetch === undefined || (fetch.kind === Kind.OPERATION_DEFINITION && fetch.operation === OperationTypeNode.QUERY)
  );
}
