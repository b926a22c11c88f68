import {
  COMPLEX_QUERY,
  DASHBOARD_DEFERRED_QUERY,
  DASHBOARD_QUERY,
  expectedComplex,
  expectedDashboard,
  expectedUserWithProducts,
  GET_USER_WITH_PRODUCTS,
  TYPENAME_QUERY,
  USER_COUNT,
} from '@fedgw/subgraphs';

/** One operation the load generators send, with the answer every target must give. */
export interface BenchQuery {
  /** Used as the row variant (the report recognises `ComplexQuery`). */
  readonly name: string;
  readonly text: string;
  /** Whether each request picks a random `user-N` (seed §A: `user-1`..`user-1000`). */
  readonly perUser: boolean;
  /** The `data` a correct target answers for `userId` (ignored when not `perUser`). */
  expected(userId: string): unknown;
  /**
   * Set for an incremental (@defer) operation: the Accept header it is sent with. Its answer is
   * multipart; the load then times the first part as well as the whole (see defer-loop.ts).
   */
  readonly incrementalAccept?: string;
}

export const GET_USER_WITH_PRODUCTS_QUERY: BenchQuery = {
  name: 'GetUserWithProducts',
  text: GET_USER_WITH_PRODUCTS,
  perUser: true,
  expected: expectedUserWithProducts,
};

export const COMPLEX: BenchQuery = {
  name: 'ComplexQuery',
  text: COMPLEX_QUERY,
  perUser: true,
  expected: expectedComplex,
};

export const TYPENAME: BenchQuery = {
  name: '{ __typename }',
  text: TYPENAME_QUERY,
  perUser: false,
  expected: () => ({ __typename: 'Query' }),
};

/** §F: the same large operation from every client (no variables), its answer ≈ 94 KB (KB = 1,024 bytes, as the reports write it). */
export const DASHBOARD: BenchQuery = {
  name: 'Dashboard',
  text: DASHBOARD_QUERY,
  perUser: false,
  expected: expectedDashboard,
};

/** §F with @defer: Dashboard's reviews block deferred (see DASHBOARD_DEFERRED_QUERY). */
export const DASHBOARD_DEFERRED: BenchQuery = {
  name: 'Dashboard · @defer',
  text: DASHBOARD_DEFERRED_QUERY,
  perUser: false,
  expected: expectedDashboard,
  // What Apollo Client 4's HttpLink sends with Defer20220824Handler.
  incrementalAccept: 'multipart/mixed;deferSpec=20220824,application/graphql-response+json,application/json;q=0.9',
};

/** The size of a correct Dashboard answer (`{"data":…}`, compact JSON), for §F's description. */
export const DASHBOARD_ANSWER_BYTES = Buffer.byteLength(JSON.stringify({ data: expectedDashboard() }));

/** A random existing user id, `user-1`..`user-1000`. */
export function randomUserId(random: () => number = Math.random): string {
  return `user-${1 + Math.floor(random() * USER_COUNT)}`;
}

/** The JSON body of one request: a fresh random user for per-user queries. */
export function requestBody(query: BenchQuery, userId: string = randomUserId()): string {
  return query.perUser
    ? JSON.stringify({ query: query.text, variables: { userId } })
    : JSON.stringify({ query: query.text });
}

/**
 * The ids an answer check asks about: `count` random users plus the edges (first, last, and
 * ids that do not exist, which must answer `user: null`).
 */
export function sampleUserIds(count: number, random: () => number = Math.random): string[] {
  const ids = new Set<string>(['user-1', `user-${USER_COUNT}`, 'user-0', `user-${USER_COUNT + 1}`, 'no-such-user']);
  const target = Math.min(count, USER_COUNT - 2) + ids.size;
  while (ids.size < target) ids.add(randomUserId(random));
  return [...ids];
}
