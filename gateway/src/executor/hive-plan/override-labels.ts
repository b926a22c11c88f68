// The progressive-override labels this request has on (ADR 054's decision) as Hive's planner
// takes them: custom labels by name, `percent(N)` labels as one number that turns on every
// `percent(N)` with N above it.
import type { OverrideDecision } from '../override-decision.js';

const PERCENT = /^percent\((\d+(?:\.\d+)?)\)$/;

export interface HiveLabels {
  readonly custom: Set<string>;
  readonly percentageValue: number;
}

/**
 * Undefined when no one number gives exactly the decision's `percent(N)` labels (a plugin
 * turned on a smaller share and off a larger one): Apollo's planner then plans that request.
 */
export function hiveLabels(
  decision: OverrideDecision | undefined,
  percentages: readonly number[],
): HiveLabels | undefined {
  const custom = new Set<string>();
  const on: number[] = [];
  for (const label of decision?.on ?? []) {
    const percent = PERCENT.exec(label);
    if (percent) on.push(Number(percent[1]));
    else custom.add(label);
  }
  // Hive turns `percent(N)` on when the value is below N: the largest share that is off, or 0.
  const off = percentages.filter((share) => !on.includes(share));
  const percentageValue = off.length > 0 ? Math.max(...off) : 0;
  return on.every((share) => share > percentageValue) ? { custom, percentageValue } : undefined;
}
