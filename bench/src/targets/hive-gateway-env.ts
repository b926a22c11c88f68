/**
 * The environment bench/src/targets/hive-gateway-config.ts reads. Kept apart from that file so the
 * harness can name the variables without importing Hive Gateway.
 */
/** `true`: Hive Gateway's `inboundInflightRequestDeduplication` (identical requests in flight share one execution). */
export const HIVE_INBOUND_DEDUP_ENV = 'BENCH_HIVE_INBOUND_DEDUP';
/**
 * `true`: the reviews subgraph's subscriptions go over graphql-ws (`subscriptions: { kind: 'ws' }`,
 * same URL as its HTTP endpoint), as it serves them; without it Hive Gateway would ask for them
 * over HTTP. Set by the subscription bench only, so the other scenarios' configuration is unchanged.
 */
export const HIVE_SUBSCRIPTIONS_WS_ENV = 'BENCH_HIVE_SUBSCRIPTIONS_WS';
/**
 * `true`: Hive Gateway's built-in `responseCaching` (§G): whole answers, the TTL the subgraphs'
 * `Cache-Control: max-age` gives (the shortest of a request's fetches), one session per
 * `Authorization` header value so a signed-in user's answer is never served to anyone else.
 */
export const HIVE_RESPONSE_CACHE_ENV = 'BENCH_HIVE_RESPONSE_CACHE';
