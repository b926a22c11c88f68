import { parseArgs } from 'node:util';
import { SCENARIO_IDS } from '../scenarios/index.js';
import {
  BUILT_IN_TARGETS,
  DEFAULT_TARGETS,
  EXTERNAL_SETUPS,
  parseExternal,
  resolveTargets,
  type TargetSpec,
} from '../targets/targets.js';
import type { ScenarioId } from './results.js';

export interface BenchOptions {
  readonly mode: 'quick' | 'full';
  readonly scenarios: readonly ScenarioId[];
  /** Built-in targets in the order given, then the --external ones. */
  readonly targets: readonly TargetSpec[];
  /** Overrides: undefined means the mode's default. */
  readonly durationSec?: number;
  readonly warmupSec?: number;
  readonly connections?: number;
  readonly rates?: readonly number[];
  /** Directory for this run's files; default bench/results/<run id>. */
  readonly out?: string;
  /** The target listens here, the subgraphs on the next three ports. */
  readonly basePort: number;
  /** Random users (plus edge ids) each target is asked about before timing. */
  readonly answerSamples: number;
  readonly pin: boolean;
  /** Node flags for our gateway mounts only (profiling, V8 memory settings), e.g. ['--max-semi-space-size=64']. */
  readonly nodeFlags: readonly string[];
  readonly cpus: { readonly gateway?: string; readonly subgraphs?: string; readonly load?: string };
}

export const HELP = `Usage: node bench/dist/cli.js [options]   (pnpm bench | bench:fastify | bench:express | bench:router)

Starts the subgraphs and each target as child processes, checks every target's answers against
reference answers, then measures. Results: bench/results/<timestamp>/{results.json,report.md,report.html}.

Options:
  --quick                 only §A, short windows (10 s + 3 s warm-up per row): a few minutes
  --scenarios A,B,...,H   which sections to run (A-E: the seed's; F: large answers; G: entity cache;
                          H: load shedding) (default: all; --quick: A)
  --targets <list>        ${BUILT_IN_TARGETS.join(', ')}
                          (default: all but nest-fastify-cluster, which wants several --gateway-cpus;
                          --quick: nest-fastify,apollo-router)
  --external name=url     also measure an already-running GraphQL endpoint without plugins (repeatable):
                          §A, §B and the no-plugin rows of §C and §D. Without --targets, only the
                          external targets are measured.
  --external name@setup=url
                          an endpoint started in one of our setups: measured in that setup's rows of
                          §C, §D or §E only, e.g. gw@rate-limit-redis=http://gw:4000/graphql (§E, Redis).
                          setup: ${EXTERNAL_SETUPS.join(', ')}
                          (not the API-key or JWT setups: each run makes their secrets anew)
  --duration <s>          measured seconds per row (default: closed loop 30, fixed rate 60; --quick 10)
  --warmup <s>            warm-up seconds before each row (default 5; --quick 3)
  --connections <n>       §A and §D closed-loop connections (default 100); §B always uses 50,200,500
  --rate <list>           fixed arrival rates, req/s: §C uses the first (default 100), §E all (default 100,300,500)
  --out <dir>             write this run's files here (default bench/results/<timestamp>)
  --base-port <n>         the target listens on n, the subgraphs on n+1..n+3 (default 4100)
  --answer-samples <n>    random users each target is checked with before timing (default 50)
  --gateway-cpus <list>   taskset CPU list for the gateway / Router (default 0)
  --subgraph-cpus <list>  for the subgraphs and Redis (default: the other CPUs)
  --load-cpus <list>      for the load generator, i.e. this process (default: the other CPUs)
  --no-pin                do not pin processes with taskset
  --node-flags="<flags>"  Node flags for our gateway mounts only, space-separated (note the =), e.g.
                          --node-flags="--max-semi-space-size=64 --cpu-prof --cpu-prof-dir=/tmp/prof"
  -h, --help              this text

Exit code: 0 when every row ran (or was skipped / not installed), 1 when a row failed or a target
answered wrongly, 2 on bad options.
`;

/** Parses argv (without node and the script); throws an Error naming the bad option. */
export function parseOptions(argv: readonly string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      quick: { type: 'boolean' },
      scenarios: { type: 'string' },
      targets: { type: 'string' },
      external: { type: 'string', multiple: true },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      rate: { type: 'string' },
      out: { type: 'string' },
      'base-port': { type: 'string' },
      'answer-samples': { type: 'string' },
      'gateway-cpus': { type: 'string' },
      'subgraph-cpus': { type: 'string' },
      'load-cpus': { type: 'string' },
      'no-pin': { type: 'boolean' },
      'node-flags': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const mode = values.quick ? 'quick' : 'full';
  const externals = (values.external ?? []).map(parseExternal);
  const defaultTargets =
    externals.length > 0 ? '' : mode === 'quick' ? 'nest-fastify,apollo-router' : DEFAULT_TARGETS.join(',');
  const targets = resolveTargets(list(values.targets ?? defaultTargets), externals);
  if (targets.length === 0) throw new Error('--targets: no target given');
  const scenarios = list(values.scenarios ?? (mode === 'quick' ? 'A' : SCENARIO_IDS.join(','))).map((id) => {
    const upper = id.toUpperCase();
    if (!SCENARIO_IDS.includes(upper as ScenarioId))
      throw new Error(`--scenarios: unknown scenario "${id}" (${SCENARIO_IDS.join(', ')})`);
    return upper as ScenarioId;
  });
  const optional = <T>(value: T | undefined, key: string) => (value === undefined ? {} : { [key]: value });
  return {
    mode,
    scenarios: [...new Set(scenarios)],
    targets,
    ...optional(number(values.duration, '--duration', 0.1), 'durationSec'),
    ...optional(number(values.warmup, '--warmup', 0), 'warmupSec'),
    ...optional(integer(values.connections, '--connections', 1), 'connections'),
    ...optional(
      values.rate === undefined ? undefined : list(values.rate).map((r) => number(r, '--rate', 1) as number),
      'rates',
    ),
    ...optional(values.out, 'out'),
    basePort: basePort(values['base-port']),
    answerSamples: integer(values['answer-samples'], '--answer-samples', 1) ?? 50,
    pin: !values['no-pin'],
    nodeFlags: nodeFlags(values['node-flags']),
    cpus: {
      ...optional(values['gateway-cpus'], 'gateway'),
      ...optional(values['subgraph-cpus'], 'subgraphs'),
      ...optional(values['load-cpus'], 'load'),
    },
  };
}

/** `--node-flags="…"` as separate flags; throws naming each word that is not a flag. */
export function nodeFlags(value: string | undefined): string[] {
  const flags = (value ?? '').split(' ').filter((flag) => flag !== '');
  const bad = flags.filter((flag) => !flag.startsWith('--'));
  if (bad.length > 0) throw new Error(`--node-flags: not a Node flag: ${bad.join(', ')} (each starts with --)`);
  return flags;
}

function basePort(value: string | undefined): number {
  const port = integer(value, '--base-port', 1) ?? 4100;
  if (port > 65_532) throw new Error(`--base-port: ${port} + 3 is beyond 65535`);
  return port;
}

function list(value: string): string[] {
  return value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function number(value: string | undefined, option: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < min)
    throw new Error(`${option}: expected a number ≥ ${min}, got "${value}"`);
  return parsed;
}

function integer(value: string | undefined, option: string, min: number): number | undefined {
  const parsed = number(value, option, min);
  if (parsed !== undefined && !Number.isInteger(parsed))
    throw new Error(`${option}: expected an integer, got "${value}"`);
  return parsed;
}
