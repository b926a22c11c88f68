/**
 * mulberry32, the subgraphs' own seeded generator: the same seed gives the same sequence, so
 * a failing property test reproduces.
 */
export { mulberry32 as seededRandom } from '@fedgw/subgraphs';
