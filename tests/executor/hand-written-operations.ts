import { getIntrospectionQuery } from 'graphql';
import type { GraphQLPayload } from './raw-answer.js';

/**
 * Operations the generator does not write: introspection, several operations in one document,
 * invalid variables, fields merged from fragments, __typename everywhere, a union and an
 * interface with restricted members. Each is sent with and without the full-rights token.
 */
export interface HandWrittenCase extends GraphQLPayload {
  readonly name: string;
  /** 200: executed; 400: refused before any plan ran (the operation or its variables). */
  readonly status: 200 | 400;
}

const SEVERAL_OPERATIONS = `
  query Products($n: Int = 2) { topProducts(first: $n) { name } }
  query Users { users(first: 2) { edges { node { name } } } }
  query Me { me { name address } }`;

const INVALID_INPUTS = `
  mutation M($rating: Int!) { addReview(productId: "product-1", rating: $rating, comment: "x") { id } }
  query Q($id: ID!) { user(id: $id) { id } }`;

export const HAND_WRITTEN_CASES: readonly HandWrittenCase[] = [
  { name: '__typename alone: no subgraph is asked', status: 200, query: '{ __typename }' },
  { name: '__typename on the mutation root', status: 200, query: 'mutation { __typename alias: __typename }' },
  {
    name: '__typename everywhere: root, aliased, named and inline fragments, nested entities',
    status: 200,
    query: `query Everywhere {
      __typename root: __typename
      topProducts(first: 3) {
        __typename kind: __typename ...ProductTypes ... on Product { __typename id }
        reviews { __typename author { __typename ... on User { t: __typename } } }
      }
    }
    fragment ProductTypes on Product { __typename reviews { __typename id } }`,
  },
  { name: 'introspection: the whole schema', status: 200, query: getIntrospectionQuery({ descriptions: true }) },
  {
    name: 'introspection beside fetched fields: __type, __schema and data in one operation',
    status: 200,
    query: `{
      __type(name: "Product") { name kind fields { name args { name defaultValue } type { kind name ofType { kind name } } } }
      __schema { queryType { name } mutationType { name } subscriptionType { name } }
      topProducts(first: 1) { name __typename }
      missing: __type(name: "Nope") { name }
    }`,
  },
  {
    name: 'variable defaults: all taken',
    status: 200,
    query: `query Defaults($n: Int = 3, $id: ID! = "user-7", $after: String = null) {
      topProducts(first: $n) { name } user(id: $id) { name } users(first: $n, after: $after) { totalCount pageInfo { endCursor hasNextPage } }
    }`,
  },
  {
    name: 'variable defaults: some overridden, one sent as null',
    status: 200,
    query: `query Defaults($n: Int = 3, $id: ID! = "user-7", $after: String = "user-3") {
      topProducts(first: $n) { name } user(id: $id) { name } users(first: 2, after: $after) { edges { cursor node { id } } }
    }`,
    variables: { n: 1, after: null },
  },
  {
    name: '@skip and @include on fields and fragments, by literals, variables and defaults (true)',
    status: 200,
    query: `query Conditions($yes: Boolean!, $no: Boolean = false) {
      topProducts(first: 2) {
        ...Named @include(if: $yes) ...Other @skip(if: $yes)
        ... on Product @include(if: $no) { price }
        ... @skip(if: $no) { upc }
        inStock @skip(if: $yes) @include(if: $yes)
        reviews @include(if: $yes) { rating author @skip(if: $no) { name } }
      }
      review(id: "review-5") @skip(if: true) { id }
    }
    fragment Named on Product { name reviews { id } }
    fragment Other on Product { inStock }`,
    variables: { yes: true },
  },
  {
    name: '@skip and @include on fields and fragments, by literals, variables and defaults (false)',
    status: 200,
    query: `query Conditions($yes: Boolean!, $no: Boolean = true) {
      topProducts(first: 2) {
        ...Named @include(if: $yes) ...Other @skip(if: $yes)
        ... on Product @include(if: $no) { price }
        ... @skip(if: $no) { upc }
        reviews @include(if: $yes) { rating }
      }
    }
    fragment Named on Product { name reviews { id } }
    fragment Other on Product { inStock }`,
    variables: { yes: false },
  },
  {
    name: 'a whole subgraph fetch behind a condition (a Condition node in the plan)',
    status: 200,
    query: `query ($reviews: Boolean!) { topProducts(first: 3) { name reviews @include(if: $reviews) { rating comment } } }`,
    variables: { reviews: false },
  },
  {
    name: 'the same field through several fragments with different sub-selections',
    status: 200,
    query: `{
      topProducts(first: 3) {
        ...Ratings ...Comments reviews { id }
        ... on Product { reviews { author { orders { quantity } } } }
      }
    }
    fragment Ratings on Product { reviews { rating author { name } } }
    fragment Comments on Product { reviews { comment author { email reviews { id } } } }`,
  },
  {
    name: 'aliases of one field with different arguments, in a different order than asked',
    status: 200,
    query: `{
      b: topProducts(first: 1) { name } a: topProducts(first: 2) { id }
      u2: user(id: "user-2") { name } u1: user(id: "user-1") { n: name name email }
    }`,
  },
  {
    // The lean shaper builds plain objects unless a response name is __proto__: inherited names
    // (toString, constructor) must read as absent, and __proto__ must stay a field of the answer.
    name: 'aliases that are Object.prototype names: toString, constructor, hasOwnProperty, __proto__',
    status: 200,
    query: `{
      toString: topProducts(first: 2) { constructor: name hasOwnProperty: id valueOf: reviews { toString: id } }
      constructor: user(id: "user-1") { __proto__: name toString: email }
    }`,
  },
  {
    name: 'the same names without __proto__ (the plain-object shaper)',
    status: 200,
    query: `{ toString: topProducts(first: 2) { constructor: name valueOf: reviews { hasOwnProperty: id } } }`,
  },
  { name: 'operationName picks one of several operations', status: 200, ...namedOperation('Users') },
  { name: 'operationName picks the one with a default variable', status: 200, ...namedOperation('Products') },
  { name: 'operationName picks the one that reads the caller', status: 200, ...namedOperation('Me') },
  { name: 'operationName that names no operation', status: 400, ...namedOperation('Nope') },
  { name: 'several operations and no operationName', status: 400, query: SEVERAL_OPERATIONS },
  {
    name: 'invalid variables: a string for an Int',
    status: 400,
    query: 'query ($n: Int) { topProducts(first: $n) { name } }',
    variables: { n: 'x' },
  },
  {
    name: 'invalid variables: a required one missing',
    status: 400,
    query: 'query ($id: ID!) { user(id: $id) { name } }',
  },
  {
    name: 'invalid variables: null for a non-null one',
    status: 400,
    query: INVALID_INPUTS,
    variables: { id: null },
    operationName: 'Q',
  },
  {
    // The supergraph has no input object type left to send an unknown field in.
    name: 'invalid variables: a fraction for an Int',
    status: 400,
    query: INVALID_INPUTS,
    variables: { rating: 3.5 },
    operationName: 'M',
  },
  {
    // One subgraph: errors from fetches that run in parallel are listed as the fetches end.
    name: 'an argument out of the subgraph range (its error, from the subgraph)',
    status: 200,
    query: '{ topProducts(first: 1000) { name } product(id: "product-1") { name } }',
  },
  {
    name: 'nullable fields answered null: unknown ids, me, an end cursor, a product without reviews',
    status: 200,
    query: `{
      product(id: "product-0") { name } user(id: "nope") { name } review(id: "review-0") { id }
      me { name address orderHistory { paymentReference } }
      users(first: 1, after: "${Buffer.from('user-1000').toString('base64')}") { pageInfo { endCursor hasNextPage } edges { node { id } } }
      last: product(id: "product-500") { name reviews { id } }
    }`,
  },
  {
    name: 'authorization-guarded fields at several depths',
    status: 200,
    query: `{
      user(id: "user-4") { name address orderHistory { id paymentReference product { name } } orders { paymentReference } }
      topProducts(first: 2) { reviews { author { address } } }
    }`,
  },
  {
    name: 'a union and an interface with restricted members, named fragments and entity fields in the members',
    status: 200,
    query: `{
      search(text: "rob torvalds") { __typename ...Note ... on User { name reviews { rating } } ... on Product { name } }
      kettles: search(text: "kettle") { ... on Product { name price } ... on InternalNote { body } }
      user(id: "user-2") { name timeline { __typename at ... on OrderPlaced { order { product { name } } } ... on SignIn { ip } } }
    }
    fragment Note on InternalNote { id body }`,
  },
  { name: 'a validation error: an unknown field', status: 400, query: '{ topProducts { name nope } }' },
  {
    name: 'two mutations in one operation, run in order: one accepted, one refused (Review! makes data null)',
    status: 200,
    query: `mutation Two($productId: ID!, $rating: Int!, $comment: String!) {
      first: addReview(productId: $productId, rating: $rating, comment: $comment) { __typename id rating product { name } author { name } }
      second: addReview(productId: "product-2", rating: 9, comment: "too high") { id }
    }`,
    variables: { productId: 'product-7', rating: 4, comment: '  trimmed  ' },
  },
  {
    name: 'a mutation answered, its review then read back through another subgraph',
    status: 200,
    query: `mutation ($c: String = "from a default") {
      addReview(productId: "product-9", rating: 2, comment: $c) {
        ...Written product { reviews { id comment } }
      }
    }
    fragment Written on Review { id comment author { name reviews { id } } }`,
  },
  {
    name: 'a deep chain through every subgraph',
    status: 200,
    query: `{ users(first: 3) { edges { node { name orders { quantity product { name price reviews { rating author { name reviews { product { upc } } } } } } } } } }`,
  },
];

function namedOperation(operationName: string): GraphQLPayload {
  return { query: SEVERAL_OPERATIONS, operationName };
}
