import { parseArgs } from 'node:util';
import { GATEWAY_MOUNTS } from '../targets/targets.js';

export interface SoakOptions {
  readonly target: string;
  /** The soak itself, seconds (default 600). */
  readonly durationSec: number;
  /** How often the gateway is read and the time series gets a row, seconds (default 10). */
  readonly intervalSec: number;
  /** A fixed rate; undefined: measure the maximum first and soak at `rateShare` of it. */
  readonly rate?: number;
  readonly rateShare: number;
  /** The closed-loop measurement of the maximum rate, seconds (after a 3 s warm-up). */
  readonly maxRateSec: number;
  /** Open loop at the soak rate before the soak, discarded. */
  readonly warmupSec: number;
  readonly basePort: number;
  readonly answerSamples: number;
  readonly out?: string;
  readonly pin: boolean;
}

export const SOAK_HELP = `Usage: node bench/dist/soak-cli.js [options]   (pnpm bench:soak)

Soaks one gateway mount with the full plugin stack (GATEWAY_PLUGINS=full, metrics on): measures
its maximum rate briefly, then sends §A's query mix open loop at 70% of it, and every interval
records RSS, event-loop lag, heap, requests, late sends, latency and every error. Writes
results.json and report.md (the time series and a verdict) to bench/results/<timestamp>-soak/.

Options:
  --duration <s>        soak length (default 600)
  --interval <s>        one reading and one row of the time series per interval (default 10)
  --rate <n>            soak at n req/s instead of measuring the maximum
  --rate-share <0..1>   share of the measured maximum to soak at (default 0.7)
  --max-rate-sec <s>    closed-loop window that measures the maximum (default 15)
  --warmup <s>          open loop at the soak rate before the soak, discarded (default 10)
  --target <mount>      ${GATEWAY_MOUNTS.join(', ')} (default nest-fastify)
  --base-port <n>       the gateway on n, the subgraphs on n+1..n+3 (default 4100)
  --answer-samples <n>  random users the answers are checked with first (default 50)
  --out <dir>           where the run's files go
  --no-pin              do not pin processes with taskset
  -h, --help            this text

Exit code: 0 when the verdict passes, 1 when it does not (or the gateway failed), 2 on bad options.
`;

/** Parses argv (without node and the script); throws an Error naming the bad option. */
export function parseSoakOptions(argv: readonly string[]): SoakOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      duration: { type: 'string' },
      interval: { type: 'string' },
      rate: { type: 'string' },
      'rate-share': { type: 'string' },
      'max-rate-sec': { type: 'string' },
      warmup: { type: 'string' },
      target: { type: 'string' },
      'base-port': { type: 'string' },
      'answer-samples': { type: 'string' },
      out: { type: 'string' },
      'no-pin': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const target = values.target ?? 'nest-fastify';
  if (!(GATEWAY_MOUNTS as readonly string[]).includes(target)) {
    throw new Error(`--target: "${target}" is not a gateway mount (${GATEWAY_MOUNTS.join(', ')})`);
  }
  const durationSec = number(values.duration, '--duration', 1) ?? 600;
  const intervalSec = number(values.interval, '--interval', 0.5) ?? 10;
  if (intervalSec > durationSec)
    throw new Error(`--interval: ${intervalSec} s is longer than --duration ${durationSec} s`);
  const rateShare = number(values['rate-share'], '--rate-share', 0.01) ?? 0.7;
  if (rateShare > 1)
    throw new Error(`--rate-share: expected a share between 0.01 and 1, got "${values['rate-share']}"`);
  const basePort = number(values['base-port'], '--base-port', 1) ?? 4100;
  if (!Number.isInteger(basePort) || basePort > 65_532)
    throw new Error(`--base-port: expected a port ≤ 65532, got "${values['base-port']}"`);
  const rate = number(values.rate, '--rate', 1);
  return {
    target,
    durationSec,
    intervalSec,
    ...(rate !== undefined ? { rate } : {}),
    rateShare,
    maxRateSec: number(values['max-rate-sec'], '--max-rate-sec', 1) ?? 15,
    warmupSec: number(values.warmup, '--warmup', 0) ?? 10,
    basePort,
    answerSamples: Math.round(number(values['answer-samples'], '--answer-samples', 1) ?? 50),
    ...(values.out !== undefined ? { out: values.out } : {}),
    pin: !values['no-pin'],
  };
}

function number(value: string | undefined, option: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < min)
    throw new Error(`${option}: expected a number ≥ ${min}, got "${value}"`);
  return parsed;
}
