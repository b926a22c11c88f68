// The bench's setups, in groups: what each row switches on in our gateway, what the peers run
// instead (or why they cannot), and what each request must carry and prove.
import type { Workload } from '../load/workload.js';
import { repoPath } from '../paths.js';
import { HIVE_INBOUND_DEDUP_ENV, HIVE_RESPONSE_CACHE_ENV } from './hive-gateway-env.js';
import { peerSupergraph } from './peer-supergraph.js';
import type { Refusal, Setup, SetupContext, SetupKey } from './setup-types.js';

const TRACE_HEADERS = Array.from({ length: 10 }, (_, i) => `x-trace-${i + 1}`);
// Never reached: §D measures what the plugin costs, not what rejecting costs.
const UNREACHED_LIMIT = { RATE_LIMIT_MAX: '1000000000', RATE_LIMIT_WINDOW: '60s' };
const NO_RATE_LIMIT = 'the free Router has no rate-limit plugin like ours (key, cost, Redis store)';
/** The header our header rule and the Router's config insert (seed §C "static subgraph header"). */
export const STATIC_HEADER = { name: 'source', value: 'gateway' } as const;
const LIMIT_CHECK = { max: 3 } as const;
/** Where the gateway serves Prometheus text when METRICS_ENABLED=true. */
export const METRICS_PATH = '/metrics';
const NOT_OURS = 'measures our own gateway with and without it';

/** METRICS_ENABLED on the context's port; fails loudly rather than measuring a gateway without it. */
function metricsEnv({ metricsPort }: SetupContext): Record<string, string> {
  if (metricsPort === undefined) throw new Error('metrics setup: no metrics port in the setup context');
  return { METRICS_ENABLED: 'true', METRICS_PORT: String(metricsPort) };
}

/**
 * The standard OpenTelemetry variables, exporting to the bench's sink over OTLP/HTTP protobuf
 * with the head sampler a production deployment uses (parent-based trace-id ratio).
 */
function tracingEnv({ otlpEndpoint }: SetupContext, ratio: string): Record<string, string> {
  if (otlpEndpoint === undefined) throw new Error('tracing setup: no OTLP sink in the setup context');
  return {
    OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
    OTEL_TRACES_SAMPLER_ARG: ratio,
  };
}

/** What the setups that need credentials send, refuse and check. */
export interface SetupCredentials {
  readonly apiKey: string;
  readonly jwtEnv: Readonly<Record<string, string>>;
  readonly bearer: Readonly<Record<string, string>>;
  readonly noApiKey: Refusal;
  forgedToken(headers: Record<string, string>): Refusal;
  /** §G's catalogue, its signed-in users among them. */
  readonly catalogue: Workload;
}

const setup = (key: SetupKey, rest: Omit<Setup, 'key'>): Setup => ({ key, ...rest });

/** `none`, and the rows that turn one of our defaults off (or back to @apollo/gateway's) to show its cost. */
export function defaultsSetups() {
  return {
    none: setup('none', { gatewayEnv: () => ({}), router: { config: 'router.yaml' }, headers: {} }),
    // Demand control is on by default (`none` above); this row shows what it costs.
    'demand-control-off': setup('demand-control-off', {
      gatewayEnv: () => ({ MAX_COST: '0' }),
      router: { skip: 'compares our own demand control on and off' },
      headers: {},
    }),
    // The supergraph's authorization directives are checked on every request (`none` above pays
    // for it, though no bench query selects a guarded field); this row serves the supergraph
    // without them (what the peers serve), so the pair shows what checking costs.
    'authorization-off': setup('authorization-off', {
      gatewayEnv: () => ({ SUPERGRAPH_PATH: peerSupergraph(repoPath('supergraph.graphql')) }),
      router: { skip: 'compares our own authorization on and off' },
      headers: {},
    }),
    // The lean plan executor is the default (`none` above); this row runs @apollo/gateway's own
    // executeQueryPlan on the same gateway, so the pair shows what the lean executor saves.
    'apollo-executor': setup('apollo-executor', {
      gatewayEnv: () => ({ QUERY_PLAN_EXECUTOR: 'apollo' }),
      router: { skip: NOT_OURS },
      headers: {},
    }),
    // Hive Router's query planner is the default (`none` above, ADR 062); this row plans with
    // Apollo's. Plans are cached, so the pair shows what each planner's plans cost to run.
    'apollo-planner': setup('apollo-planner', {
      gatewayEnv: () => ({ QUERY_PLANNER: 'apollo' }),
      router: { skip: NOT_OURS },
      headers: {},
    }),
  };
}

