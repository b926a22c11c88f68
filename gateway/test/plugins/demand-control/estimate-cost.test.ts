import { readFileSync } from 'node:fs';
import { SUPERGRAPH_PATH } from '@fedgw/test-support';
import { buildSchema, type FragmentDefinitionNode, Kind, type OperationDefinitionNode, parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { readCostDirectives } from '../../../src/plugins/demand-control/cost-directives.js';
import { estimateCost } from '../../../src/plugins/demand-control/estimate-cost.js';

const SDL = `
  schema @link(url: "https://specs.apollo.dev/cost/v0.1", import: ["@listSize", { name: "@cost", as: "@weight" }]) {
    query: Query
    mutation: Mutation
  }
  directive @link(url: String, as: String, import: [link__Import]) repeatable on SCHEMA
  directive @listSize(assumedSize: Int, slicingArguments: [String!], sizedFields: [String!]) on FIELD_DEFINITION
  directive @weight(weight: Int!) on FIELD_DEFINITION | OBJECT
  scalar link__Import

  type Query {
    user(id: ID!): User
    users(first: Int = 10): UserConnection! @listSize(slicingArguments: ["first"], sizedFields: ["edges"])
    top(first: Int = 5, last: Int): [Product!]! @listSize(slicingArguments: ["first", "last"])
    tags: [String!]!
    search: [Result!]!
    expensive: Int @weight(weight: 40)
  }
  type Mutation { addReview(productId: ID!, rating: Int!, comment: String!): Review! }
  type User { id: ID! name: String! orders: [Order!]! @listSize(assumedSize: 5) }
  type Order { id: ID! product: Product! }
  type Product { id: ID! reviews: [Review!] @listSize(assumedSize: 25) }
  type Review @weight(weight: 3) { id: ID! author: User! }
  type UserConnection { edges: [UserEdge!]! }
  type UserEdge { node: User! }
  union Result = User | Product
`;
const schema = buildSchema(SDL, { assumeValidSDL: true });
const directives = readCostDirectives(SDL);

function cost(query: string, variables: Record<string, unknown> = {}, defaultListSize = 10): number {
  const document = parse(query);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION) as OperationDefinitionNode;
  return estimateCost(operation, fragments, { schema, directives, variables, defaultListSize });
}

describe('readCostDirectives', () => {
  it('reads @listSize and @cost under the names the @link imports them as', () => {
    expect(directives.fields.get('User.orders')).toEqual({ assumedSize: 5 });
    expect(directives.fields.get('Query.users')).toEqual({ slicingArguments: ['first'], sizedFields: ['edges'] });
    expect(directives.fields.get('Query.expensive')).toEqual({ weight: 40 });
    expect(directives.types.get('Review')).toBe(3);
  });

  it("reads this project's composed supergraph (Federation 2.9 @listSize)", () => {
    const supergraph = readFileSync(SUPERGRAPH_PATH, 'utf8');
    const { fields } = readCostDirectives(supergraph);
    expect(fields.get('User.orders')).toEqual({ assumedSize: 5 });
    expect(fields.get('Product.reviews')).toEqual({ assumedSize: 25 });
    expect(fields.get('User.reviews')).toEqual({ assumedSize: 15 });
    expect(fields.get('Query.topProducts')).toEqual({ slicingArguments: ['first'] });
  });
});

