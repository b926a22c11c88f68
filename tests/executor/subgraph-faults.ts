import { setTimeout } from 'node:timers/promises';
import type { ChaosMode } from '@fedgw/test-support';
import type { Rewrite, SubgraphAnswer, SubgraphRequest } from './rewriting-subgraph.js';

/**
 * One way a subgraph answers wrongly, and an operation that meets it. The products and users
 * subgraphs are rewriting proxies (their JSON answers changed), reviews is a chaos subgraph
 * (its HTTP answer replaced).
 */
export interface FaultCase {
  readonly name: string;
  readonly query: string;
  /** Sent with the full-rights token (a mutation needs a signed-in caller). */
  readonly signedIn?: boolean;
  readonly products?: Rewrite;
  readonly users?: Rewrite;
  readonly reviews?: ChaosMode;
  /** How the fault shows in the answer (where it shows: more entities than asked for do not). */
  readonly shows?: RegExp;
}

type Entity = Record<string, unknown>;

/** Changes the `_entities` answers only (root fields pass), through `change(entities)`. */
const entities =
  (change: (list: (Entity | null)[], answer: SubgraphAnswer) => unknown): Rewrite =>
  (request: SubgraphRequest, answer: SubgraphAnswer) => {
    const list = answer.data?._entities;
    if (!request.variables?.representations || !Array.isArray(list)) return undefined;
    const changed = change(list as (Entity | null)[], answer);
    return changed === undefined ? answer : changed;
  };

/** Changes one root field's answer. */
const rootField =
  (field: string, change: (value: unknown, answer: SubgraphAnswer) => void): Rewrite =>
  (request: SubgraphRequest, answer: SubgraphAnswer) => {
    if (request.variables?.representations || !answer.data || !(field in answer.data)) return undefined;
    change(answer.data[field], answer);
    return answer;
  };

const at = (list: (Entity | null)[], index: number): Entity => {
  const entity = list[index];
  if (!entity) throw new Error(`the subgraph answered no entity at ${index}`);
  return entity;
};

const PRODUCTS_WITH_REVIEWERS = '{ topProducts(first: 3) { name reviews { rating author { name email } } } }';

