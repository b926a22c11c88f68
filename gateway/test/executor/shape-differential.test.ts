import {
  buildSchema,
  type NamedType,
  type Operation,
  operationFromDocument,
  type SelectionSet,
  type Type,
} from '@apollo/federation-internals';
import { computeResponse } from '@apollo/gateway/dist/resultShaping.js';
import { seededRandom } from '@fedgw/test-support';
import { parse } from 'graphql';
import { describe, expect, it } from 'vitest';
import { compileShaper } from '../../src/executor/shape.js';

/**
 * The compiled shaper against @apollo/gateway's own `computeResponse`, on the same operation
 * and the same merged subgraph data: random data for each operation, most of it valid, some of
 * it what a broken subgraph sends (null in a non-null field, a string for an Int, an unknown or
 * non-string `__typename`, a scalar where an object or a list belongs). Both must give the same
 * data, the same errors (message, path, extensions) and, when one throws, the same message.
 * SHAPE_SEED / SHAPE_RUNS pick another run; a failure names its seed, operation and input.
 */
const SEED = Number(process.env.SHAPE_SEED ?? 20_261_125);
const RUNS = Number(process.env.SHAPE_RUNS ?? 400);

const SDL = `
  type Query {
    node(id: ID!): Node
    search(text: String): [SearchResult!]!
    me: User
    users: [User!]
    count: Int!
    ratio: Float
  }
  interface Node { id: ID! }
  type User implements Node {
    id: ID!
    name: String!
    age: Int
    score: Float
    admin: Boolean!
    role: Role!
    friends: [User!]!
    best: User
    tags: [String]
    meta: JSON
    posts: [Post]
  }
  type Post implements Node { id: ID! title: String! author: User! likes: Int! }
  union SearchResult = User | Post
  enum Role { ADMIN MEMBER }
  scalar JSON
`;

const OPERATIONS: readonly { query: string; variables: Record<string, unknown>[] }[] = [
  { query: '{ me { id name age __typename } count }', variables: [{}] },
  {
    query:
      'query Q($skip: Boolean!, $inc: Boolean = true) { me { id name @skip(if: $skip) role ...F @include(if: $inc) } } fragment F on User { admin tags best { id name } }',
    variables: [{ skip: true }, { skip: false }, { skip: false, inc: false }],
  },
  {
    query:
      '{ search(text: "a") { __typename ... on User { id name friends { id admin } } ... on Post { id title author { name role } } } }',
    variables: [{}],
  },
  {
    query:
      '{ node(id: "1") { id t: __typename ... on User { name posts { title likes } } ... on Post { title } } ratio }',
    variables: [{}],
  },
  {
    query:
      '{ users { id ... on User { best { id name } } best { id admin friends { name } } kind: __typename } me { meta score } }',
    variables: [{}],
  },
  {
    query: 'query V($s: Boolean) { me { id name @skip(if: $s) friends @include(if: true) { id } } }',
    // `$s` missing: the same assertion from both.
    variables: [{ s: true }, { s: false }, {}],
  },
  {
    query:
      '{ a: me { id ...U } b: me { name } } fragment U on Node { id ... on User { role friends { ...V } } } fragment V on User { id name best { name } }',
    variables: [{}],
  },
];

const schema = buildSchema(SDL);

describe('compiled result shaping gives what computeResponse gives', () => {
  it(`on ${RUNS} random inputs over ${OPERATIONS.length} operations (seed ${SEED})`, () => {
    const random = seededRandom(SEED);
    for (let run = 0; run < RUNS; run++) {
      const { query, variables: variableSets } = OPERATIONS[run % OPERATIONS.length] as (typeof OPERATIONS)[number];
      const variables = variableSets[Math.floor(random() * variableSets.length)] as Record<string, unknown>;
      const operation = operationFromDocument(schema, parse(query), { validate: false });
      const input = new InputGenerator(random, schema).forOperation(operation);
      const expected = outcome(() =>
        computeResponse({
          operation,
          variables,
          input: structuredClone(input),
          introspectionHandling: () => {
            throw new Error('no introspection in these operations');
          },
        }),
      );
      const shaper = compileShaper(operation);
      const actual = outcome(() => shaper?.shape(structuredClone(input), variables));
      expect(actual, `seed ${SEED}, run ${run}: ${query} on ${JSON.stringify(input)}`).toEqual(expected);
    }
  });

  it('the random inputs reach every kind of answer: clean, with value errors, nulled by propagation, and thrown', () => {
    const random = seededRandom(SEED);
    const kinds = new Set<string>();
    for (let run = 0; run < RUNS; run++) {
      const { query, variables } = OPERATIONS[run % OPERATIONS.length] as (typeof OPERATIONS)[number];
      const operation = operationFromDocument(schema, parse(query), { validate: false });
      const input = new InputGenerator(random, schema).forOperation(operation);
      const result = outcome(() => compileShaper(operation)?.shape(input, variables[0]));
      if ('thrown' in result) kinds.add('thrown');
      else if (result.data === null) kinds.add('null data');
      else kinds.add(result.errors.length > 0 ? 'errors' : 'clean');
    }
    expect([...kinds].sort()).toEqual(['clean', 'errors', 'null data', 'thrown']);
  });
});

