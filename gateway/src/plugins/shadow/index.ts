import type { GatewayPlugin, RequestScope } from '../../plugin-sdk/index.js';
import { asOptionsObject, checkKnownKeys, OptionIssues, optionalValue, streamSinkOf } from '../../plugin-sdk/index.js';
import { PLUGIN_NAME, SHADOW_VALUES, type ShadowOptions } from './options.js';
import { ShadowRunner } from './runner.js';
import { type MirroredQuery, SHADOW_HEADER } from './target.js';

export { type Difference, type DiffRules, differences } from './diff.js';
export { DIFFERS_MESSAGE } from './difference-log.js';
export { SHADOW_VALUES, type ShadowOptions } from './options.js';
export type { MirroredQuery, ShadowAnswer, ShadowLimits, ShadowTarget } from './target.js';
export { SHADOW_HEADER, ShadowFailure } from './target.js';
export { urlTarget } from './url-target.js';

/** The shadow plugin, with its runner (tests wait on `settled()`). */
export interface ShadowPlugin extends GatewayPlugin {
  readonly runner: ShadowRunner;
}

/** The options a factory accepts: the SHADOW_* values but the targets' own, and what the gateway passes. */
const KNOWN = [
  ...Object.keys(SHADOW_VALUES).filter((key) => key !== 'url' && key !== 'supergraph'),
  ...['targets', 'random', 'clock', 'logger', 'plugins'],
];

/** Each option read with its schema (the SHADOW_* settings' own), every bad one named at once. */
function readOptions(options: ShadowOptions) {
  const issues = new OptionIssues();
  const given = asOptionsObject(PLUGIN_NAME, options);
  checkKnownKeys(issues, given, KNOWN);
  const read = <K extends Exclude<keyof typeof SHADOW_VALUES, 'url' | 'supergraph'>>(key: K) =>
    optionalValue<unknown>(issues, given, key, SHADOW_VALUES[key]) as NonNullable<ShadowOptions[K]>;
  const values = {
    sample: read('sample'),
    timeoutMs: read('timeoutMs'),
    maxConcurrency: read('maxConcurrency'),
    maxResponseBytes: read('maxResponseBytes'),
    logValues: read('logValues'),
    forwardHeaders: read('forwardHeaders'),
    rules: { unordered: new Set(read('unorderedPaths')), ignored: new Set(read('ignorePaths')) },
  };
  if (!Array.isArray(given.targets) || given.targets.length === 0)
    issues.add('targets', 'expected at least one target');
  for (const name of ['clock', 'logger', 'plugins'] as const) {
    if (given[name] === undefined) issues.add(name, 'is required');
  }
  issues.throwIfAny(PLUGIN_NAME);
  return values;
}

/**
 * Shadow traffic (docs/shadow-traffic.md): a sample of the queries (never a mutation or a
 * subscription) is sent again to each target once its client's answer is written, and the two
 * answers are compared. The client's answer and latency are never touched: the query is
 * recorded when the answer is about to be sent, and mirrored from `onResponse`, after it was.
 */
export function shadow(options: ShadowOptions): ShadowPlugin {
  const { sample, forwardHeaders: forward, ...settings } = readOptions(options);
  const random = options.random ?? Math.random;
  const { targets, clock, logger, plugins } = options;
  const runner = new ShadowRunner({ ...settings, targets, clock, logger, plugins });
  // Recorded when the answer is about to be sent; mirrored once it was (onResponse).
  const recorded = new WeakMap<RequestScope, MirroredQuery>();
  return {
    name: PLUGIN_NAME,
    runner,
    apollo: {
      async requestDidStart() {
        return {
          async willSendResponse(request) {
            const { operation, response, source, contextValue } = request;
            // Queries only: a mutation or subscription sent twice would act twice.
            if (operation?.operation !== 'query' || source === undefined) return;
            // One answer to compare (no @defer parts); a batch's operations are not mirrored.
            if (response.body.kind !== 'single' || contextValue.scope.batchOperations) return;
            // Over WebSocket and SSE the answer is written after onResponse: not mirrored.
            if (streamSinkOf(contextValue) !== undefined) return;
            // A mirrored request is never mirrored again (a shadow that is this gateway, or mirrors back).
            if (contextValue.scope.headers[SHADOW_HEADER] !== undefined) return;
            if (!(random() < sample)) return;
            const { data, errors } = response.body.singleResult;
            recorded.set(contextValue.scope, {
              query: source,
              variables: request.request.variables,
              operationName: request.request.operationName ?? undefined,
              resolvedName: request.operationName ?? undefined,
              headers: forwardedHeaders(contextValue.scope, forward),
              context: contextValue,
              answer: { data, ...(errors && { errors }) },
            });
          },
        };
      },
    },
    onResponse(scope) {
      const query = recorded.get(scope);
      if (!query) return;
      recorded.delete(scope);
      runner.mirror(query);
    },
    async close() {
      await runner.close();
      await Promise.all(options.targets.map((target) => target.close?.()));
    },
  };
}

function forwardedHeaders(scope: RequestScope, names: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name of names) {
    const value = scope.headers[name];
    if (typeof value === 'string') headers[name] = value;
    else if (Array.isArray(value)) headers[name] = value.join(', ');
  }
  return headers;
}
