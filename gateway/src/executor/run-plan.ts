import { ERRORS, errorCodeDef, type VariableDefinitions } from '@apollo/federation-internals';
import { applyRewrites } from '@apollo/gateway/dist/dataRewrites.js';
import type { GraphQLDataSource } from '@apollo/gateway/dist/datasources/types.js';
import { GraphQLDataSourceRequestKind } from '@apollo/gateway/dist/datasources/types.js';
import { generateHydratedPaths } from '@apollo/gateway/dist/executeQueryPlan.js';
import { type OpenTelemetryConfig, OpenTelemetrySpanNames } from '@apollo/gateway/dist/utilities/opentelemetry.js';
import {
  evaluateCondition,
  type FetchNode,
  type FlattenNode,
  type PlanNode,
  type QueryPlanSelectionNode,
} from '@apollo/query-planner';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { RequestContext } from './apollo-internals.js';
import { deepMerge } from './deep-merge.js';
import { selectRepresentation } from './representations.js';
import { type Cursor, moveIntoCursor } from './result-paths.js';
import { inSpan, tracingOff } from './spans.js';
import { crossesStream, moveIntoWindow, runShared, type StreamWindow } from './stream-window.js';

type Path = (string | number)[];
type Json = Record<string, unknown>;

/** What one plan run reads and collects (@apollo/gateway's ExecutionContext, without trace nodes). */
export interface PlanRun {
  readonly serviceMap: Readonly<Record<string, GraphQLDataSource>>;
  readonly requestContext: RequestContext;
  readonly supergraphSchema: GraphQLSchema;
  readonly variableDefinitions: VariableDefinitions;
  readonly telemetry: OpenTelemetryConfig | undefined;
  readonly errors: GraphQLError[];
  /** A streamed operation's batch (stream-run.ts): its run fetches only for its own items. */
  readonly window?: StreamWindow;
}

/**
 * Runs a plan's nodes into `data` as executeQueryPlan.js's `executeNode` does (Sequence,
 * Parallel, Flatten, Fetch, Condition, and Defer run inline), with the same `gateway.fetch` spans, but no Apollo usage-reporting trace nodes:
 * plans that capture traces also go to the stock executor.
 */
export async function runNode(run: PlanRun, node: PlanNode, cursor: Cursor | undefined): Promise<void> {
  if (!cursor) return;
  switch (node.kind) {
    case 'Sequence':
      for (const child of node.nodes) await runNode(run, child, cursor);
      return;
    case 'Parallel':
      await Promise.all(runEach(run, node.nodes, cursor));
      return;
    case 'Flatten':
      if (run.window) return runWindowed(run, run.window, node, cursor);
      await runNode(run, node.node, moveIntoCursor(cursor, node.path));
      return;
    case 'Fetch':
      if (run.window && cursor.path.length === 0)
        return runShared(run.window, node, () => runNode({ ...run, window: undefined }, node, cursor));
      try {
        await runFetch(run, node, cursor);
      } catch (error) {
        run.errors.push(error as GraphQLError);
      }
      return;
    case 'Condition': {
      const condition = evaluateCondition(node, run.variableDefinitions, run.requestContext.request.variables);
      const branch = condition ? node.ifClause : node.elseClause;
      if (branch) await runNode(run, branch, cursor);
      return;
    }
    case 'Defer':
      // Inline: the primary block, then every deferred block (each depends only on fetches of
      // the primary; nested defers are inside them). Streaming them is deferred-plan.ts's job.
      if (node.primary.node) await runNode(run, node.primary.node, cursor);
      await Promise.all(node.deferred.map((deferred) => deferred.node && runNode(run, deferred.node, cursor)));
      return;
  }
}

/** A Flatten node in a streamed batch: its own items where a streamed list is on its path, else the initial run's. */
function runWindowed(run: PlanRun, window: StreamWindow, node: FlattenNode, cursor: Cursor): Promise<void> {
  if (crossesStream(cursor.path, node.path, window.streams))
    return runNode(run, node.node, moveIntoWindow(cursor, node.path, window));
  return runShared(window, node, () => runNode({ ...run, window: undefined }, node, cursor));
}

/** `nodes.map((child) => runNode(run, child, cursor))` without a closure (and its context) per Parallel node. */
function runEach(run: PlanRun, nodes: readonly PlanNode[], cursor: Cursor): Promise<void>[] {
  const running = new Array<Promise<void>>(nodes.length);
  for (let index = 0; index < nodes.length; index++) running[index] = runNode(run, nodes[index] as PlanNode, cursor);
  return running;
}

export function rootCursor(data: Json): Cursor {
  return { path: [], data, fullResult: data };
}

function runFetch(run: PlanRun, fetch: FetchNode, cursor: Cursor): Promise<void> {
  return tracingOff() ? fetchInto(run, fetch, cursor) : tracedFetch(run, fetch, cursor);
}

/** In its own function: its closure would otherwise make runFetch allocate a context on every call. */
function tracedFetch(run: PlanRun, fetch: FetchNode, cursor: Cursor): Promise<void> {
  return inSpan(OpenTelemetrySpanNames.FETCH, { attributes: { service: fetch.serviceName } }, run.telemetry, () =>
    fetchInto(run, fetch, cursor),
  );
}

async function fetchInto(run: PlanRun, fetch: FetchNode, cursor: Cursor): Promise<void> {
  const service = run.serviceMap[fetch.serviceName];
  if (!service) throw new Error(`Couldn't find service with name "${fetch.serviceName}"`);
  const entities = Array.isArray(cursor.data) ? presentEntities(cursor.data) : [cursor.data];
  if (entities.length < 1) return;
  const variables = usedVariables(run, fetch);
  if (!fetch.requires) {
    const received = await send(run, service, fetch, cursor, variables);
    if (received) applyRewrites(run.supergraphSchema, fetch.outputRewrites, received);
    for (const entity of entities) deepMerge(entity, received);
    return;
  }
  await fetchEntities(run, service, fetch, cursor, variables, entities as Json[], fetch.requires);
}

