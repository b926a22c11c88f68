// Public surface of @fedgw/bench: re-exports only. The CLI is bench/dist/cli.js.
export { type AnswerCheck, type AnswerCheckOptions, checkAnswers } from './load/answer-check.js';
export { type ClosedLoopOptions, runClosedLoop } from './load/closed-loop.js';
export { firstDifference } from './load/diff.js';
export type { LoadResult } from './load/load-result.js';
export { type OpenLoopOptions, runOpenLoop } from './load/open-loop.js';
export { type BenchQuery, COMPLEX, GET_USER_WITH_PRODUCTS_QUERY, sampleUserIds, TYPENAME } from './load/queries.js';
export { readCpuSeconds, readPeakRssMb } from './measure/proc-stats.js';
export { percentile, Samples, summarize } from './measure/samples.js';
export type * from './run/results.js';
export { findRouterBinary } from './targets/router-binary.js';
