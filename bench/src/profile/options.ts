import { parseArgs } from 'node:util';
import { nodeFlags } from '../run/options.js';
import { GATEWAY_MOUNTS } from '../targets/targets.js';

export const PROFILE_QUERIES = ['GetUserWithProducts', 'ComplexQuery', 'Dashboard'] as const;
export type ProfileQuery = (typeof PROFILE_QUERIES)[number];
export const PROFILE_SETUPS = ['none', 'dedup'] as const;

export interface ProfileOptions {
  readonly target: string;
  readonly query: ProfileQuery;
  readonly setup: (typeof PROFILE_SETUPS)[number];
  readonly durationSec: number;
  readonly warmupSec: number;
  readonly connections: number;
  /** More Node flags for the gateway, next to --cpu-prof. */
  readonly nodeFlags: readonly string[];
  readonly basePort: number;
  readonly out?: string;
  readonly pin: boolean;
}

export const PROFILE_HELP = `Usage: node bench/dist/profile-cli.js [options]   (pnpm bench:profile)

Profiles one gateway mount under one bench query: starts the subgraphs and the gateway (with
node --cpu-prof) pinned as in pnpm bench, checks its answers, sends closed-loop load, stops it,
and sums the profile's self time by part (query planning, execution and merge, JSON, HTTP,
NestJS, plugins, logging, GC...). Writes profile.cpuprofile (open it in Chrome DevTools or
speedscope), summary.json and summary.md to bench/results/<timestamp>-profile/.

Options:
  --query <name>        ${PROFILE_QUERIES.join(', ')} (default ComplexQuery)
  --setup <name>        ${PROFILE_SETUPS.join(', ')}: no plugin, or SUBGRAPH_ and INBOUND_DEDUPLICATE (default none)
  --target <mount>      ${GATEWAY_MOUNTS.join(', ')} (default nest-fastify)
  --duration <s>        load after the warm-up, seconds (default 20)
  --warmup <s>          load before it, seconds (default 5; the profile covers both, and startup)
  --connections <n>     closed-loop connections (default 100)
  --node-flags="<flags>"  more Node flags for the gateway, e.g. --node-flags="--max-semi-space-size=64"
  --base-port <n>       the gateway on n, the subgraphs on n+1..n+3 (default 4100)
  --out <dir>           where the files go
  --no-pin              do not pin processes with taskset
  -h, --help            this text
`;

export function parseProfileOptions(argv: readonly string[]): ProfileOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      query: { type: 'string' },
      setup: { type: 'string' },
      target: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      'node-flags': { type: 'string' },
      'base-port': { type: 'string' },
      out: { type: 'string' },
      'no-pin': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const problems: string[] = [];
  const oneOf = <T extends string>(value: string | undefined, allowed: readonly T[], name: string, fallback: T): T => {
    if (value === undefined) return fallback;
    if (allowed.includes(value as T)) return value as T;
    problems.push(`--${name}: "${value}" is not one of ${allowed.join(', ')}`);
    return fallback;
  };
  const positive = (value: string | undefined, name: string, fallback: number): number => {
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (Number.isFinite(parsed) && parsed > 0) return parsed;
    problems.push(`--${name}: "${value}" is not a positive number`);
    return fallback;
  };
  let flags: string[] = [];
  try {
    flags = nodeFlags(values['node-flags']);
  } catch (error) {
    problems.push((error as Error).message);
  }
  const options: ProfileOptions = {
    target: oneOf(values.target, GATEWAY_MOUNTS, 'target', 'nest-fastify'),
    query: oneOf(values.query, PROFILE_QUERIES, 'query', 'ComplexQuery'),
    setup: oneOf(values.setup, PROFILE_SETUPS, 'setup', 'none'),
    durationSec: positive(values.duration, 'duration', 20),
    warmupSec: values.warmup === '0' ? 0 : positive(values.warmup, 'warmup', 5),
    connections: Math.round(positive(values.connections, 'connections', 100)),
    nodeFlags: flags,
    basePort: Math.round(positive(values['base-port'], 'base-port', 4100)),
    ...(values.out ? { out: values.out } : {}),
    pin: !values['no-pin'],
  };
  if (problems.length > 0) throw new Error(problems.join('\n'));
  return options;
}
