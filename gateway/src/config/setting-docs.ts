import { CONFIG_FIELDS } from './fields.js';

/**
 * What each setting means, for the reference in docs/configuration.md, which is generated
 * from CONFIG_FIELDS (names, file keys, order, defaults) and this (`pnpm docs:config`); a test
 * fails when a setting has no entry here or the committed page differs. `default` is shown
 * instead of the parser's default only where that would read badly (byte sizes, durations);
 * a test checks that it parses to the parser's default.
 */
export interface SettingDoc {
  readonly meaning: string;
  readonly default?: string;
}

export const SETTING_DOCS: Readonly<Record<string, SettingDoc>> = {
  GATEWAY_ENV: {
    meaning:
      '`development` turns on introspection, the landing page, pretty logs and unmasked errors (each can be set on its own below). No setting reads `NODE_ENV`; see [NODE_ENV](#node_env)',
  },
  GATEWAY_RUNTIME: { meaning: '`nest` or `bare`' },
  GATEWAY_ADAPTER: { meaning: '`fastify` or `express`' },
  GATEWAY_WORKERS: {
    meaning:
      'processes serving under `node:cluster` (an integer from 1, or `auto`: the cores this process may use); `1` is a single process. See [Cluster mode](operations.md#cluster-mode)',
  },
  HOST: { meaning: 'listen address' },
  PORT: { meaning: 'listen port (`0`: any free port)' },
  GRAPHQL_PATH: { meaning: 'where GraphQL is served' },
  SUPERGRAPH_PATH: { meaning: 'supergraph SDL file (any valid supergraph), relative to the working directory' },
  SUPERGRAPH_URL: {
    meaning:
      'fetch the supergraph from this http(s) URL instead of the file (not both: startup refuses it); never logged. See [Supergraph hot reload](operations.md#supergraph-hot-reload)',
  },
  SUPERGRAPH_POLL_INTERVAL_MS: {
    meaning:
      'how often the file (or URL) is checked for a new supergraph; `0` turns hot reload off, otherwise at least `100`',
  },
  SUPERGRAPH_URL_TIMEOUT_MS: {
    meaning: 'bounds each fetch of `SUPERGRAPH_URL`, headers and body (only with `SUPERGRAPH_URL`)',
  },
  SUPERGRAPH_URL_MAX_BYTES: {
    meaning: 'a larger answer from `SUPERGRAPH_URL` is abandoned mid-read (only with `SUPERGRAPH_URL`)',
    default: '`50mb`',
  },
  SUBGRAPH_TIMEOUT_MS: {
    meaning: 'fetch timeout: the request is aborted and the affected fields get `SUBGRAPH_TIMEOUT`',
  },
  SUBGRAPH_POOL_CONNECTIONS: { meaning: 'max sockets per subgraph' },
  SUBGRAPH_KEEP_ALIVE_MS: {
    meaning: "idle pooled sockets close after this (keep it below the subgraphs' keep-alive timeout, 65 s for ours)",
  },
  SUBGRAPH_MAX_RESPONSE_BYTES: {
    meaning:
      'a subgraph answer larger than this is aborted mid-read (its connection closed); the affected fields get `SUBGRAPH_RESPONSE_TOO_LARGE`. Per subgraph: `SUBGRAPH_<NAME>_MAX_RESPONSE_BYTES` / `subgraphs.<name>.maxResponseBytes`',
    default: '`5mb`',
  },
  SUBGRAPH_DEDUPLICATE: {
    meaning:
      'identical query fetches in flight at once share one subgraph request (never mutations). Per subgraph: `SUBGRAPH_<NAME>_DEDUPLICATE` / `subgraphs.<name>.deduplicate`. See [Subgraph deduplication](operations.md#subgraph-deduplication)',
  },
  SUBGRAPH_DEDUPLICATE_REPRESENTATIONS: {
    meaning:
      'repeated `_entities` representations in one fetch are sent once and the answers spread back over every position; `false` only to measure what it saves (bench §F `· no dedup`). See [Subgraph deduplication](operations.md#subgraph-deduplication)',
  },
  SUBGRAPH_RETRIES: {
    meaning:
      'retries of a failed fetch that belongs to a query (never a mutation), within its timeout; `0` turns them off. See [Subgraph faults](operations.md#subgraph-faults-retries-and-circuit-breaker)',
  },
  SUBGRAPH_RETRY_BACKOFF_MS: {
    meaning: 'the first retry waits a random time up to this (full jitter), doubling with each retry',
  },
  SUBGRAPH_RETRY_BUDGET: { meaning: 'retries of a subgraph over 10 s may be at most this share of its requests…' },
  SUBGRAPH_RETRY_MIN_PER_SEC: { meaning: '…plus this many per second, so a quiet subgraph can still be retried' },
  SUBGRAPH_CIRCUIT_BREAKER: {
    meaning:
      "a circuit breaker per subgraph: while it is open, that subgraph's fields get `SUBGRAPH_CIRCUIT_OPEN` at once",
  },
  SUBGRAPH_CIRCUIT_FAILURE_RATE: { meaning: "it opens when this share of a subgraph's attempts over 10 s failed…" },
  SUBGRAPH_CIRCUIT_MIN_REQUESTS: { meaning: '…and there were at least this many' },
  SUBGRAPH_CIRCUIT_COOLDOWN_MS: {
    meaning: 'after this, one probe goes through (half-open): its success closes the circuit, its failure reopens it',
  },
  BODY_LIMIT: { meaning: 'larger bodies get 413; bytes or `512kb`, `2mb`', default: '`2mb`' },
  REQUEST_TIMEOUT_MS: {
    meaning:
      "a client must send its whole request within this, or gets 408 and the connection is closed (all four mounts; Fastify's own default is no limit)",
  },
  HEADERS_TIMEOUT_MS: { meaning: 'the same for the request headers; at most `REQUEST_TIMEOUT_MS`' },
  KEEP_ALIVE_TIMEOUT_MS: {
    meaning: "idle client keep-alive connections close after this; keep it above your load balancer's idle timeout",
  },
  STALLED_WRITE_TIMEOUT_MS: {
    meaning:
      'a client connection with answer bytes waiting to be written that makes no progress for this long (a client that does not read) is closed, freeing them; a connection with more than 8 unanswered pipelined requests is closed at once',
  },
  INTROSPECTION: { meaning: 'GraphQL introspection' },
  LANDING_PAGE: { meaning: 'Apollo Sandbox on `GET /graphql`' },
  MASK_ERRORS: { meaning: 'see [Errors](security.md#errors-clients-see)' },
  SHUTDOWN_GRACE_MS: { meaning: 'time in-flight requests get after SIGTERM' },
  SHUTDOWN_DELAY_MS: {
    meaning:
      "time between `/ready` turning 503 and the listener closing (set it to your load balancer's probe interval)",
  },
  LOG_LEVEL: { meaning: '`fatal` … `trace`, `silent`' },
  LOG_PRETTY: { meaning: 'pino-pretty output' },
  METRICS_ENABLED: { meaning: 'Prometheus metrics; see [Metrics](operations.md#metrics-prometheus)' },
  METRICS_PORT: {
    meaning:
      'set: metrics are served only on a listener of their own on this port (keep them off the public port); must differ from `PORT`. Unset: on the main port',
  },
  METRICS_PATH: { meaning: 'where metrics are served' },
  METRICS_MAX_OPERATION_NAMES: {
    meaning:
      'most operation names that hold a label value of their own (earned: see METRICS_OPERATION_NAME_MIN_COUNT); the rest are `__other`',
  },
  METRICS_OPERATION_NAME_MIN_COUNT: {
    meaning:
      'requests (validated, not refused) an operation name must be seen in before it takes one of the `METRICS_MAX_OPERATION_NAMES` label values; until then `__other`. Trusted-document operations need none; see [the operation-name label](operations.md#the-operation-name-label)',
  },
  OTEL_SDK_DISABLED: { meaning: '`true` turns tracing off whatever else is set' },
  OTEL_SERVICE_NAME: {
    meaning:
      'the `service.name` resource attribute; unset: the `service.name` of `OTEL_RESOURCE_ATTRIBUTES`, else `graphql-gateway`',
    default: 'see meaning',
  },
  OTEL_RESOURCE_ATTRIBUTES: {
    meaning: 'more resource attributes, `key=value,key=value` (`deployment.environment=prod`)',
  },
  OTEL_EXPORTER_OTLP_ENDPOINT: {
    meaning:
      'turns [tracing](operations.md#tracing-opentelemetry) on: the OTLP/HTTP base URL (spans go to `<base>/v1/traces`); unset (and no traces endpoint): no tracing, the SDK is not even loaded',
  },
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: {
    meaning:
      'the full traces URL, used as it is; wins over `OTEL_EXPORTER_OTLP_ENDPOINT` (either one turns tracing on)',
  },
  OTEL_EXPORTER_OTLP_PROTOCOL: { meaning: '`http/protobuf` or `http/json` (`grpc` is not offered)' },
  OTEL_EXPORTER_OTLP_HEADERS: {
    meaning:
      'headers sent with every export, `name=value,name=value` (values percent-encoded): a secret, never logged or shown in config errors',
  },
  OTEL_TRACES_SAMPLER: {
    meaning:
      '`always_on`, `always_off`, `traceidratio`, `parentbased_always_on`, `parentbased_always_off`, `parentbased_traceidratio`',
  },
  OTEL_TRACES_SAMPLER_ARG: {
    meaning:
      'the ratio (0 to 1) of the two `traceidratio` samplers; unset: 1. Set with another sampler, it fails startup (it would change nothing)',
  },
  GATEWAY_PLUGINS: {
    meaning:
      'plugins to run: a profile or a comma list of profiles and plugin names (`jwt`, `api-key`, `client-awareness`, `header-rules`, `response-headers`, `rate-limit`, `full`…); see [Plugins](plugins.md)',
  },
  JWT_JWKS_URL: {
    meaning:
      "`jwt`: the identity provider's JWKS URL (https, or http on loopback); one of `JWT_JWKS_URL`, `JWT_JWKS_FILE`, `JWT_SECRET`",
  },
  JWT_JWKS_FILE: { meaning: '`jwt`: a local JWKS file (public keys only)' },
  JWT_SECRET: { meaning: '`jwt`: an HS256/384/512 shared secret (at least 32/48/64 bytes); a secret, never logged' },
  JWT_ISSUER: { meaning: '`jwt`: the required `iss`' },
  JWT_AUDIENCE: { meaning: '`jwt`: accepted `aud` values, comma-separated' },
  JWT_ALGORITHMS: { meaning: '`jwt`: required allowlist of algorithms (`RS256,ES256`); `none` is always refused' },
  JWT_REQUIRED: { meaning: '`jwt`: `true`: no token is 401; `false`: no token is anonymous (a bad one is still 401)' },
  JWT_CLAIM_HEADERS: {
    meaning:
      '`jwt`: claims forwarded to subgraphs as headers, `claim:header,…`; incoming copies are always removed first',
    default: '`sub:x-user-id`',
  },
  JWT_HEADER: { meaning: '`jwt`: the header carrying the token' },
  JWT_PREFIX: { meaning: '`jwt`: the scheme before the token' },
  JWT_COOKIE: { meaning: '`jwt`: read the token from this cookie instead' },
  JWT_CLOCK_TOLERANCE_S: { meaning: '`jwt`: seconds of clock skew allowed on `exp`/`nbf`' },
  JWT_JWKS_TIMEOUT_MS: { meaning: '`jwt`: bounds each JWKS fetch' },
  JWT_JWKS_COOLDOWN_MS: {
    meaning: '`jwt`: at most one JWKS fetch per this interval (an unknown `kid` cannot force more)',
  },
  JWT_JWKS_CACHE_MAX_AGE_MS: { meaning: '`jwt`: cached keys are used at most this long' },
  JWT_FORWARD_TOKEN: { meaning: '`jwt`: forward the raw token to subgraphs' },
  API_KEYS: {
    meaning: '`api-key`: `consumer:key` or `consumer:sha256:<hex>` entries, comma-separated; a secret, never logged',
  },
  API_KEY_HEADER: { meaning: '`api-key`: the header carrying the key' },
  CLIENT_NAME_CLAIM: { meaning: '`client-awareness`: the JWT claim giving `apollographql-client-name`' },
  CLIENT_VERSION_CLAIM: { meaning: '`client-awareness`: the JWT claim giving `apollographql-client-version`' },
  HEADER_RULES: {
    meaning:
      '`header-rules`: Apollo Router-shaped rules, JSON; see [Header rules](plugins.md#header-rules-header-rules)',
  },
  HEADER_RULES_MAX_VALUE_BYTES: {
    meaning:
      '`header-rules`: bytes (UTF-8) of one header value the rules forward; a client header over it is answered 431 `REQUEST_HEADER_FIELDS_TOO_LARGE` before any subgraph is asked',
    default: '`4kb`',
  },
  HEADER_RULES_MAX_TOTAL_BYTES: {
    meaning:
      '`header-rules`: bytes of every header the rules forward to one subgraph (names and values); over it, 431 as above',
    default: '`8kb`',
  },
  RESPONSE_HEADERS: { meaning: '`response-headers`: `name:value,…`, values may be `{uuid}` or `{requestId}`' },
  RATE_LIMIT_MAX: { meaning: '`rate-limit`: requests (cost units) per window' },
  RATE_LIMIT_WINDOW: { meaning: '`rate-limit`: fixed window (`500ms`, `60s`, `5m`)', default: '`60s`' },
  RATE_LIMIT_KEY: {
    meaning:
      '`rate-limit`: `ip`, `sub`, `api-key` or `global`; see [Rate limiting](plugins.md#rate-limiting-rate-limit)',
  },
  RATE_LIMIT_COST: {
    meaning: '`rate-limit`: `request` (1 each) or `estimated` (the demand-control estimate, at least 1)',
  },
  RATE_LIMIT_FAILURE_MODE: {
    meaning: '`rate-limit`: when Redis is down, `open` lets requests through, `closed` answers 503',
  },
  REDIS_URL: {
    meaning: '`rate-limit`: counts in this Redis (`redis://`, `rediss://`) instead of memory; a secret, never logged',
  },
  TRUSTED_DOCUMENTS: {
    meaning:
      'a persisted query manifest (Apollo or Relay/Codegen format), relative to the working directory; see [Trusted documents](security.md#trusted-documents). Reloaded every `SUPERGRAPH_POLL_INTERVAL_MS`',
  },
  TRUSTED_DOCUMENTS_MODE: {
    meaning:
      '`off`, `allow-ids` (ids accepted, any document runs) or `enforce` (only manifest operations run); with `TRUSTED_DOCUMENTS` set the default is `enforce`',
    default: '`off`',
  },
  MAX_DEPTH: {
    meaning:
      'deepest selection allowed (introspection fields not counted); see [Security](security.md#security-limits-on-every-request)',
  },
  MAX_ALIASES: { meaning: 'aliases allowed in one operation' },
  MAX_ROOT_FIELDS: { meaning: 'root fields allowed in one operation' },
  MAX_TOKENS: { meaning: 'parser tokens allowed in one document (the parser stops at the limit)' },
  MAX_CHARACTERS: { meaning: 'characters allowed in one document' },
  MAX_FIELDS: {
    meaning:
      'field selections written in one document (a fragment counted once), checked before the document is validated: validation is quadratic in fields of one name',
  },
  MAX_COST: { meaning: 'largest estimated cost allowed (demand control); `0` turns demand control off' },
  DEFAULT_LIST_SIZE: { meaning: 'list size assumed when neither a slicing argument nor `@listSize` gives one' },
  MAX_RESPONSE_BYTES: { meaning: 'largest answer the gateway builds; past it `RESPONSE_TOO_LARGE`', default: '`10mb`' },
  INBOUND_DEDUPLICATE: {
    meaning:
      'identical queries in flight at once share one execution (never mutations); every caller is still authenticated, rate limited and checked. See [Inbound request deduplication](operations.md#inbound-request-deduplication)',
  },
  APOLLO_TELEMETRY: {
    meaning:
      '`true` lets `@apollo/gateway` send its usage metrics to Apollo (an OpenTelemetry exporter, whose resource detection probes cloud metadata addresses); off, the gateway connects only to what you configure. See [Outbound connections](security.md#outbound-connections)',
  },
};