/** Header rules: a static subgraph header, and GUID response headers. */
export function headerSetups() {
  return {
    'static-header': setup('static-header', {
      gatewayEnv: () => ({
        GATEWAY_PLUGINS: 'header-rules',
        GATEWAY_HEADER_RULES: JSON.stringify({ all: [{ insert: STATIC_HEADER }] }),
      }),
      router: { config: 'router-static-header.yaml' },
      headers: {},
      subgraphHeader: STATIC_HEADER,
    }),
    'guid-headers': setup('guid-headers', {
      gatewayEnv: () => ({
        GATEWAY_PLUGINS: 'response-headers',
        GATEWAY_RESPONSE_HEADERS: TRACE_HEADERS.map((name) => `${name}:{uuid}`).join(','),
      }),
      router: { config: 'router-guid-headers.yaml' },
      headers: {},
      expectHeaders: TRACE_HEADERS,
    }),
  };
}

/** JWT, API keys and the rate limit (in memory and in Redis). */
export function accessSetups({ apiKey, jwtEnv, bearer, noApiKey, forgedToken }: SetupCredentials) {
  return {
    'jwt-client-awareness': setup('jwt-client-awareness', {
      gatewayEnv: () => ({ GATEWAY_PLUGINS: 'jwt+client-awareness', ...jwtEnv }),
      router: { skip: 'needs GraphOS-licensed JWT auth' },
      headers: bearer,
      refusals: [forgedToken({})],
    }),
    'rate-limit': setup('rate-limit', {
      gatewayEnv: () => ({ GATEWAY_PLUGINS: 'rate-limit', ...UNREACHED_LIMIT }),
      router: { skip: NO_RATE_LIMIT },
      headers: {},
      limitCheck: LIMIT_CHECK,
    }),
    'rate-limit+api-key': setup('rate-limit+api-key', {
      gatewayEnv: () => ({
        GATEWAY_PLUGINS: 'rate-limit+api-key',
        GATEWAY_API_KEYS: `bench:${apiKey}`,
        ...UNREACHED_LIMIT,
      }),
      router: { skip: NO_RATE_LIMIT },
      headers: { 'x-api-key': apiKey },
      refusals: [noApiKey],
      limitCheck: LIMIT_CHECK,
    }),
    'rate-limit+api-key+jwt': setup('rate-limit+api-key+jwt', {
      gatewayEnv: () => ({
        GATEWAY_PLUGINS: 'rate-limit+api-key+jwt',
        GATEWAY_API_KEYS: `bench:${apiKey}`,
        ...jwtEnv,
        ...UNREACHED_LIMIT,
      }),
      router: { skip: 'needs GraphOS-licensed JWT auth' },
      headers: { 'x-api-key': apiKey, ...bearer },
      refusals: [noApiKey, forgedToken({ 'x-api-key': apiKey })],
      limitCheck: LIMIT_CHECK,
    }),
    'rate-limit-redis': setup('rate-limit-redis', {
      gatewayEnv: ({ redisUrl }) => ({
        GATEWAY_PLUGINS: 'rate-limit',
        ...UNREACHED_LIMIT,
        GATEWAY_REDIS_URL: redisUrl ?? '',
        // Closed: if Redis were unreachable every request would fail visibly, not pass unmeasured.
        RATE_LIMIT_FAILURE_MODE: 'closed',
      }),
      router: { skip: NO_RATE_LIMIT },
      headers: {},
      limitCheck: LIMIT_CHECK,
      needsRedis: true,
    }),
  };
}

/** Prometheus metrics and OpenTelemetry tracing. */
export function observabilitySetups() {
  return {
    metrics: setup('metrics', {
      gatewayEnv: metricsEnv,
      router: { skip: NOT_OURS },
      headers: {},
      metrics: true,
    }),
    // 1,000 requests at 1%: no export at all has a chance of 0.99^1000 ≈ 4e-5 when tracing is on.
    'tracing-1%': setup('tracing-1%', {
      gatewayEnv: (context) => tracingEnv(context, '0.01'),
      router: { skip: NOT_OURS },
      headers: {},
      traceCheck: { requests: 1000 },
    }),
    'tracing-100%': setup('tracing-100%', {
      gatewayEnv: (context) => tracingEnv(context, '1'),
      router: { skip: NOT_OURS },
      headers: {},
      traceCheck: { requests: 5 },
    }),
  };
}

