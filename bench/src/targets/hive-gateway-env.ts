/**
 * The environment bench/src/targets/hive-gateway-config.ts reads. Kept apart from that file so the
 * harness can name the variables without importing Hive Gateway.
 */
/** `true`: Hive Gateway's `inboundInflightRequestDeduplication` (identical requests in flight share one execution). */
export const HIVE_INBOUND_DEDUP_ENV = 'BENCH_HIVE_INBOUND_DEDUP';