type Outcome = { data: unknown; errors: unknown[] } | { thrown: string };

function outcome(shape: () => { data: unknown; errors: readonly { message: string }[] } | undefined): Outcome {
  try {
    const result = shape();
    if (!result) throw new Error('no shaper');
    return {
      data: JSON.parse(JSON.stringify(result.data)),
      errors: result.errors.map((error) => JSON.parse(JSON.stringify(error))),
    };
  } catch (error) {
    return { thrown: (error as Error).message };
  }
}

/** Random merged data for an operation: valid most of the time, broken now and then. */
class InputGenerator {
  constructor(
    private readonly random: () => number,
    private readonly schema: ReturnType<typeof buildSchema>,
  ) {}

  forOperation(operation: Operation): Record<string, unknown> {
    return this.object(operation.selectionSet, undefined) as Record<string, unknown>;
  }

  private chance(p: number): boolean {
    return this.random() < p;
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  private object(selectionSet: SelectionSet, type: NamedType | undefined): unknown {
    const out: Record<string, unknown> = {};
    if (type) {
      const runtime = this.possibleTypes(type);
      if (this.chance(0.05)) out.__typename = this.pick(['Nope', 42, '', 'Role', 'JSON']);
      else if (!this.chance(0.1)) out.__typename = this.pick(runtime);
    }
    this.fill(out, selectionSet);
    return out;
  }

  private fill(out: Record<string, unknown>, selectionSet: SelectionSet): void {
    for (const selection of selectionSet.selections()) {
      if (selection.kind !== 'FieldSelection') {
        this.fill(out, selection.selectionSet);
        continue;
      }
      const field = selection.element;
      const key = field.responseName();
      if (field.name === '__typename') {
        if (key !== '__typename' && this.chance(0.5)) out[key] = this.pick(['User', 'Post', 'Nope']);
        continue;
      }
      if (this.chance(0.03)) continue; // missing: read as null
      out[key] = this.value(field.definition.type as Type, selection.selectionSet);
    }
  }

  private value(type: Type, selectionSet: SelectionSet | undefined): unknown {
    if (this.chance(0.02)) return null;
    switch (type.kind) {
      case 'NonNullType':
        return this.value(type.ofType, selectionSet);
      case 'ListType': {
        if (this.chance(0.02)) return this.pick(['not a list', 7, {}]);
        return Array.from({ length: Math.floor(this.random() * 4) }, () => this.value(type.ofType, selectionSet));
      }
      case 'ObjectType':
      case 'InterfaceType':
      case 'UnionType':
        if (this.chance(0.02)) return this.pick(['a string', 5]);
        return selectionSet ? this.object(selectionSet, type) : {};
      default:
        return this.leaf(type.name);
    }
  }

  private leaf(name: string): unknown {
    if (this.chance(0.04)) return this.pick(['x', 1.5, 3, true, {}, [1], Number.NaN]);
    switch (name) {
      case 'Int':
        return Math.floor(this.random() * 100) - 50;
      case 'Float':
        return this.random() * 10;
      case 'Boolean':
        return this.chance(0.5);
      case 'ID':
        return this.chance(0.5) ? `id-${Math.floor(this.random() * 9)}` : 12;
      case 'Role':
        return this.pick(['ADMIN', 'MEMBER', 'GUEST']);
      case 'JSON':
        return { any: [1, 'two'] };
      default:
        return `s${Math.floor(this.random() * 1000)}`;
    }
  }

  private possibleTypes(type: NamedType): string[] {
    if (type.kind === 'ObjectType') return [type.name];
    const named = this.schema.type(type.name);
    if (named?.kind === 'UnionType') return named.types().map((member) => member.name);
    if (named?.kind === 'InterfaceType') return named.possibleRuntimeTypes().map((member) => member.name);
    return [type.name];
  }
}
