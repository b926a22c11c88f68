import type { QueryPlanner } from '@apollo/query-planner';
import { type DocumentNode, Kind, visit } from 'graphql';
import type { GatewayContext } from '../contract/index.js';
import type { RequestContext } from './apollo-internals.js';
import { type OverrideLabels, overrideLabelsOf } from './override-labels.js';

/** A number in [0, 1), as `Math.random` returns: the draw for `percent(N)` labels (tests pass a seeded one). */
export type RandomSource = () => number;

/** The labels on for one request: what the planner is told, and what the plan cache key adds. */
export interface OverrideDecision {
  /** The labels on, sorted; never empty (no label on is no decision at all). */
  readonly on: readonly string[];
  /** `overrideConditions` for `QueryPlanner.buildQueryPlan` (the labels not named stay off). */
  readonly conditions: ReadonlyMap<string, boolean>;
}

/** Decides, per request, which of the supergraph's override labels are on. */
export interface ProgressiveOverride {
  /** `undefined` when no label is on: the plan and its cache key are then exactly @apollo/gateway's. */
  decide(planner: QueryPlanner, requestContext: RequestContext): OverrideDecision | undefined;
}

/** QUERY_PLAN_EXECUTOR=apollo: @apollo/gateway plans with every label off, whatever a plugin asks. */
export const LABELS_OFF: ProgressiveOverride = Object.freeze({ decide: () => undefined });

/**
 * The gateway's decision (ADR 054), per request, for each label of the supergraph in turn:
 * 1. what a plugin set in `scope.overrideLabels` (true or false), which wins over a percentage;
 * 2. else, for `percent(N)`, one draw: on when `random() * 100 < N`;
 * 3. else off (a custom label is on only when a plugin turns it on).
 * Labels a plugin sets that the supergraph does not have are never read: the labels on are a
 * subset of the supergraph's, so a client cannot grow the plan cache by choosing label sets.
 */
export function progressiveOverride(random: RandomSource = Math.random): ProgressiveOverride {
  return {
    decide(planner, requestContext) {
      const labels = overrideLabelsOf(planner);
      if (labels.all.length === 0) return undefined;
      const chosen = (requestContext.context as Partial<GatewayContext> | undefined)?.scope?.overrideLabels;
      return decideLabels(labels, chosen, random, fieldNamesIn(requestContext.document));
    },
  };
}

/** The decision for one request, given what plugins chose (see `progressiveOverride`). */
export function decideLabels(
  labels: OverrideLabels,
  chosen: Readonly<Record<string, boolean>> | undefined,
  random: RandomSource,
  selected?: ReadonlySet<string>,
): OverrideDecision | undefined {
  const on: string[] = [];
  for (const label of labels.all) {
    // A label whose fields the operation never names cannot change its plan: left off, so the
    // operation keeps one plan (and one cache entry) and draws nothing for it.
    const moved = labels.fields?.get(label);
    if (selected && moved && ![...moved].some((field) => selected.has(field))) continue;
    const set = chosen === undefined || !Object.hasOwn(chosen, label) ? undefined : chosen[label];
    const share = labels.percent.get(label);
    const isOn = typeof set === 'boolean' ? set : share !== undefined && random() * 100 < share;
    if (isOn) on.push(label);
  }
  if (on.length === 0) return undefined;
  return { on, conditions: new Map(on.map((label) => [label, true])) };
}

/**
 * The plan cache key for a request: @apollo/gateway's key (`planStoreKey`) when no label is on,
 * else that key and the sorted labels on (labels cannot hold a comma). One operation has at
 * most 2^L plans for a supergraph with L labels, whatever clients send.
 */
export function keyWithOverrides(storeKey: string, decision: OverrideDecision | undefined): string {
  return decision === undefined ? storeKey : `${storeKey}:override:${decision.on.join(',')}`;
}

// Apollo Server keeps one parsed document per query text, so each is walked once.
const namesByDocument = new WeakMap<DocumentNode, ReadonlySet<string>>();

/** Every field name a document selects, in any operation or fragment (a superset of what the operation plans). */
export function fieldNamesIn(document: DocumentNode | undefined): ReadonlySet<string> | undefined {
  if (document === undefined) return undefined;
  let names = namesByDocument.get(document);
  if (names === undefined) {
    const found = new Set<string>();
    visit(document, { [Kind.FIELD]: (field) => void found.add(field.name.value) });
    names = found;
    namesByDocument.set(document, names);
  }
  return names;
}