type Env = 'production' | 'development';

function shown(value: unknown): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.length === 0 ? '' : `\`${value.join(',')}\``;
  if (typeof value === 'object' && value !== null)
    return Object.keys(value).length === 0 ? '' : `\`${JSON.stringify(value)}\``;
  return `\`${String(value)}\``;
}

function defaultOf(field: (typeof CONFIG_FIELDS)[number], doc: SettingDoc): string {
  if (doc.default !== undefined) return doc.default;
  const at = (env: Env) => shown(field.fallback({ env }));
  const [dev, prod] = [at('development'), at('production')];
  return dev === prod ? prod : `dev: ${dev}, prod: ${prod}`;
}

/** The reference table: one row per setting, in CONFIG_FIELDS' order. Throws on a setting without docs. */
export function settingsReference(): string {
  const missing = CONFIG_FIELDS.filter((field) => !SETTING_DOCS[field.env]).map((field) => field.env);
  if (missing.length > 0) throw new Error(`settings without an entry in SETTING_DOCS: ${missing.join(', ')}`);
  const rows = CONFIG_FIELDS.map((field) => {
    const doc = SETTING_DOCS[field.env] as SettingDoc;
    return `| \`${field.env}\` | \`${field.key}\` | ${defaultOf(field, doc)} | ${doc.meaning} |`;
  });
  return ['| variable | file key | default | meaning |', '| --- | --- | --- | --- |', ...rows].join('\n');
}
