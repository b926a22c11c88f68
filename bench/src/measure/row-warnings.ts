import type { SendSchedule } from '../run/results.js';

/** More late sends than this share of the schedule and the row's tail measures the load core. */
export const LATE_SHARE_LIMIT = 0.01;

export interface RowWarningFacts {
  /** The target's own group (`gateway`, `router`), or null for an external target. */
  readonly targetGroup: string | null;
  /** findSaturated's answer: saturated groups and shared CPU sets, busiest first. */
  readonly saturated: readonly string[];
  readonly ok: number;
  readonly errors: number;
  readonly schedule?: SendSchedule;
}

const WHO: Readonly<Record<string, string>> = {
  load: 'the load generator',
  subgraphs: 'the subgraphs',
  redis: 'Redis',
  'otlp-sink': 'the OTLP sink',
};

/**
 * Why a row may not measure its target alone. A saturated target is the expected outcome of
 * a closed-loop row and is not warned about; anything else saturated beside it is.
 */
export function rowWarnings(facts: RowWarningFacts): string[] {
  const warnings: string[] = [];
  for (const name of facts.saturated) {
    if (name === facts.targetGroup) continue;
    const members = name.split('+');
    const who = members.map((member) => WHO[member] ?? member).join(' + ');
    const what = members.length > 1 ? `the CPU shared by ${who}` : who;
    warnings.push(`${what} saturated: this row is not a measure of the target alone`);
  }
  const { schedule } = facts;
  if (schedule && schedule.intended > 0 && schedule.late / schedule.intended > LATE_SHARE_LIMIT) {
    warnings.push(
      `${percent(schedule.late / schedule.intended)} of sends were late (worst ${schedule.maxLagMs.toFixed(1)} ms): ` +
        'the tail measures the load generator, not the target',
    );
  }
  const total = facts.ok + facts.errors;
  if (facts.errors > 0 && total > 0) {
    warnings.push(`${facts.errors} failed requests (${percent(facts.errors / total)})`);
  }
  return warnings;
}

function percent(share: number): string {
  // Never "0.0%" for a count that is not zero.
  if (share > 0 && share < 0.001) return '<0.1%';
  return `${(share * 100).toFixed(share < 0.1 ? 1 : 0)}%`;
}
