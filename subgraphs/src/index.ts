// Public surface of @fedgw/subgraphs: re-exports only.

export { defaultPortOf, SUBGRAPH_NAMES, SUBGRAPHS, type SubgraphName } from './catalog.js';
export type { SubgraphContext } from './context.js';
export { IDENTITY_HEADER } from './context.js';
export { PRODUCT_COUNT, REVIEW_COUNT, SEED, USER_COUNT } from './dataset.js';
export type { SubgraphDefinition } from './definition.js';
export { subgraphDefinitions } from './definitions.js';
export type { HeaderCounts } from './header-counter.js';
export { getProduct, type ProductRecord, products } from './products/data.js';
export { mulberry32 } from './random.js';
export {
  COMPLEX_QUERY,
  expectedComplex,
  expectedUserWithProducts,
  GET_USER_WITH_PRODUCTS,
  TYPENAME_QUERY,
} from './reference-answers.js';
export {
  DASHBOARD_DEFERRED_QUERY,
  DASHBOARD_PRODUCTS,
  DASHBOARD_QUERY,
  expectedDashboard,
} from './reference-answers-large.js';
export { createReviewStore, type ReviewRecord, ReviewStore, reviewStore } from './reviews/data.js';
export { type RunningSubgraph, type StartSubgraphOptions, startSubgraph } from './serve.js';
export { type CompositionResult, composeSupergraph } from './supergraph.js';
export { getUser, type OrderRecord, type UserRecord, users } from './users/data.js';