describe('estimateCost', () => {
  it('objects cost 1, scalars and __typename 0', () => {
    expect(cost('{ __typename }')).toBe(0);
    expect(cost('{ user(id: 1) { id name } }')).toBe(1);
  });

  it('multiplies a list by its declared size, nested lists multiply', () => {
    // user 1 + 5 orders × (order 1 + product 1 + 25 reviews × (review 3 + author 1))
    expect(cost('{ user(id: 1) { orders { product { reviews { author { name } } } } } }')).toBe(1 + 5 * (2 + 25 * 4));
  });

  it('uses a slicing argument (literal, variable, or its default), the largest when several', () => {
    expect(cost('{ top(first: 3) { id } }')).toBe(3);
    expect(cost('query Q($n: Int) { top(first: $n) { id } }', { n: 7 })).toBe(7);
    expect(cost('{ top { id } }')).toBe(5);
    expect(cost('{ top(first: 2, last: 9) { id } }')).toBe(9);
  });

  it("counts a variable's default when the client sends no value, and the value when it does", () => {
    expect(cost('query Q($n: Int = 100) { top(first: $n) { id } }')).toBe(100);
    expect(cost('query Q($n: Int = 100) { top(first: $n) { id } }', { n: 3 })).toBe(3);
    // No value and no default: the argument's own default in the schema applies.
    expect(cost('query Q($n: Int) { top(first: $n) { id } }')).toBe(5);
    expect(cost('query Q($n: Int = 60) { users(first: $n) { edges { node { id } } } }')).toBe(1 + 60 * 2);
  });

  it('counts a null slicing argument as the larger of its schema default and the assumed size', () => {
    expect(cost('{ top(first: null) { id } }', {}, 4)).toBe(5);
    expect(cost('query Q($n: Int) { top(first: $n) { id } }', { n: null }, 10)).toBe(10);
  });

  it('reads sizes through fragments, inline fragments and aliases', () => {
    const fragment = 'query Q($n: Int = 40) { ...T } fragment T on Query { top(first: $n) { id } }';
    expect(cost(fragment)).toBe(40);
    expect(cost('query Q($n: Int = 40) { ... on Query { top(first: $n) { id } } }')).toBe(40);
    expect(cost('query Q($n: Int = 40) { a: top(first: $n) { id } b: top(first: $n) { id } }')).toBe(80);
  });

  it('leaves out what @skip/@include exclude, as the variables (or their defaults) decide', () => {
    const query =
      'query Q($big: Boolean = true, $n: Int = 50) { top(first: $n) @include(if: $big) { id } small: top(first: 1) @skip(if: $big) { id } }';
    expect(cost(query)).toBe(50);
    expect(cost(query, { big: false })).toBe(1);
    expect(cost('query Q($s: Boolean!) { ... @skip(if: $s) { top(first: 9) { id } } }', { s: true })).toBe(0);
    expect(cost('{ top(first: 9) @include(if: false) { id } }')).toBe(0);
  });

  it('sizes a connection through its sized fields', () => {
    // connection 1 + 20 × (edge 1 + node 1)
    expect(cost('{ users(first: 20) { edges { node { id } } } }')).toBe(1 + 20 * 2);
  });

  it('uses the default list size for lists that declare none, and the declared weights', () => {
    expect(cost('{ search { ... on User { id } } }', {}, 4)).toBe(4);
    expect(cost('{ tags }')).toBe(0);
    expect(cost('{ expensive }')).toBe(40);
  });

  it('counts fragments, named and inline, and a mutation starts at 10', () => {
    expect(cost('{ user(id: 1) { ...F ...F } } fragment F on User { orders { id } }')).toBe(1 + 5 + 5);
    expect(cost('{ user(id: 1) { ... on User { orders { id } } } }')).toBe(1 + 5);
    expect(cost('mutation { addReview(productId: "product-1", rating: 5, comment: "x") { id } }')).toBe(10 + 3);
  });

  it('stays a finite number however deep the lists nest', () => {
    const deep = `{ user(id: 1) { ${'orders { product { reviews { author { '.repeat(40)}id${' } } } }'.repeat(40)} } }`;
    expect(Number.isFinite(cost(deep))).toBe(true);
    expect(cost(deep)).toBeGreaterThan(1e80);
  });
});

describe("estimateCost on this project's supergraph (the figures the README quotes)", () => {
  const sdl = readFileSync(SUPERGRAPH_PATH, 'utf8');
  const supergraph = { schema: buildSchema(sdl, { assumeValidSDL: true }), directives: readCostDirectives(sdl) };
  const estimate = (query: string) => {
    const document = parse(query);
    const operation = document.definitions[0] as OperationDefinitionNode;
    return estimateCost(operation, new Map(), { ...supergraph, variables: { userId: 'user-5' }, defaultListSize: 10 });
  };
  const nested = (levels: number) =>
    `{ user(id: "user-1") { ${'orders { product { reviews { author { '.repeat(levels)}name${' } } } }'.repeat(levels)} } }`;

  it.each([
    [
      'GetUserWithProducts',
      'query Q($userId: ID!) { user(id: $userId) { id name email orders { id product { id name price } } } }',
      11,
    ],
    [
      'ComplexQuery',
      'query Q($userId: ID!) { user(id: $userId) { id name orders { id product { id name reviews { rating comment author { name } } } } } }',
      261,
    ],
    [
      "top 50 products, their reviews, authors, and those authors' reviews",
      '{ topProducts(first: 50) { id name reviews { rating author { name reviews { comment } } } } }',
      21_300,
    ],
    ['nested lists, 2 levels (depth 10)', nested(2), 32_761],
    ['nested lists, 3 levels (depth 14)', nested(3), 4_095_261],
  ])('%s costs %d', (_name, query, expected) => {
    expect(estimate(query)).toBe(expected);
  });
});
