// Four small graphs, each in the shape of a federation-gateway-audit case that @apollo/query-planner
// 2.14 plans wrongly (ADR 061), in schemas and data of our own. Every expected answer is worked
// out by hand from the data below (the comments show the arithmetic).
import type { SmallSubgraph } from './small-supergraph.js';

export interface PlannerCase {
  readonly name: string;
  readonly subgraphs: readonly SmallSubgraph[];
  readonly operations: readonly { query: string; expected: { data: unknown } | { errors: true } }[];
}

const FED = (version: string, names: string[]) =>
  `extend schema @link(url: "https://specs.apollo.dev/federation/v${version}", import: [${names.map((n) => `"${n}"`).join(', ')}])`;

// A box, its place in the depot, and the label only the inventory knows.
const BOX = { code: 'b1', serial: 's-1', place: { aisle: 'A', bin: '7', level: '2' }, label: 'Box one' };

/** An entity with four keys, resolvable in the depot only by `code place { bin level }`, with a @requires there. */
const ONLY_COMPOSITE_KEY_RESOLVES: PlannerCase = {
  name: 'an entity whose only resolvable key in a subgraph is a composite one, with @requires there',
  subgraphs: [
    {
      name: 'inventory',
      typeDefs: `${FED('2.5', ['@key'])}
        type Box @key(fields: "code") @key(fields: "serial", resolvable: false)
          @key(fields: "place { aisle bin }", resolvable: false) @key(fields: "code place { bin level }", resolvable: false) {
          code: ID!
          serial: ID!
          place: Place!
          label: String!
        }
        type Place { aisle: ID! bin: ID! level: ID! }`,
      resolvers: { Box: { __resolveReference: ({ code }: { code: string }) => (code === BOX.code ? BOX : null) } },
    },
    {
      name: 'depot',
      typeDefs: `${FED('2.5', ['@key', '@requires', '@external'])}
        type Query { depot: Depot }
        type Depot @key(fields: "id") { id: ID! boxes: [Box!]! }
        type Box @key(fields: "place { aisle bin }", resolvable: false) @key(fields: "code place { bin level }")
          @key(fields: "serial", resolvable: false) @key(fields: "code", resolvable: false) {
          code: ID!
          serial: ID!
          place: Place!
          label: String! @external
          shelfTag: String! @requires(fields: "label")
        }
        type Place { aisle: ID! bin: ID! level: ID! }`,
      resolvers: {
        Query: { depot: () => ({ id: 'd1', boxes: [{ code: BOX.code, serial: BOX.serial, place: BOX.place }] }) },
        Box: {
          // Only `code place { bin level }` resolves here: a representation without a place is refused.
          __resolveReference: (ref: { code: string; place?: { bin: string; level: string }; label?: string }) =>
            ref.code === BOX.code && ref.place ? { ...BOX, label: ref.label } : null,
          shelfTag: (box: { label: string; place: { bin: string; level: string } }) =>
            `${box.label} @ ${box.place.bin}/${box.place.level}`,
        },
      },
    },
  ],
  operations: [
    {
      query: '{ depot { id boxes { code label shelfTag } } }',
      expected: { data: { depot: { id: 'd1', boxes: [{ code: 'b1', label: 'Box one', shelfTag: 'Box one @ 7/2' }] } } },
    },
  ],
};

// Topics and their replies, oldest first; each reply has a writer.
const REPLIES: Record<string, { id: string; writerId: string }[]> = {
  t1: [
    { id: 'r1', writerId: 'w2' },
    { id: 'r2', writerId: 'w1' },
    { id: 'r3', writerId: 'w1' },
    { id: 'r4', writerId: 'w3' },
  ],
  t2: [
    { id: 'r5', writerId: 'w3' },
    { id: 'r6', writerId: 'w3' },
    { id: 'r7', writerId: 'w2' },
  ],
};
const WRITER_OF = Object.fromEntries(Object.values(REPLIES).flatMap((list) => list.map((r) => [r.id, r.writerId])));