/**
 * `data.filter((entity) => entity !== null && entity !== undefined)`, without the closure, and
 * `data` itself when nothing is left out (the usual case; the list is only read from here on).
 */
function presentEntities(data: readonly unknown[]): readonly unknown[] {
  let first = 0;
  while (first < data.length && data[first] !== null && data[first] !== undefined) first++;
  if (first === data.length) return data;
  const present = data.slice(0, first);
  for (let index = first + 1; index < data.length; index++) {
    const entity = data[index];
    if (entity !== null && entity !== undefined) present.push(entity);
  }
  return present;
}

async function fetchEntities(
  run: PlanRun,
  service: GraphQLDataSource,
  fetch: FetchNode,
  cursor: Cursor,
  variables: Json,
  entities: Json[],
  requires: QueryPlanSelectionNode[],
): Promise<void> {
  const representations: Json[] = [];
  const entityOf: number[] = [];
  for (let index = 0; index < entities.length; index++) {
    const representation = selectRepresentation(run.supergraphSchema, entities[index] as Json, requires);
    if (representation?.__typename) {
      applyRewrites(run.supergraphSchema, fetch.inputRewrites, representation);
      representations.push(representation);
      entityOf.push(index);
    }
  }
  if (representations.length < 1) return;
  if ('representations' in variables) throw new Error(`Variables cannot contain key "representations"`);
  const received = await send(run, service, fetch, cursor, { ...variables, representations });
  if (!received) return;
  if (!(received._entities && Array.isArray(received._entities))) {
    throw new Error(`Expected "data._entities" in response to be an array`);
  }
  const answers = received._entities as (Json | null)[];
  if (answers.length !== representations.length) {
    throw new Error(`Expected "data._entities" to contain ${representations.length} elements`);
  }
  // As executeQueryPlan.js: over `entities.length`, though only `representations.length` answers exist.
  for (let i = 0; i < entities.length; i++) {
    const answer = answers[i] as Json;
    const entity = entities[entityOf[i] as number] as Json;
    if (answer && !answer.__typename) answer.__typename = entity.__typename;
    applyRewrites(run.supergraphSchema, fetch.outputRewrites, answer);
    deepMerge(entities[entityOf[i] as number], answer);
  }
}

/** The request's variables this fetch uses (those it defines, never inherited properties). */
function usedVariables(run: PlanRun, fetch: FetchNode): Json {
  const variables: Json = Object.create(null);
  if (!fetch.variableUsages) return variables;
  const provided = run.requestContext.request.variables;
  for (const name of fetch.variableUsages) {
    if (provided && Object.hasOwn(provided, name) && typeof provided[name] !== 'undefined') {
      variables[name] = provided[name];
    }
  }
  return variables;
}

async function send(
  run: PlanRun,
  service: GraphQLDataSource,
  fetch: FetchNode,
  cursor: Cursor,
  variables: Json,
): Promise<Json | undefined | null> {
  const response = await service.process({
    kind: GraphQLDataSourceRequestKind.INCOMING_OPERATION,
    request: { query: fetch.operation, variables, operationName: fetch.operationName },
    incomingRequestContext: run.requestContext,
    context: run.requestContext.context,
    document: fetch.operationDocumentNode,
    pathInIncomingRequest: cursor.path,
  });
  if (response.errors) {
    const pathOf = lazyErrorPaths(fetch, cursor);
    run.errors.push(...response.errors.map((error) => downstreamError(error, fetch.serviceName, pathOf)));
    if (!response.extensions?.ftv1) {
      const errorPaths = response.errors.map((error) => ({ subgraph: fetch.serviceName, path: error.path }));
      const metrics = run.requestContext.metrics as { nonFtv1ErrorPaths?: typeof errorPaths };
      if (metrics.nonFtv1ErrorPaths) metrics.nonFtv1ErrorPaths.push(...errorPaths);
      else metrics.nonFtv1ErrorPaths = errorPaths;
    }
  }
  return response.data as Json | undefined | null;
}

type ErrorPath = GraphQLFormattedError['path'];

function lazyErrorPaths(fetch: FetchNode, cursor: Cursor): (path: ErrorPath) => Path | undefined {
  let hydrated: Path[] | undefined;
  return (errorPath) => {
    if (fetch.requires && typeof errorPath?.[1] === 'number') {
      if (cursor.paths) return [...(cursor.paths[errorPath[1]] ?? []), ...errorPath.slice(2)];
      if (!hydrated) {
        hydrated = [];
        generateHydratedPaths([], cursor.path, cursor.fullResult, hydrated);
      }
      return [...(hydrated[errorPath[1]] ?? []), ...errorPath.slice(2)];
    }
    return errorPath ? [...cursor.path, ...errorPath.slice()] : undefined;
  };
}

function downstreamError(
  original: GraphQLFormattedError,
  serviceName: string,
  pathOf: (path: ErrorPath) => Path | undefined,
): GraphQLError {
  const message = original.message || `Error while fetching subquery from service "${serviceName}"`;
  const { extensions } = original;
  const options = {
    originalError: original as Error,
    path: pathOf(original.path),
    extensions: { ...extensions, serviceName },
  };
  const codeDef = errorCodeDef(original);
  if (!codeDef && extensions?.code) return new GraphQLError(message, options);
  return (codeDef ?? ERRORS.DOWNSTREAM_SERVICE_ERROR).err(message, options);
}
