import { availableParallelism } from 'node:os';
import { type CpuLayout, defaultLayout, hasTaskset, layoutProblems } from '../measure/pinning.js';
import type { BenchOptions } from './options.js';

export interface ResolvedLayout {
  /** Null when processes are not pinned. */
  readonly layout: CpuLayout | null;
  readonly cores: number;
  /** Says what the layout means for the numbers, for results.environment.notes. */
  readonly note: string;
}

/** The CPU layout from the options and the machine; throws when a given CPU list is invalid. */
export function resolveLayout(options: Pick<BenchOptions, 'pin' | 'cpus'>): ResolvedLayout {
  const cores = availableParallelism();
  if (!options.pin) return { layout: null, cores, note: 'Not pinned (--no-pin): CPU shares are of the whole machine.' };
  if (!hasTaskset()) {
    return {
      layout: null,
      cores,
      note: 'taskset not found (util-linux): processes are not pinned, so the gateway competes with the subgraphs and the load generator for every core.',
    };
  }
  const defaults = defaultLayout(cores);
  if (!defaults) return { layout: null, cores, note: 'One CPU: nothing to pin; every process shares it.' };
  const layout = { ...defaults, ...options.cpus };
  const problems = layoutProblems(layout, cores);
  if (problems.length > 0) throw new Error(`CPU layout: ${problems.join('; ')}`);
  const oneCore =
    cores === 2 && layout.gateway === '0'
      ? ' On 2 cores this gives each gateway (Node or Router) exactly one core.'
      : '';
  return {
    layout,
    cores,
    note:
      `taskset: the gateway or Router on CPU ${layout.gateway}; subgraphs and Redis on CPU ${layout.subgraphs}; ` +
      `the load generator on CPU ${layout.load}.${oneCore}`,
  };
}
