import { parseArgs } from 'node:util';
import { nodeFlags } from '../run/options.js';
import { GATEWAY_MOUNTS } from '../targets/targets.js';

export const HEAP_QUERIES = ['GetUserWithProducts', 'ComplexQuery'] as const;
export type HeapQuery = (typeof HEAP_QUERIES)[number];

export interface HeapOptions {
  readonly target: string;
  readonly queries: readonly HeapQuery[];
  /** Fixed arrival rate, req/s (§C's open loop). */
  readonly rate: number;
  /** Seconds of each measured window (the GC-trace and every-allocation windows). */
  readonly durationSec: number;
  readonly warmupSec: number;
  /** Seconds of the survivors window. */
  readonly survivorsSec: number;
  /** Heap snapshots under the last query's load, this many seconds apart; 0: none. */
  readonly snapshots: number;
  readonly snapshotEverySec: number;
  readonly nodeFlags: readonly string[];
  readonly basePort: number;
  readonly out?: string;
  readonly pin: boolean;
  /** Also write each every-allocation window's raw sampling profile (`<query>.heapprofile`, DevTools' format). */
  readonly profiles: boolean;
}

export const HEAP_HELP = `Usage: node bench/dist/heap-cli.js [options]   (pnpm bench:heap)

What a request allocates and what of it survives, in one gateway mount as it ships, under §C's
open loop (a fixed arrival rate). Starts the subgraphs and the gateway pinned as in pnpm bench,
the gateway with ${'`'}--trace-gc-nvp --inspect${'`'}; checks its answers; then per query, after a warm-up:
  1. a window read from the GC trace alone: KB allocated and promoted per request, scavenges,
     full collections (mark-compact) and their pauses;
  2. a window under V8's sampling heap profiler counting every allocation: KB per request by
     allocation site and by package;
  3. after a forced full collection, a window under the sampler keeping what outlived a scavenge
     (promoted, dead since or not, or alive at its end): where the promoted bytes were allocated.
Then heap snapshots under the last query's load, compared one with the next: what is new and
still alive, by class, and the retaining paths that keep it. Writes summary.json and summary.md
(and the .heapsnapshot files, large, not for committing) to bench/results/<timestamp>-heap/.

Options:
  --queries <list>      ${HEAP_QUERIES.join(', ')} (default both)
  --rate <n>            arrival rate, req/s (default 500)
  --duration <s>        seconds per measured window (default 15)
  --warmup <s>          seconds of load before a query's windows (default 5)
  --survivors <s>       seconds of the survivors window (default 2)
  --snapshots <n>       heap snapshots (default 3; 0: none)
  --snapshot-every <s>  seconds between them (default 10)
  --target <mount>      ${GATEWAY_MOUNTS.join(', ')} (default nest-fastify)
  --node-flags="<flags>"  more Node flags for the gateway
  --base-port <n>       the gateway on n, the subgraphs on n+1..n+3 (default 4100)
  --out <dir>           where the files go
  --no-pin              do not pin processes with taskset
  --profiles            also write window 2's raw profile per query (<query>.heapprofile: whole stacks,
                        for DevTools or a script; not for committing)
  -h, --help            this text
`;

export function parseHeapOptions(argv: readonly string[]): HeapOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      queries: { type: 'string' },
      rate: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      survivors: { type: 'string' },
      snapshots: { type: 'string' },
      'snapshot-every': { type: 'string' },
      target: { type: 'string' },
      'node-flags': { type: 'string' },
      'base-port': { type: 'string' },
      out: { type: 'string' },
      'no-pin': { type: 'boolean' },
      profiles: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const problems: string[] = [];
  const number = (value: string | undefined, name: string, fallback: number, min: number): number => {
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (Number.isFinite(parsed) && parsed >= min) return parsed;
    problems.push(`--${name}: "${value}" is not a number ≥ ${min}`);
    return fallback;
  };
  const queries = (values.queries?.split(',') ?? [...HEAP_QUERIES]).map((query) => query.trim());
  for (const query of queries)
    if (!HEAP_QUERIES.includes(query as HeapQuery))
      problems.push(`--queries: "${query}" is not one of ${HEAP_QUERIES.join(', ')}`);
  const target = values.target ?? 'nest-fastify';
  if (!(GATEWAY_MOUNTS as readonly string[]).includes(target))
    problems.push(`--target: "${target}" is not one of ${GATEWAY_MOUNTS.join(', ')}`);
  let flags: string[] = [];
  try {
    flags = nodeFlags(values['node-flags']);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const options: HeapOptions = {
    target,
    queries: queries as HeapQuery[],
    rate: number(values.rate, 'rate', 500, 1),
    durationSec: number(values.duration, 'duration', 15, 1),
    warmupSec: number(values.warmup, 'warmup', 5, 0),
    survivorsSec: number(values.survivors, 'survivors', 2, 1),
    snapshots: number(values.snapshots, 'snapshots', 3, 0),
    snapshotEverySec: number(values['snapshot-every'], 'snapshot-every', 10, 1),
    nodeFlags: flags,
    basePort: number(values['base-port'], 'base-port', 4100, 1),
    ...(values.out ? { out: values.out } : {}),
    pin: !values['no-pin'],
    profiles: values.profiles === true,
  };
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return options;
}