/** The writer most of the given replies have (the first such, on a tie). */
function mostFrequentWriter(replies: { writerId: string }[]): string | undefined {
  const counts = new Map<string, number>();
  for (const { writerId } of replies) counts.set(writerId, (counts.get(writerId) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** @requires of a field with an argument, which the client also selects with another argument. */
const REQUIRES_WITH_ARGUMENT: PlannerCase = {
  name: '@requires of a field with an argument the client selects with another argument',
  subgraphs: [
    {
      name: 'board',
      typeDefs: `${FED('2.3', ['@key'])}
        type Query { topics: [Topic] }
        type Topic @key(fields: "id") { id: ID! }
        type Reply @key(fields: "id") { id: ID! writerId: ID text: String! }`,
      resolvers: {
        Query: { topics: () => [{ id: 't1' }, { id: 't2' }] },
        Reply: {
          __resolveReference: ({ id }: { id: string }) => ({ id, writerId: WRITER_OF[id], text: `text of ${id}` }),
        },
      },
    },
    {
      name: 'replies',
      typeDefs: `${FED('2.3', ['@key', '@external', '@requires'])}
        type Topic @key(fields: "id") {
          id: ID!
          starter: Writer @requires(fields: "replies(first: 3) { writerId }")
          replies(first: Int!): [Reply]
        }
        type Reply @key(fields: "id") { id: ID! postedAt: String writerId: ID @external }
        type Writer { id: ID! }`,
      resolvers: {
        Topic: {
          __resolveReference: (ref: { id: string; replies?: { writerId: string }[] }) => ref,
          replies: ({ id }: { id: string }, { first }: { first: number }) =>
            (REPLIES[id] ?? []).slice(0, first).map((reply) => ({ id: reply.id })),
          // Sent the first 3 replies' writers: t1 → w2, w1, w1 → w1; t2 → w3, w3, w2 → w3.
          // Sent only the first reply's (the client's `first: 1`), t1 would be w2.
          starter: ({ replies }: { replies?: { writerId: string }[] }) => {
            const id = replies && mostFrequentWriter(replies);
            return id ? { id } : null;
          },
        },
      },
    },
  ],
  operations: [
    {
      query: '{ topics { starter { id } replies(first: 1) { id } } }',
      expected: {
        data: {
          topics: [
            { starter: { id: 'w1' }, replies: [{ id: 'r1' }] },
            { starter: { id: 'w3' }, replies: [{ id: 'r5' }] },
          ],
        },
      },
    },
    {
      query: 'query ($first: Int = 2) { topics { starter { id } replies(first: $first) { id } } }',
      expected: {
        data: {
          topics: [
            { starter: { id: 'w1' }, replies: [{ id: 'r1' }, { id: 'r2' }] },
            { starter: { id: 'w3' }, replies: [{ id: 'r5' }, { id: 'r6' }] },
          ],
        },
      },
    },
  ],
};

// Two items: a cost per unit (USD; EUR is twice the number here), a mass in kg.
const ITEMS = [
  { sku: 'i1', title: 'Kettle', usd: 20, mass: 3 },
  { sku: 'i2', title: 'Anvil', usd: 40, mass: 5 },
];
const costIn = (item: { usd: number }, unit: string) => (unit === 'USD' ? item.usd : item.usd * 2);

/** Two @requires of one field with two arguments (USD and EUR) in one subgraph. */
const REQUIRES_WITH_ARGUMENT_CONFLICT: PlannerCase = {
  name: 'two @requires of one field with two different arguments',
  subgraphs: [
    {
      name: 'pricing',
      typeDefs: `${FED('2.3', ['@key'])}
        type Query { items: [Item] }
        type Item @key(fields: "sku") { sku: String! title: String cost(unit: String!): Int mass: Int }`,
      resolvers: {
        Query: { items: () => ITEMS },
        Item: {
          __resolveReference: ({ sku }: { sku: string }) => ITEMS.find((item) => item.sku === sku),
          cost: (item: { usd: number }, { unit }: { unit: string }) => costIn(item, unit),
        },
      },
    },
    {
      name: 'freight',
      typeDefs: `${FED('2.3', ['@key', '@external', '@requires'])}
        type Item @key(fields: "sku") {
          sku: String!
          mass: Int @external
          cost(unit: String!): Int @external
          freightUsd: Int @requires(fields: "cost(unit: \\"USD\\") mass")
          freightEur: Int @requires(fields: "cost(unit: \\"EUR\\") mass")
        }`,
      resolvers: {
        Item: {
          __resolveReference: (ref: object) => ref,
          freightUsd: ({ cost, mass }: { cost: number; mass: number }) => cost * mass,
          freightEur: ({ cost, mass }: { cost: number; mass: number }) => cost * mass,
        },
      },
    },
  ],
  operations: [
    {
      query: '{ items { sku title freightUsd freightEur } }',
      // i1: 20 × 3 = 60, (20 × 2) × 3 = 120; i2: 40 × 5 = 200, (40 × 2) × 5 = 400.
      expected: {
        data: {
          items: [
            { sku: 'i1', title: 'Kettle', freightUsd: 60, freightEur: 120 },
            { sku: 'i2', title: 'Anvil', freightUsd: 200, freightEur: 400 },
          ],
        },
      },
    },
  ],
};

/** An interface's field that only a subgraph with a non-resolvable @interfaceObject of it has: no plan exists. */
const NON_RESOLVABLE_INTERFACE_OBJECT: PlannerCase = {
  name: "a field only a non-resolvable @interfaceObject has, asked from another subgraph's interface",
  subgraphs: [
    {
      name: 'north',
      typeDefs: `${FED('2.3', ['@key', '@interfaceObject'])}
        interface Asset @key(fields: "id") { id: ID! }
        type Tool @key(fields: "id", resolvable: false) @interfaceObject { id: ID! }
        type Query { asset: Asset tool: Tool! }`,
      resolvers: {
        Query: { asset: () => ({ __typename: 'Asset', id: 'a1' }), tool: () => ({ __typename: 'Tool', id: 'd1' }) },
        Asset: { __resolveReference: () => ({ __typename: 'Asset', id: 'a1' }) },
      },
    },
    {
      name: 'south',
      typeDefs: `${FED('2.3', ['@key', '@interfaceObject'])}
        type Asset @key(fields: "id", resolvable: false) @interfaceObject { id: ID! tag: String }
        interface Tool @key(fields: "id") { id: ID! }
        type Drill implements Tool @key(fields: "id") { id: ID! model: String! }
        type Query { other: Asset }`,
      resolvers: {
        Query: { other: () => ({ id: 'a1', tag: 'tagged' }) },
        Asset: { tag: () => 'tagged' },
        Drill: { __resolveReference: ({ id }: { id: string }) => ({ id, model: 'D-100' }) },
      },
    },
  ],
  operations: [
    { query: '{ other { id tag } }', expected: { data: { other: { id: 'a1', tag: 'tagged' } } } },
    // `tag` is south's alone, and south cannot resolve an Asset by key: there is no plan.
    { query: '{ asset { tag } }', expected: { errors: true } },
  ],
};

export const PLANNER_CASES: readonly PlannerCase[] = [
  ONLY_COMPOSITE_KEY_RESOLVES,
  REQUIRES_WITH_ARGUMENT,
  REQUIRES_WITH_ARGUMENT_CONFLICT,
  NON_RESOLVABLE_INTERFACE_OBJECT,
];
