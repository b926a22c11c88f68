import { randomBytes } from 'node:crypto';
import { SignJWT } from 'jose';
import { catalogueWorkload, type SignedInUser, signedInUserIds } from '../load/catalogue.js';
import type { Workload } from '../load/workload.js';
import { repoPath } from '../paths.js';
import { HIVE_INBOUND_DEDUP_ENV, HIVE_RESPONSE_CACHE_ENV } from './hive-gateway-env.js';
import { peerSupergraph } from './peer-supergraph.js';

/**
 * How a target is configured for a row: our gateway's plugins (environment) and the Router's
 * equivalent (a config in bench/router/), plus what each request must carry.
 */
export interface Setup {
  readonly key: SetupKey;
  gatewayEnv(context: SetupContext): Record<string, string>;
  /** The Router config file, or why the free Router cannot do this. */
  readonly router: { readonly config: string } | { readonly skip: string };
  /** Hive Gateway's equivalent, read by bench/src/targets/hive-gateway-config.ts; absent: Hive runs only `none`. */
  readonly hiveEnv?: Readonly<Record<string, string>>;
  /** Sent with every request (credentials). */
  readonly headers: Readonly<Record<string, string>>;
  /** Response headers the answer check requires (proves the variant is really on). */
  readonly expectHeaders?: readonly string[];
  /** A header every subgraph request must carry: checked at the subgraphs before timing. */
  readonly subgraphHeader?: { readonly name: string; readonly value: string };
  /** Requests the setup must refuse (no API key, a forged token): checked before timing. */
  readonly refusals?: readonly Refusal[];
  /**
   * The timed rows never reach the rate limit; before them, the same setup is started once
   * with this limit, and the request past it must be refused with 429.
   */
  readonly limitCheck?: { readonly max: number };
  readonly needsRedis?: boolean;
  /**
   * Requests that vary per request (§G's catalogue: products by Zipf, some users signed in),
   * sent instead of the row's query with a random user, and checked against their own answers.
   */
  readonly workload?: Workload;
  /** The gateway serves Prometheus metrics on SetupContext.metricsPort: checked before timing. */
  readonly metrics?: boolean;
  /**
   * The gateway exports traces to the bench's OTLP sink (SetupContext.otlpEndpoint): before
   * timing, `requests` requests must make the sink receive at least one export.
   */
  readonly traceCheck?: { readonly requests: number };
}

export interface Refusal {
  /** What is wrong with the request, for the check's message: "no API key". */
  readonly what: string;
  /** Replaces the setup's headers for this one request. */
  readonly headers: Readonly<Record<string, string>>;
  readonly status: number;
}

export interface SetupContext {
  readonly redisUrl?: string;
  /** A free port for METRICS_PORT (setups with `metrics`). */
  readonly metricsPort?: number;
  /** The OTLP sink's base URL (setups with `traceCheck`). */
  readonly otlpEndpoint?: string;
}

export type SetupKey =
  | 'none'
  | 'demand-control-off'
  | 'authorization-off'
  | 'apollo-executor'
  | 'static-header'
  | 'guid-headers'
  | 'jwt-client-awareness'
  | 'rate-limit'
  | 'rate-limit+api-key'
  | 'rate-limit+api-key+jwt'
  | 'rate-limit-redis'
  | 'metrics'
  | 'tracing-1%'
  | 'tracing-100%'
  | 'full+metrics'
  | 'dedup'
  | 'no-dedup'
  | 'subgraph-dedup'
  | 'inbound-dedup'
  | 'compression'
  | 'entity-cache-off'
  | 'entity-cache-memory'
  | 'entity-cache-redis'
  | 'response-cache';

export type Setups = Readonly<Record<SetupKey, Setup>>;

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

/** A token for `subject` as the JWT setups send it: HS256, the bench's client claims, 12 hours. */
function sign(subject: string, secret: string): Promise<string> {
  return new SignJWT({ client_name: 'bench', client_version: '1.0.0' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime('12h')
    .sign(new TextEncoder().encode(secret));
}

/** Every setup, with fresh credentials: a random HS256 secret, a token signed with it, an API key. */
export async function createSetups(): Promise<Setups> {
  const secret = randomBytes(32).toString('hex');
  const apiKey = randomBytes(16).toString('hex');
  const token = await sign('user-1', secret);
  // Same claims, another secret: a forged token the JWT setups must refuse.
  const forged = await new SignJWT({ client_name: 'bench' })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('user-1')
    .setExpirationTime('12h')
    .sign(new TextEncoder().encode(randomBytes(32).toString('hex')));
  const jwtEnv = { JWT_SECRET: secret, JWT_ALGORITHMS: 'HS256' };
  // §G: signed-in users of the catalogue, each with a token signed with the same secret.
  const signedIn = await Promise.all(
    signedInUserIds().map(
      async (userId): Promise<SignedInUser> => ({
        userId,
        authorization: `Bearer ${await sign(userId, secret)}`,
      }),
    ),
  );
  const catalogue = catalogueWorkload(signedIn);
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
  const bearer = { authorization: `Bearer ${token}` };
  const noApiKey: Refusal = { what: 'no API key', headers: { authorization: `Bearer ${token}` }, status: 401 };
  const forgedToken = (headers: Record<string, string>): Refusal => ({
    what: 'a token signed with another secret',
    headers: { ...headers, authorization: `Bearer ${forged}` },
    status: 401,
  });

  const setup = (key: SetupKey, rest: Omit<Setup, 'key'>): Setup => ({ key, ...rest });
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