export const FAULT_CASES: readonly FaultCase[] = [
  {
    name: 'an error whose path is inside _entities, its field null',
    query: PRODUCTS_WITH_REVIEWERS,
    users: entities((list, answer) => {
      at(list, 1).email = null;
      answer.errors = [
        { message: 'email store unavailable', path: ['_entities', 1, 'email'], extensions: { code: 'EMAIL_DOWN' } },
      ];
    }),
    shows: /email store unavailable.*"path":\["topProducts",\d+,"reviews",\d+,"author","email"\]/,
  },
  {
    name: 'errors with paths inside _entities (one deep in a list), the data left whole',
    query: '{ topProducts(first: 2) { reviews { author { name orders { quantity } } } } }',
    users: entities((_list, answer) => {
      answer.errors = [
        { message: 'slow orders', path: ['_entities', 0, 'orders', 0, 'quantity'] },
        { message: 'whole entity', path: ['_entities', 2] },
        { message: 'no path at all', extensions: { code: 'NOPE' } },
        { message: 'a path past the list', path: ['_entities', 999, 'name'] },
      ];
    }),
    shows: /slow orders.*whole entity.*no path at all/,
  },
  {
    name: 'null for a non-null root list item field (propagates to data: null)',
    query: '{ topProducts(first: 3) { id name price } }',
    products: rootField('topProducts', (value) => {
      (value as Entity[])[1] = { ...(value as Entity[])[1], name: null };
    }),
    shows: /Cannot return null for non-nullable field Product\.name/,
  },
  {
    name: 'null for a non-null entity field (propagates to the nearest nullable list)',
    query: PRODUCTS_WITH_REVIEWERS,
    users: entities((list) => {
      at(list, 0).name = null;
    }),
    shows: /Cannot return null for non-nullable field User\.name/,
  },
  {
    name: 'a null entity for a non-null field',
    query: '{ user(id: "user-3") { name orders { quantity product { name price } } } }',
    products: entities((list) => {
      list[0] = null;
    }),
    shows: /Cannot return null for non-nullable field Product\.name/,
  },
  {
    name: 'a wrong __typename at the root (another type, and no type at all)',
    query: '{ topProducts(first: 3) { __typename id name t: __typename ... on Product { upc } reviews { id } } }',
    products: rootField('topProducts', (value) => {
      const items = value as Entity[];
      items[0] = { ...items[0], __typename: 'Review' };
      items[2] = { ...items[2], __typename: 'Nope' };
    }),
    shows: /Invalid __typename found for object at array element of type Product at index 2/,
  },
  {
    name: 'a wrong __typename in _entities',
    query: '{ topProducts(first: 2) { reviews { author { __typename id name } } } }',
    users: entities((list) => {
      at(list, 0).__typename = 'Product';
    }),
    // Passed on as the subgraph said: the shaping keys on the selection, not on __typename.
    shows: /"author":\{"__typename":"Product"/,
  },
  {
    name: 'a string where an Int is expected (root field, and inside _entities)',
    query:
      '{ user(id: "user-3") { orders { id quantity } } topProducts(first: 2) { reviews { author { orders { quantity } } } } }',
    users: (request, answer) => {
      const orders = request.variables?.representations
        ? ((answer.data?._entities as Entity[] | undefined)?.[0]?.orders as Entity[] | undefined)
        : ((answer.data?.user as Entity | undefined)?.orders as Entity[] | undefined);
      if (!orders?.[0]) return undefined;
      orders[0].quantity = 'three';
      return answer;
    },
    shows: /Invalid value found for field Order\.quantity.*Invalid value found for field Order\.quantity/,
  },
  {
    name: 'other invalid leaves: a string for a Float, a number for a Boolean, an object for a String',
    query: '{ topProducts(first: 3) { name price inStock } }',
    products: rootField('topProducts', (value) => {
      const items = value as Entity[];
      items[0] = { ...items[0], price: 'cheap' };
      items[1] = { ...items[1], inStock: 1 };
      items[2] = { ...items[2], name: { first: 'x' } };
    }),
    shows: /Product\.price.*Product\.inStock.*Product\.name/,
  },
  {
    name: 'an answer without the _entities array',
    query: PRODUCTS_WITH_REVIEWERS,
    users: entities(() => ({ data: {} })),
    shows: /Expected \\"data\._entities\\" in response to be an array/,
  },
  {
    name: 'an answer with _entities null and an error',
    query: PRODUCTS_WITH_REVIEWERS,
    users: entities(() => ({ data: { _entities: null }, errors: [{ message: 'users crashed' }] })),
    shows: /users crashed/,
  },
  {
    name: 'fewer entities than representations',
    query: PRODUCTS_WITH_REVIEWERS,
    users: entities((list) => {
      list.splice(1, 1);
    }),
    shows: /Expected \\"data\._entities\\" to contain \d+ elements/,
  },
  {
    name: 'more entities than representations',
    query: PRODUCTS_WITH_REVIEWERS,
    users: entities((list) => {
      list.push({ __typename: 'User', id: 'user-999', name: 'Extra', email: 'extra@example.com' });
    }),
  },
  {
    name: 'two parallel fetches fail, the users one ending last',
    query: '{ topProducts(first: 1) { name } user(id: "user-2") { name } }',
    products: rootField('topProducts', (_value, answer) => {
      answer.errors = [{ message: 'products failed first' }];
    }),
    users: async (_request, answer) => {
      await setTimeout(100); // latency: the users fetch ends after the products one, which the errors' order shows
      return { ...answer, errors: [{ message: 'users failed last' }] };
    },
    shows: /products failed first.*users failed last/,
  },
  {
    name: 'two parallel fetches fail, the products one ending last',
    query: '{ topProducts(first: 1) { name } user(id: "user-2") { name } }',
    products: async (_request, answer) => {
      await setTimeout(100); // latency: the products fetch ends after the users one, which the errors' order shows
      return { ...answer, errors: [{ message: 'products failed last' }] };
    },
    users: (_request, answer) => ({ ...answer, errors: [{ message: 'users failed first' }] }),
    shows: /users failed first.*products failed last/,
  },
  {
    name: 'HTTP 500 from the subgraph of an entity fetch',
    query: '{ topProducts(first: 2) { name reviews { rating author { name } } } }',
    reviews: 'status-500',
    shows: /SUBREQUEST_HTTP_ERROR/,
  },
  {
    name: 'HTTP 500 from the subgraph of a root field, beside a healthy one',
    query: '{ review(id: "review-1") { rating } topProducts(first: 1) { name } }',
    reviews: 'status-500',
    shows: /SUBREQUEST_HTTP_ERROR/,
  },
  {
    name: 'HTTP 500 on a mutation',
    query: 'mutation { addReview(productId: "product-1", rating: 5, comment: "x") { id author { name } } }',
    signedIn: true,
    reviews: 'status-500',
    shows: /SUBREQUEST_HTTP_ERROR/,
  },
  {
    name: 'an entity fetch slower than its timeout',
    query: '{ topProducts(first: 2) { name reviews { rating } } }',
    reviews: 'slow',
    shows: /did not answer within 1000 ms.*"path":\["topProducts",1,"reviews"\]/,
  },
  {
    name: 'a root fetch slower than its timeout, beside a healthy one',
    query: '{ review(id: "review-2") { comment } topProducts(first: 2) { name } }',
    reviews: 'slow',
    shows: /GATEWAY_TIMEOUT/,
  },
  {
    name: 'an empty JSON object for an answer',
    query: '{ topProducts(first: 2) { name reviews { rating } } }',
    reviews: 'empty-object',
    shows: /SUBREQUEST_MALFORMED_RESPONSE/,
  },
];
