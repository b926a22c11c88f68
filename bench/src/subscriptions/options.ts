import { parseArgs } from 'node:util';
import { HIVE_GATEWAY, HIVE_GATEWAY_RUST, ROUTER } from '../targets/targets.js';
import { NEST_FASTIFY_MULTIPART, NEST_FASTIFY_OWN_SOCKETS, NEST_FASTIFY_SUBGRAPH_DEDUP } from './target-setup.js';

/** Targets the subscription bench knows: our mounts that serve graphql-ws, Hive Gateway, and the Router's row. */
export const SUBSCRIPTION_TARGETS = [
  'nest-fastify',
  NEST_FASTIFY_SUBGRAPH_DEDUP,
  NEST_FASTIFY_OWN_SOCKETS,
  NEST_FASTIFY_MULTIPART,
  'nest-express',
  'fastify',
  'express',
  HIVE_GATEWAY,
  HIVE_GATEWAY_RUST,
  ROUTER,
] as const;
export const DEFAULT_SUBSCRIPTION_TARGETS = [
  'nest-fastify',
  NEST_FASTIFY_SUBGRAPH_DEDUP,
  NEST_FASTIFY_OWN_SOCKETS,
  NEST_FASTIFY_MULTIPART,
  'fastify',
  HIVE_GATEWAY,
  ROUTER,
] as const;

export interface SubscriptionOptions {
  readonly targets: readonly string[];
  /** Subscriber counts, one row each per target. */
  readonly subscribers: readonly number[];
  /** Events timed per row (fewer for large rows, see maxDeliveries). */
  readonly events: number;
  /** A row's events are capped so that events × subscribers stays within this. */
  readonly maxDeliveries: number;
  /** Events whose fan-out may be incomplete at once (closed loop). */
  readonly inFlight: number;
  /** Events sent and discarded before each row. */
  readonly warmupEvents: number;
  readonly basePort: number;
  readonly out?: string;
  readonly pin: boolean;
}

export const SUBSCRIPTIONS_HELP = `Usage: node bench/dist/subscriptions-cli.js [options]   (pnpm bench:subscriptions)

Federated subscriptions: N WebSocket clients (graphql-ws; multipart HTTP on one row) each subscribe to
reviewAdded(productId: "product-4") with the author (users) and the product (products) in every
event; addReview mutations sent straight to the reviews subgraph publish the events, a few in
flight at a time (closed loop). Per target and N: events and deliveries per second, latency
from the mutation's answer to each event's arrival (p50/p99), gateway CPU per event.
Writes results.json and report.md to bench/results/<timestamp>-subscriptions/.

Options:
  --targets <list>        ${SUBSCRIPTION_TARGETS.join(', ')}
                          (default ${DEFAULT_SUBSCRIPTION_TARGETS.join(',')});
                          ${NEST_FASTIFY_SUBGRAPH_DEDUP} is nest-fastify with SUBGRAPH_DEDUPLICATE=true
                          (Hive Gateway shares identical subgraph requests in flight by default);
                          ${NEST_FASTIFY_OWN_SOCKETS} is nest-fastify with SUBSCRIPTION_DEDUPLICATE=false;
                          ${NEST_FASTIFY_MULTIPART} is nest-fastify with multipart HTTP clients
                          (Apollo Client's HttpLink protocol) instead of WebSockets;
                          apollo-router is a row saying why it is not measured
  --subscribers <list>    subscriber counts (default 1,100,1000)
  --events <n>            events timed per row (default 200)
  --max-deliveries <n>    fewer events for large N: events × N at most n (default 100000)
  --in-flight <n>         events in flight at once (default 4)
  --warmup-events <n>     events sent and discarded before each row (default 20)
  --base-port <n>         the gateway on n, the subgraphs on n+1..n+3 (default 4300)
  --out <dir>             where the run's files go
  --no-pin                do not pin processes with taskset
  -h, --help              this text
`;

/** Parses argv (without node and the script); throws an Error naming the bad option. */
export function parseSubscriptionOptions(argv: readonly string[]): SubscriptionOptions | 'help' {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    options: {
      targets: { type: 'string' },
      subscribers: { type: 'string' },
      events: { type: 'string' },
      'max-deliveries': { type: 'string' },
      'in-flight': { type: 'string' },
      'warmup-events': { type: 'string' },
      'base-port': { type: 'string' },
      out: { type: 'string' },
      'no-pin': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  const targets = values.targets?.split(',').map((t) => t.trim()) ?? [...DEFAULT_SUBSCRIPTION_TARGETS];
  const unknown = targets.filter((t) => !(SUBSCRIPTION_TARGETS as readonly string[]).includes(t));
  if (unknown.length > 0 || targets.length === 0) {
    throw new Error(
      `--targets: unknown ${unknown.join(', ') || '(empty)'} (known: ${SUBSCRIPTION_TARGETS.join(', ')})`,
    );
  }
  const subscribers = (values.subscribers ?? '1,100,1000').split(',').map((n) => integer(n.trim(), '--subscribers', 1));
  const basePort = integer(values['base-port'] ?? '4300', '--base-port', 1);
  if (basePort > 65_532) throw new Error(`--base-port: expected a port ≤ 65532, got "${values['base-port']}"`);
  return {
    targets: [...new Set(targets)],
    subscribers: [...new Set(subscribers)],
    events: integer(values.events ?? '200', '--events', 1),
    maxDeliveries: integer(values['max-deliveries'] ?? '100000', '--max-deliveries', 1),
    inFlight: integer(values['in-flight'] ?? '4', '--in-flight', 1),
    warmupEvents: integer(values['warmup-events'] ?? '20', '--warmup-events', 0),
    basePort,
    ...(values.out !== undefined ? { out: values.out } : {}),
    pin: !values['no-pin'],
  };
}

/** Events timed for `subscribers`: `events`, fewer when events × subscribers would pass `maxDeliveries` (at least 10). */
export function eventsFor(options: Pick<SubscriptionOptions, 'events' | 'maxDeliveries'>, subscribers: number): number {
  return Math.max(10, Math.min(options.events, Math.floor(options.maxDeliveries / subscribers)));
}

function integer(value: string, option: string, min: number): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min)
    throw new Error(`${option}: expected an integer ≥ ${min}, got "${value}"`);
  return parsed;
}
