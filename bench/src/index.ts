// Public surface of @fedgw/bench: re-exports only. The CLI is bench/dist/cli.js.
export { type AnswerCheck, type AnswerCheckOptions, checkAnswers } from './answer-check.js';
export { type ClosedLoopOptions, runClosedLoop } from './closed-loop.js';
export { firstDifference } from './diff.js';
export type { LoadResult } from './load-result.js';
export { type OpenLoopOptions, runOpenLoop } from './open-loop.js';
export { readCpuSeconds, readPeakRssMb } from './proc-stats.js';
export { type BenchQuery, COMPLEX, GET_USER_WITH_PRODUCTS_QUERY, sampleUserIds, TYPENAME } from './queries.js';
export type * from './results.js';
export { findRouterBinary } from './router-binary.js';
export { percentile, Samples, summarize } from './samples.js';
