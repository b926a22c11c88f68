import { RESILIENCE_FIELDS } from '../../resilience/per-subgraph.js';
import { httpUrl, type ValueParser } from '../../settings/kinds.js';
import { SUBGRAPH_FETCH_VALUES, type SubgraphOverride } from '../../subgraph-overrides.js';

import { defineFields, type FieldSpec } from './spec.js';

/** The settings each subgraph may override (SUBGRAPH_<NAME>_TIMEOUT_MS…), read with the global ones' schemas. */
const { timeoutMs, maxResponseBytes, deduplicate, errors } = SUBGRAPH_FETCH_VALUES;

/** How subgraphs are asked: timeouts, pools, size limits, deduplication, retries and the breaker. */
export const SUBGRAPH_FETCH_FIELDS = defineFields([
  {
    key: 'subgraphDefaults.timeoutMs',
    formerKey: 'subgraphTimeoutMs',
    env: 'SUBGRAPH_TIMEOUT_MS',
    parse: timeoutMs,
    meaning:
      "fetch timeout: the request is aborted and the affected fields get `GATEWAY_TIMEOUT` (Apollo Router's code; `legacyCode`: `SUBGRAPH_TIMEOUT`)",
  },
  {
    key: 'subgraphDefaults.poolConnections',
    formerKey: 'subgraphPoolConnections',
    env: 'SUBGRAPH_POOL_CONNECTIONS',
    parse: SUBGRAPH_FETCH_VALUES.poolConnections,
    meaning: 'max sockets per subgraph',
  },
  {
    key: 'subgraphDefaults.keepAliveMs',
    formerKey: 'subgraphKeepAliveMs',
    env: 'SUBGRAPH_KEEP_ALIVE_MS',
    parse: SUBGRAPH_FETCH_VALUES.keepAliveMs,
    meaning:
      "idle pooled sockets close after this, or sooner: a subgraph's `Keep-Alive: timeout=N` hint caps it at N s minus 2 s (undici), so keep the subgraphs' keep-alive timeout above this plus 2 s (65 s for ours; at 2 s or less every fetch opens a connection). See [Connections to a subgraph](architecture.md#connections-to-a-subgraph)",
  },
  {
    key: 'subgraphDefaults.maxResponseBytes',
    formerKey: 'subgraphMaxResponseBytes',
    env: 'SUBGRAPH_MAX_RESPONSE_BYTES',
    parse: maxResponseBytes,
    meaning:
      'a subgraph answer larger than this is aborted mid-read (its connection closed); the affected fields get `SUBGRAPH_RESPONSE_TOO_LARGE`. Per subgraph: `SUBGRAPH_<NAME>_MAX_RESPONSE_BYTES` / `subgraphs.<name>.maxResponseBytes`',
    docDefault: '`5mb`',
  },
  {
    key: 'subgraphDefaults.deduplicate',
    formerKey: 'subgraphDeduplicate',
    env: 'SUBGRAPH_DEDUPLICATE',
    parse: deduplicate,
    meaning:
      'identical query fetches in flight at once share one subgraph request (never mutations). Per subgraph: `SUBGRAPH_<NAME>_DEDUPLICATE` / `subgraphs.<name>.deduplicate`. See [Subgraph deduplication](operations.md#subgraph-deduplication)',
  },
  {
    key: 'subgraphDefaults.deduplicateRepresentations',
    formerKey: 'subgraphDeduplicateRepresentations',
    env: 'SUBGRAPH_DEDUPLICATE_REPRESENTATIONS',
    parse: SUBGRAPH_FETCH_VALUES.deduplicateRepresentations,
    meaning:
      'repeated `_entities` representations in one fetch are sent once and the answers spread back over every position; `false` only to measure what it saves (bench §F `· no dedup`). See [Subgraph deduplication](operations.md#subgraph-deduplication)',
  },
  {
    key: 'subgraphDefaults.errors',
    env: 'SUBGRAPH_ERRORS',
    parse: errors,
    meaning:
      "what clients see of the errors a subgraph writes (Apollo Router's `include_subgraph_errors`): `mask` replaces every message with `Subgraph errors redacted`, keeping its path and `extensions.code` only; `codes` passes the messages whose code is client-safe (`BAD_USER_INPUT`…) and redacts the rest; `all` passes them as written (`MASK_ERRORS` still masks codes that are not client-safe). The gateway's own errors (`GATEWAY_TIMEOUT`…) and a plugin's answers are never redacted. Per subgraph: `SUBGRAPH_<NAME>_ERRORS` / `subgraphs.<name>.errors`. See [Errors](security.md#subgraph-errors)",
  },
  // Retries and circuit breaker: SUBGRAPH_RETRIES … SUBGRAPH_CIRCUIT_COOLDOWN_MS (resilience/settings.ts).
  ...RESILIENCE_FIELDS.map(
    (field) =>
      ({
        key: `subgraphDefaults.${field.key}`,
        formerKey: field.formerKey,
        env: `SUBGRAPH_${field.suffix}`,
        parse: field.parse,
        meaning: field.meaning,
        ...('feature' in field && { feature: field.feature }),
      }) as AsConfigField<typeof field>,
  ),
]);

/** One resilience field as a config field, keeping its own key and parser type (a union over them, not a mix). */
type AsConfigField<F> = F extends { key: infer K extends string; parse: infer P extends ValueParser<unknown> }
  ? FieldSpec<`subgraphDefaults.${K}`, P>
  : never;

export const SUBGRAPH_FIELDS: Record<string, { key: keyof SubgraphOverride; parse: ValueParser<unknown> }> = {
  URL: { key: 'url', parse: httpUrl },
  TIMEOUT_MS: { key: 'timeoutMs', parse: timeoutMs },
  MAX_RESPONSE_BYTES: { key: 'maxResponseBytes', parse: maxResponseBytes },
  DEDUPLICATE: { key: 'deduplicate', parse: deduplicate },
  ERRORS: { key: 'errors', parse: errors },
  ...Object.fromEntries(RESILIENCE_FIELDS.map(({ suffix, key, parse }) => [suffix, { key, parse }])),
};
// No global setting (SUBGRAPH_RETRY_BUDGET) reads as `SUBGRAPH_<name>_<suffix>`: none is taken for an override.
export const SUBGRAPH_ENV = new RegExp(`^SUBGRAPH_([A-Z0-9_]+?)_(${Object.keys(SUBGRAPH_FIELDS).join('|')})$`);
