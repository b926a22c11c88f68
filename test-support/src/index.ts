// What the test suites (and the bench's process helpers) share: free ports, GraphQL over
// HTTP, a recording HTTP server, a chaos subgraph (faults on demand), JWT signing keys,
// real child processes (subgraphs, the compiled gateway, redis-server, a module script in a
// fresh Node), and a body that never ends. The reference answers are the subgraphs' own:
// `@fedgw/subgraphs`.
export { type CapturedLines, captureLines } from './captured-lines.js';
export * from './chaos-subgraph.js';
export { type HeadlessChromium, headlessChromium } from './chromium.js';
export { writeEndlessBody } from './endless-body.js';
export { eventually, fixedWait } from './eventually.js';
export { type Gate, startGate } from './gate.js';
export { type GraphQLResult, postGraphQL, send } from './graphql.js';
export { findHelm, HELM_DEFAULT_KUBERNETES, HELM_VERSION, helmCachedBinary, helmInstallArgs } from './helm.js';
export * from './http-server.js';
export * from './jwt-keys.js';
export { type ManualClock, manualClock } from './manual-clock.js';
export { type ModuleScriptOptions, runModuleScript } from './module-script.js';
export * from './multipart.js';
export { available, ENABLE, find, findRedisServer, MISSING, onPath, type Program, SKIP_LOG_ENV } from './needs.js';
export { untilPeerClosed, writeUntilRead } from './peer-read.js';
export { closedPortUrl, freePort } from './ports.js';
export { killAllGroups, spawnInGroup } from './process-group.js';
export * from './processes.js';
export { type RawAnswer, rawRequest } from './raw-http.js';
export { startRedis, type TestRedis, type TestRedisOptions } from './redis.js';
export { seededRandom } from './seeded-random.js';
export { type ProxiedSubgraph, proxySubgraph } from './subgraph-proxy.js';
export * from './subscriptions.js';
export { findTimerWaits, TEST_CODE_DIRS, type TimerWait, type TimerWaitKind, timerWaitsIn } from './timer-waits.js';
export { untilLive, WARM_UP, WARM_UP_RETRY_MS, type WarmUpOptions, warmUp } from './until-live.js';
export * from './upgrade.js';
