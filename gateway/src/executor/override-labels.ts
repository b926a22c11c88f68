import type { Schema } from '@apollo/federation-internals';
import type { QueryPlanner } from '@apollo/query-planner';

/**
 * The progressive-override labels of one supergraph: every `overrideLabel` its
 * `@join__field`s carry (Federation 2.7's `@override(from: …, label: …)`, composed).
 */
export interface OverrideLabels {
  /** Every label, sorted: the only labels a request can turn on (so a plan key names a subset). */
  readonly all: readonly string[];
  /** `percent(N)` labels and their N (0 to 100): on for that share of requests. */
  readonly percent: ReadonlyMap<string, number>;
  /** The names of the fields each label moves: an operation selecting none of them plans alike either way. */
  readonly fields?: ReadonlyMap<string, ReadonlySet<string>>;
}

/** Composition's own pattern for a percentage label (`OVERRIDE_LABEL_INVALID`). */
const PERCENT = /^percent\((\d{1,3}(?:\.\d{1,8})?)\)$/;

const NONE: OverrideLabels = Object.freeze({ all: Object.freeze([]), percent: new Map() });

// One reading per planner: @apollo/gateway makes a planner per supergraph, so a reload reads the new labels once.
const byPlanner = new WeakMap<QueryPlanner, OverrideLabels>();

/** The labels of the supergraph `planner` plans for, read once per supergraph. */
export function overrideLabelsOf(planner: QueryPlanner): OverrideLabels {
  let labels = byPlanner.get(planner);
  if (labels === undefined) {
    labels = overrideLabelsIn(planner.supergraph.schema);
    byPlanner.set(planner, labels);
  }
  return labels;
}

/**
 * Reads `@join__field(overrideLabel:)` as the planner does (`collectAllOverrideLabels`, which
 * also names the directive `join__field`): the planner starts every label off, and plans with
 * the ones a request turns on.
 */
export function overrideLabelsIn(schema: Schema): OverrideLabels {
  const joinField = schema.directives().find((directive) => directive.name === 'join__field');
  if (!joinField) return NONE;
  const fields = new Map<string, Set<string>>();
  for (const application of joinField.applications()) {
    const label = (application.arguments() as { overrideLabel?: unknown }).overrideLabel;
    if (typeof label !== 'string' || label === '') continue;
    const names = fields.get(label) ?? new Set<string>();
    const field = (application.parent as { name?: unknown } | undefined)?.name;
    if (typeof field === 'string') names.add(field);
    fields.set(label, names);
  }
  if (fields.size === 0) return NONE;
  const found = [...fields.keys()];
  const percent = new Map<string, number>();
  for (const label of found) {
    const share = PERCENT.exec(label)?.[1];
    if (share !== undefined) percent.set(label, Math.min(100, Number(share)));
  }
  return Object.freeze({ all: Object.freeze(found.sort()), percent, fields });
}
