// The plugin kit: the only code of the core a plugin under plugins/ may import (besides the
// contract's types in ./index.ts). tests/layering/import-graph.test.ts holds every plugin to it,
// so what the core keeps inside can change without a plugin noticing. Add a helper here when
// a plugin needs it, never an import from plugins/ into a core folder.
// Unlike ./index.ts this file loads code: the contract's types stay free to import.

// Per-client keys: the one rule every per-client cap counts by (a shared key never alone; IPv6 by network).
export { type ClientKeyOf, clientKey, DEFAULT_IPV6_PREFIX } from '../client-address/index.js';
// The clock a plugin's timers take from its options (tests pass one they move; pollFile's default is the real one).
export type { Clock } from '../clock.js';
export { shareableHeaders } from '../dedup/shareable-headers.js';
// Answers and errors: coded client errors, refusals with an HTTP status, startup and option errors.
export {
  ClientErrorCode,
  isClientErrorCode,
  isClientSafe,
  type LegacyCode,
  type StartupErrorCode,
} from '../error-registry.js';
export { type ConfigIssue, PluginOptionsError } from '../errors.js';
// Logging and events.
export { emitEvent } from '../events.js';
// Shaping answers: deferred parts and subscription events a plugin rewrites, shared answers.
export { mapDeferredParts, mayDefer } from '../executor/deferred-delivery.js';
// Header names: each written once, and those no plugin may forward or set.
export { isHeaderName, REQUEST_ID_HEADER, RESERVED_HEADERS, TRACE_CONTEXT_HEADERS } from '../header-names.js';
export { httpError } from '../http-error.js';
export { droppedLogLines } from '../log-destination.js';
export { LogThrottle } from '../log-throttle.js';
export type { Logger } from '../logger.js';
// A shared store the gateway can do without (Redis): skipped after failures, probed until it answers.
export { TIMED_OUT, withinDeadline } from '../resilience/lag-tolerant-deadline.js';
export { ProbingBreaker, type ProbingBreakerOptions } from '../resilience/probing-breaker.js';
export { responseTooLarge } from '../response-budget.js';
export { markShared } from '../serialize/shared-answer.js';
export {
  boolean,
  byteSize,
  custom,
  defaultsOf,
  duration,
  httpUrl,
  integer,
  list,
  nonEmpty,
  oneOf,
  type Parsed,
  pairs,
  readValue,
  type SettingsOf,
  share,
  urlPath,
  type ValueParser,
  withDefault,
} from '../settings/kinds.js';
// Options: checked when a plugin's factory runs, each bad one named (settings/).
export {
  asOptionsObject,
  checkKnownKeys,
  describe,
  headerName,
  OptionIssues,
  optionalValue,
} from '../settings/plugin-options.js';
export { mapStreamEvents, streamSinkOf } from '../subscriptions/stream-sink.js';
// Reading the supergraph's linked directives (`@link`ed names such as `@cost`, `@authenticated`).
export { argument, intArgument, linkedName, stringList } from '../supergraph/linked-directives.js';
export { SUPERGRAPH_VALUES } from '../supergraph/settings.js';
export { type FilePoller, pollFile } from '../watch/poll-file.js';