/** Deduplication (each target's, then each of ours alone) and compression. */
export function dedupSetups() {
  return {
    // Each target's own dedup (§A, §F): requests in flight for the same thing share one execution.
    dedup: setup('dedup', {
      gatewayEnv: () => ({ SUBGRAPH_DEDUPLICATE: 'true', INBOUND_DEDUPLICATE: 'true' }),
      router: { config: 'router-dedup.yaml' },
      hiveEnv: { [HIVE_INBOUND_DEDUP_ENV]: 'true' },
      headers: {},
    }),
    // Each of our three dedups alone (§F), so users see what each is worth: representations
    // off (they are on by default), then in-flight subgraph requests, then inbound requests.
    'no-dedup': setup('no-dedup', {
      gatewayEnv: () => ({ SUBGRAPH_DEDUPLICATE_REPRESENTATIONS: 'false' }),
      router: { skip: NOT_OURS },
      headers: {},
    }),
    'subgraph-dedup': setup('subgraph-dedup', {
      gatewayEnv: () => ({ SUBGRAPH_DEDUPLICATE: 'true' }),
      router: { skip: NOT_OURS },
      headers: {},
    }),
    // Compression is on by default, but the load sends no Accept-Encoding elsewhere, so `none`
    // answers uncompressed; here every request asks for it as browsers do (both codings: gzip wins the tie).
    // Vary proves the gateway's compression code ran (answers below COMPRESSION_MIN_BYTES say it too).
    compression: setup('compression', {
      gatewayEnv: () => ({ COMPRESSION: 'true' }),
      router: { skip: 'compares our own compression on and off' },
      headers: { 'accept-encoding': 'gzip, deflate, br' },
      expectHeaders: ['vary'],
    }),
    'inbound-dedup': setup('inbound-dedup', {
      gatewayEnv: () => ({ INBOUND_DEDUPLICATE: 'true' }),
      router: { skip: NOT_OURS },
      headers: {},
    }),
  };
}

/** §G: our entity cache (off, memory, Redis) and Hive Gateway's response cache. */
export function cacheSetups({ jwtEnv, catalogue }: SetupCredentials) {
  // Our first mount in §G: tokens verified (a request without one is anonymous, as most
  // shoppers are), so private answers are kept under the JWT subject; the store per row. The
  // catalogue's subgraphs are trusted to mean `public` (their answers do not depend on who
  // asks), so signed-in shoppers share product and review entries with each other.
  const sharedPublic = { ENTITY_CACHE_SHARED_PUBLIC_SUBGRAPHS: 'products,reviews' };
  const entityCache = (key: SetupKey, store: 'off' | 'memory' | 'redis'): Setup =>
    setup(key, {
      gatewayEnv: ({ redisUrl }) => ({
        GATEWAY_PLUGINS: 'jwt',
        ...jwtEnv,
        JWT_REQUIRED: 'false',
        ENTITY_CACHE: store,
        ...(store === 'off' ? {} : sharedPublic),
        ...(store === 'redis' ? { ENTITY_CACHE_REDIS_URL: redisUrl ?? '' } : {}),
      }),
      // The Router runs §G as it ships: its entity cache needs a GraphOS licence.
      router: store === 'off' ? { config: 'router.yaml' } : { skip: 'the free Router has no entity cache' },
      headers: {},
      workload: catalogue,
      ...(store === 'redis' ? { needsRedis: true } : {}),
    });
  return {
    'entity-cache-off': entityCache('entity-cache-off', 'off'),
    'entity-cache-memory': entityCache('entity-cache-memory', 'memory'),
    'entity-cache-redis': entityCache('entity-cache-redis', 'redis'),
    // Hive Gateway's whole-response cache (§G), one session per Authorization header value.
    'response-cache': setup('response-cache', {
      gatewayEnv: () => ({}),
      router: { skip: 'the free Router has no response cache' },
      hiveEnv: { [HIVE_RESPONSE_CACHE_ENV]: 'true' },
      headers: {},
      workload: catalogue,
    }),
  };
}

/** The soak's stack: every plugin, plus metrics. */
export function soakSetups({ jwtEnv, bearer, forgedToken }: SetupCredentials) {
  return {
    // The soak's stack: GATEWAY_PLUGINS=full (every plugin set so that none refuses the
    // bench's requests), plus metrics so the soak can read the event-loop lag.
    'full+metrics': setup('full+metrics', {
      gatewayEnv: (context) => ({
        GATEWAY_PLUGINS: 'full',
        ...jwtEnv,
        ...UNREACHED_LIMIT,
        GATEWAY_HEADER_RULES: JSON.stringify({ all: [{ insert: STATIC_HEADER }] }),
        GATEWAY_RESPONSE_HEADERS: TRACE_HEADERS.map((name) => `${name}:{uuid}`).join(','),
        ...metricsEnv(context),
      }),
      router: { skip: 'the soak runs our full plugin stack' },
      headers: bearer,
      expectHeaders: TRACE_HEADERS,
      subgraphHeader: STATIC_HEADER,
      refusals: [forgedToken({})],
      limitCheck: LIMIT_CHECK,
      metrics: true,
    }),
  };
}
