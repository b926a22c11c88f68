import { type CallFrame, type CostCategory, categoryOf, packageOf } from './categories.js';

/** The parts of a V8 `.cpuprofile` (what `node --cpu-prof` writes) the summary reads. */
export interface CpuProfile {
  readonly nodes: readonly { readonly id: number; readonly callFrame: CallFrame & { lineNumber?: number } }[];
  readonly samples: readonly number[];
  /** Microseconds before each sample. */
  readonly timeDeltas: readonly number[];
}

export interface Share {
  readonly name: string;
  readonly ms: number;
  /** Of the busy time (idle left out). */
  readonly percent: number;
}

export interface ProfileSummary {
  /** Sampled time the process was not idle. */
  readonly busyMs: number;
  readonly idleMs: number;
  readonly categories: readonly Share[];
  readonly packages: readonly Share[];
  /** Functions by self time, `name (file:line)`. */
  readonly functions: readonly Share[];
}

/**
 * Self time per category, package and function: each sample's time goes to the function on top
 * of the stack then. Idle time (the event loop waiting) is counted apart, so shares are of the
 * time the gateway's thread actually worked.
 */
export function summarizeProfile(profile: CpuProfile, top = 15): ProfileSummary {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  const categories = new Map<CostCategory, number>();
  const packages = new Map<string, number>();
  const functions = new Map<string, number>();
  let idleUs = 0;
  let busyUs = 0;
  for (const [id, us] of selfUs) {
    const frame = frames.get(id);
    if (!frame) continue;
    if (frame.functionName === '(idle)') {
      idleUs += us;
      continue;
    }
    busyUs += us;
    add(categories, categoryOf(frame), us);
    add(
      packages,
      packageOf(frame.url) ?? (frame.url === '' || frame.url.startsWith('node:') ? '(native, node:)' : '(ours)'),
      us,
    );
    add(functions, functionLabel(frame), us);
  }
  const shares = (map: Map<string, number>, limit = Number.POSITIVE_INFINITY): Share[] =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, us]) => ({ name, ms: round(us / 1000), percent: busyUs > 0 ? round((us / busyUs) * 100) : 0 }));
  return {
    busyMs: round(busyUs / 1000),
    idleMs: round(idleUs / 1000),
    categories: shares(categories),
    packages: shares(packages, top),
    functions: shares(functions, top),
  };
}

function functionLabel(frame: CallFrame & { lineNumber?: number }): string {
  const name = frame.functionName || '(anonymous)';
  if (frame.url === '') return name;
  const file = frame.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(\w+\/dist\/)/, '$1');
  return `${name} (${file}:${(frame.lineNumber ?? 0) + 1})`;
}

function add<K>(map: Map<K, number>, key: K, us: number): void {
  map.set(key, (map.get(key) ?? 0) + us);
}

const round = (value: number) => Math.round(value * 10) / 10;
