import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import type { GatewayContext } from '../../plugin-sdk/index.js';
import { authFailureReason } from './auth-reason.js';
import { codeLabel } from './codes.js';
import { OperationNames } from './operation-names.js';
import type { Series } from './series.js';

const OPERATION_TYPES = ['query', 'mutation', 'subscription', 'unknown'] as const;
type OperationType = (typeof OPERATION_TYPES)[number];
type Outcome = 'ok' | 'error' | 'rejected';

/** The series children of one operation name and type, made once and reused. */
interface OperationSeries {
  readonly requests: Record<Outcome, ReturnType<Series['requests']['labels']>>;
  readonly duration: ReturnType<Series['requestDuration']['labels']>;
}

/**
 * Requests, their duration and their rejections, from Apollo Server's request pipeline;
 * authentication failures from `contextCreationDidFail`, since a refused `authenticate`
 * stops the request before that pipeline starts.
 */
export function requestMetrics(
  series: Series,
  maxOperationNames: number,
  operationNameMinCount: number,
): ApolloServerPlugin<GatewayContext> {
  const names = new OperationNames(
    maxOperationNames,
    (name) => {
      const byType = {} as Partial<Record<OperationType, OperationSeries>>;
      return (type: OperationType): OperationSeries => {
        let found = byType[type];
        if (!found) {
          const requests = (outcome: Outcome) => series.requests.labels(name, type, outcome);
          found = {
            requests: { ok: requests('ok'), error: requests('error'), rejected: requests('rejected') },
            duration: series.requestDuration.labels(name, type),
          };
          byType[type] = found;
        }
        return found;
      };
    },
    operationNameMinCount,
  );
  const rejectionsByCode = new Map<string, ReturnType<Series['rejections']['labels']>>();
  const rejected = (code: unknown) => {
    const label = codeLabel(code);
    let child = rejectionsByCode.get(label);
    if (!child) {
      child = series.rejections.labels(label);
      rejectionsByCode.set(label, child);
    }
    child.inc();
  };

  // One listener for every request: its state is all in the request context, nothing per request here.
  const listener: GraphQLRequestListener<GatewayContext> = {
    async willSendResponse({ response, operation, operationName, contextValue }) {
      const { body } = response;
      const result = body.kind === 'single' ? body.singleResult : body.initialResult;
      const errors = result.errors;
      const outcome: Outcome = !errors?.length ? 'ok' : result.data === undefined ? 'rejected' : 'error';
      // A request refused before parsing resolved only the stand-in document, not an operation of its own.
      const resolved = operation !== undefined && !contextValue.scope.refusedBeforeParsing;
      const type: OperationType = resolved ? operation.operation : 'unknown';
      const operationSeries = names.get(
        resolved ? operationName : null,
        resolved,
        outcome !== 'rejected',
        contextValue.scope.trustedDocument,
      )(type);
      operationSeries.requests[outcome].inc();
      operationSeries.duration.observe(Number(process.hrtime.bigint() - contextValue.scope.startedAt) / 1e9);
      if (outcome === 'rejected') rejected(errors?.[0]?.extensions?.code);
    },
  };

  return {
    async requestDidStart() {
      return listener;
    },
    async contextCreationDidFail({ error }) {
      // Building the context fails only in an `authenticate` hook (gateway-core.ts).
      const code = (error as { extensions?: { code?: unknown } }).extensions?.code;
      rejected(code);
      series.authFailures.labels(authFailureReason(error)).inc();
    },
  };
}
