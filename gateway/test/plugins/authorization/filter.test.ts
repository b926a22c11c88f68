// The filtering itself, on a schema with what the demo supergraph lacks (an interface, a union,
// a directive on a type, nested lists): each operation is filtered for the given rights, run by
// graphql-js against resolvers that record every field they are asked for (as a subgraph
// would), and the answer patched. The end-to-end suite (tests/contract/authorization-contract)
// runs the real supergraph over HTTP on every mount.
import { buildSchema, execute, type GraphQLError, Kind, parse, print, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  answerPatch,
  deniedSelections,
  guardsOf,
  hasAmbiguousKey,
  withoutDenied,
} from '../../../src/plugins/authorization/operation.js';
import { patchAnswer } from '../../../src/plugins/authorization/response.js';
import type { Rights } from '../../../src/plugins/authorization/rights.js';
import { readAuthorizationRules } from '../../../src/plugins/authorization/rules.js';

const SDL = `
extend schema
  @link(url: "https://specs.apollo.dev/link/v1.0")
  @link(url: "https://specs.apollo.dev/authenticated/v0.1", import: ["@authenticated"])
  @link(url: "https://specs.apollo.dev/requiresScopes/v0.1", import: ["@requiresScopes"])
  @link(url: "https://specs.apollo.dev/policy/v0.1", import: ["@policy"])

type Query {
  me: User
  user(id: ID!): User
  users: [User!]!
  node(id: ID!): Node
  search: [SearchResult!]!
  secret: String @authenticated
  document: Document
  documents: [Document!]!
  memos: [Memo!]!
  team: [User!]!
  nobody: User
  inbox: [InboxItem!]!
}
union InboxItem = Memo | Ticket
type Ticket @policy(policies: [["support"]]) { id: ID! }
interface Document { id: ID! title: String }
type Invoice implements Document @requiresScopes(scopes: [["billing"]]) { id: ID! title: String amount: Int! }
type Note implements Document { id: ID! title: String text: String! }
type Memo @authenticated { id: ID! body: String! }
interface Node { id: ID! }
type User implements Node {
  id: ID!
  name: String!
  email: String! @authenticated
  nickname: String @authenticated
  orders: [Order!]! @requiresScopes(scopes: [["orders:read"], ["admin", "audit"]])
  account: Account
}
type Order { id: ID! total: Int! @policy(policies: [["support"]]) }
type Account @authenticated { id: ID! plan: String! }
type Product implements Node { id: ID! name: String! }
union SearchResult = User | Product | Memo
`;

const schema = buildSchema(SDL, { assumeValidSDL: true });
const rules = readAuthorizationRules(SDL);

const user = (id: string) => ({
  __typename: 'User',
  id,
  name: `name-${id}`,
  email: `${id}@example.com`,
  nickname: `nick-${id}`,
  orders: [
    { id: `${id}-o1`, total: 10 },
    { id: `${id}-o2`, total: 20 },
  ],
  account: { id: `acct-${id}`, plan: 'pro' },
});
const product = { __typename: 'Product', id: 'p1', name: 'Lamp' };
const memo = { __typename: 'Memo', id: 'm1', body: 'hush' };
const ROOT = {
  me: user('u1'),
  user: ({ id }: { id: string }) => user(id),
  users: [user('u1'), user('u2')],
  node: ({ id }: { id: string }) => (id.startsWith('p') ? product : user(id)),
  search: [user('u3'), product, memo],
  secret: 'hush',
  document: { __typename: 'Note', id: 'n1', title: 'N', text: 'note' },
  documents: [
    { __typename: 'Note', id: 'n1', title: 'N', text: 'note' },
    { __typename: 'Invoice', id: 'i1', title: 'I', amount: 5 },
  ],
  memos: [] as unknown[],
  team: [] as unknown[],
  nobody: null,
  inbox: [memo, { __typename: 'Ticket', id: 't1' }],
};

const ANONYMOUS: Rights = { authenticated: false, scopes: new Set(), policies: new Set() };
const SIGNED_IN: Rights = { authenticated: true, scopes: new Set(), policies: new Set() };
const WITH_SCOPE: Rights = { authenticated: true, scopes: new Set(['orders:read']), policies: new Set() };
const SUPPORT: Rights = { authenticated: true, scopes: new Set(['orders:read']), policies: new Set(['support']) };

/** Filters `query` for `rights`, runs what is left, patches the answer; records what the "subgraph" was asked. */
function run(query: string, rights: Rights, variables: Record<string, unknown> = {}) {
  const document = parse(query);
  expect(validate(schema, document)).toEqual([]);
  const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation');
  const guards = guardsOf(schema, rules, document, operation);
  const { denied } = deniedSelections(guards, rights);
  const deniedSet = new Set(denied);
  const filtered = withoutDenied(document, deniedSet);
  expect(validate(schema, filtered)).toEqual([]);
  const patch = answerPatch(schema, document, operation, deniedSet);
  const result = execute({ schema, document: filtered, rootValue: ROOT, variableValues: variables }) as {
    data?: Record<string, unknown> | null;
    errors?: readonly GraphQLError[];
  };
  expect(result.errors).toBeUndefined();
  const patched = patchAnswer(result.data as Record<string, unknown>, patch);
  return {
    data: patched.data,
    errors: patched.errors.map((error) => ({ path: error.path, code: error.extensions.code })),
    sent: print(filtered),
    ambiguous: hasAmbiguousKey(patch.tree),
  };
}

const denied = (...paths: (string | number)[][]) => paths.map((path) => ({ path, code: 'UNAUTHORIZED_FIELD_OR_TYPE' }));

describe('@authenticated', () => {
  it('anonymous: the field is null, its non-null type makes its parent null, one error, never asked for', () => {
    const result = run('{ me { id email } }', ANONYMOUS);
    expect(result.data).toEqual({ me: null });
    expect(result.errors).toEqual(denied(['me', 'email']));
    expect(result.sent).not.toMatch(/\bemail\s*[{}\s]/);
    expect(result.sent).toContain('email: __typename');
  });

  it('anonymous, a nullable field: only that field is null', () => {
    const result = run('{ me { id nickname } }', ANONYMOUS);
    expect(result.data).toEqual({ me: { id: 'u1', nickname: null } });
    expect(result.errors).toEqual(denied(['me', 'nickname']));
  });

  it('a root field: null, the rest of the operation answered', () => {
    const result = run('{ secret me { id } }', ANONYMOUS);
    expect(result.data).toEqual({ secret: null, me: { id: 'u1' } });
    expect(result.errors).toEqual(denied(['secret']));
  });

  it('authenticated: everything it guards is answered, nothing is filtered', () => {
    const result = run('{ secret me { email nickname } }', SIGNED_IN);
    expect(result.data).toEqual({ secret: 'hush', me: { email: 'u1@example.com', nickname: 'nick-u1' } });
    expect(result.errors).toEqual([]);
  });

  it('on a type: every field returning it is filtered', () => {
    const result = run('{ me { id account { plan } } }', ANONYMOUS);
    expect(result.data).toEqual({ me: { id: 'u1', account: null } });
    expect(result.errors).toEqual(denied(['me', 'account']));
    expect(result.sent).not.toContain('plan');
  });

  it('in a list of non-null items: the null reaches the nearest nullable parent, one error for all items', () => {
    const result = run('{ users { id email } }', ANONYMOUS);
    // users: [User!]! — an item cannot be null, the list cannot be null, so data is null.
    expect(result.data).toBeNull();
    expect(result.errors).toEqual(denied(['users', '@', 'email']));
  });

  it('an alias keeps its key in the answer; the error path names the field, as Apollo Router writes it', () => {
    const result = run('{ me { id mail: nickname } }', ANONYMOUS);
    expect(result.data).toEqual({ me: { id: 'u1', mail: null } });
    expect(result.errors).toEqual(denied(['me', 'nickname']));
  });

  it('paths come from the operation: a refusal under a null parent or in an empty list is still reported', () => {
    const result = run('{ nobody { nickname } team { id nickname } me { id } }', ANONYMOUS);
    expect(result.data).toEqual({ nobody: null, team: [], me: { id: 'u1' } });
    expect(result.errors).toEqual(denied(['nobody', 'nickname'], ['team', '@', 'nickname']));
  });

  it('every selected field refused: data is null, and nothing is asked', () => {
    expect(run('{ secret }', ANONYMOUS)).toMatchObject({ data: null, errors: denied(['secret']) });
    expect(run('{ me { email } }', ANONYMOUS)).toMatchObject({ data: null, errors: denied(['me', 'email']) });
    // __typename is never refused: something is left.
    expect(run('{ __typename secret }', ANONYMOUS).data).toEqual({ __typename: 'Query', secret: null });
  });

  it('@skip and @include: a skipped field is not answered, but reported (the path is in the operation)', () => {
    const query = 'query ($s: Boolean!) { me { id nickname @skip(if: $s) } }';
    expect(run(query, ANONYMOUS, { s: true })).toMatchObject({
      data: { me: { id: 'u1' } },
      errors: denied(['me', 'nickname']),
    });
    expect(run(query, ANONYMOUS, { s: false })).toMatchObject({
      data: { me: { id: 'u1', nickname: null } },
      errors: denied(['me', 'nickname']),
    });
  });

  it('__typename is never filtered', () => {
    expect(run('{ me { __typename id } }', ANONYMOUS)).toMatchObject({
      data: { me: { __typename: 'User', id: 'u1' } },
      errors: [],
    });
  });
});

describe('@requiresScopes (OR of ANDs)', () => {
  it('without the scope: filtered, even when authenticated', () => {
    const result = run('{ me { id nickname orders { id } } }', SIGNED_IN);
    // orders is [Order!]! on a nullable `me`: me is null.
    expect(result.data).toEqual({ me: null });
    // A list field's path ends in `@`, as Apollo Router writes it.
    expect(result.errors).toEqual(denied(['me', 'orders', '@']));
  });

  it('with one full group of scopes: answered', () => {
    expect(run('{ me { orders { id } } }', WITH_SCOPE).data).toEqual({
      me: { orders: [{ id: 'u1-o1' }, { id: 'u1-o2' }] },
    });
    const both: Rights = { authenticated: true, scopes: new Set(['admin', 'audit']), policies: new Set() };
    expect(run('{ me { orders { id } } }', both).errors).toEqual([]);
  });

  it('with half of a group: filtered', () => {
    const half: Rights = { authenticated: true, scopes: new Set(['admin']), policies: new Set() };
    expect(run('{ me { orders { id } } }', half).errors).toEqual(denied(['me', 'orders', '@']));
  });
});

describe('@policy', () => {
  it('granted: answered', () => {
    expect(run('{ me { orders { total } } }', SUPPORT)).toMatchObject({
      data: { me: { orders: [{ total: 10 }, { total: 20 }] } },
      errors: [],
    });
  });

  it('refused: the nested field is filtered inside the list', () => {
    const result = run('{ me { id orders { id total } } }', WITH_SCOPE);
    // total is Int!, orders items Order!, orders [Order!]!, so me (nullable) is null.
    expect(result.data).toEqual({ me: null });
    expect(result.errors).toEqual(denied(['me', 'orders', '@', 'total']));
    expect(result.sent).not.toMatch(/\btotal\b(?!: __typename)/);
  });
});

describe('fragments, interfaces and unions', () => {
  it('a named fragment spread: filtered where it is spread', () => {
    const result = run('{ me { ...F } } fragment F on User { id nickname }', ANONYMOUS);
    expect(result.data).toEqual({ me: { id: 'u1', nickname: null } });
    expect(result.errors).toEqual(denied(['me', 'nickname']));
  });

  it('an inline fragment on an interface implementation', () => {
    const result = run('{ node(id: "u9") { id ... on User { nickname } } }', ANONYMOUS);
    expect(result.data).toEqual({ node: { id: 'u9', nickname: null } });
    expect(result.errors).toEqual(denied(['node', '... on User', 'nickname']));
  });

  it('the same fragment on an object it does not apply to: nothing filtered there', () => {
    const result = run('{ node(id: "p1") { id ... on User { nickname } } }', ANONYMOUS);
    expect(result.data).toEqual({ node: { id: 'p1' } });
    expect(result.errors).toEqual(denied(['node', '... on User', 'nickname']));
  });

  it('a union: each member as its own fragment says', () => {
    const result = run('{ search { ... on User { id nickname } ... on Product { name } } }', ANONYMOUS);
    expect(result.data).toEqual({ search: [{ id: 'u3', nickname: null }, { name: 'Lamp' }, {}] });
    expect(result.errors).toEqual(denied(['search', '@', '... on User', 'nickname']));
  });

  it('a union with a restricted member: only its fragment is removed, one error; the field never whole', () => {
    const query = '{ search { __typename ... on Product { name } ... on Memo { id body } } }';
    const result = run(query, ANONYMOUS);
    expect(result.data).toEqual({
      search: [{ __typename: 'User' }, { __typename: 'Product', name: 'Lamp' }, { __typename: 'Memo' }],
    });
    expect(result.errors).toEqual(denied(['search', '@', '... on Memo']));
    expect(result.sent).not.toContain('body');
    expect(run(query, SIGNED_IN)).toMatchObject({ errors: [] });
    expect(run(query, SIGNED_IN).data?.search).toContainEqual({ __typename: 'Memo', id: 'm1', body: 'hush' });
  });

  it('a union: a fragment left alone is removed, and a field left with nothing selected goes with it', () => {
    expect(run('{ search { ... on Memo { body } } }', ANONYMOUS)).toMatchObject({
      data: null,
      errors: denied(['search', '@', '... on Memo']),
    });
    // As Apollo Router: a field with nothing left is null (no error of its own), and
    // `[SearchResult!]!` carries that null up to `data`.
    expect(run('{ me { id } search { ... on Memo { body } } }', ANONYMOUS)).toMatchObject({
      data: null,
      errors: denied(['search', '@', '... on Memo']),
    });
    expect(run('{ me { id } nickname: nobody { nickname } user(id: "u2") { nickname } }', ANONYMOUS)).toMatchObject({
      data: { me: { id: 'u1' }, nickname: null, user: null },
      errors: denied(['nobody', 'nickname'], ['user', 'nickname']),
    });
  });

  it('a union whose members need @authenticated and @policy: each fragment removed on its own', () => {
    const query = '{ me { id } inbox { __typename ... on Memo { id } ... on Ticket { id } } }';
    expect(run(query, ANONYMOUS)).toMatchObject({
      data: { me: { id: 'u1' }, inbox: [{ __typename: 'Memo' }, { __typename: 'Ticket' }] },
      errors: denied(['inbox', '@', '... on Memo'], ['inbox', '@', '... on Ticket']),
    });
    expect(run(query, SIGNED_IN)).toMatchObject({
      data: { me: { id: 'u1' }, inbox: [{ __typename: 'Memo', id: 'm1' }, { __typename: 'Ticket' }] },
      errors: denied(['inbox', '@', '... on Ticket']),
    });
    expect(run(query, SUPPORT)).toMatchObject({
      data: {
        inbox: [
          { __typename: 'Memo', id: 'm1' },
          { __typename: 'Ticket', id: 't1' },
        ],
      },
      errors: [],
    });
  });

  it('a named fragment on a restricted member: removed where it is spread (the path of that place)', () => {
    const result = run('{ search { ...M ... on Product { name } } } fragment M on Memo { body }', ANONYMOUS);
    expect(result.data).toEqual({ search: [{}, { name: 'Lamp' }, {}] });
    expect(result.errors).toEqual(denied(['search', '@']));
    expect(result.sent).not.toContain('fragment M');
  });

  it('an interface, by type fragments: only the restricted implementation is removed (@requiresScopes)', () => {
    const query = '{ documents { ... on Note { text } ... on Invoice { amount } } }';
    const result = run(query, SIGNED_IN);
    expect(result.data).toEqual({ documents: [{ text: 'note' }, {}] });
    expect(result.errors).toEqual(denied(['documents', '@', '... on Invoice']));
    const billing: Rights = { authenticated: true, scopes: new Set(['billing']), policies: new Set() };
    expect(run(query, billing)).toMatchObject({ data: { documents: [{ text: 'note' }, { amount: 5 }] }, errors: [] });
  });

  it('an interface field selecting a field of the interface, one implementation restricted: refused whole', () => {
    const result = run('{ document { id } me { id } }', SIGNED_IN);
    expect(result.data).toEqual({ document: null, me: { id: 'u1' } });
    expect(result.errors).toEqual(denied(['document']));
    expect(run('{ documents { id } me { id } }', SIGNED_IN).errors).toEqual(denied(['documents', '@']));
    const billing: Rights = { authenticated: true, scopes: new Set(['billing']), policies: new Set() };
    expect(run('{ document { id } }', billing).data).toEqual({ document: { id: 'n1' } });
    // Only __typename and fragments: not refused.
    expect(run('{ document { __typename ... on Note { id } } }', ANONYMOUS).errors).toEqual([]);
  });

  it('a field read through a fragment on the interface needs what every implementation needs (stricter than the Router)', () => {
    const result = run('{ documents { id ... on Document { title } } }', SIGNED_IN);
    expect(result.errors).toEqual(denied(['documents', '@']));
    const fragment = run('{ me { id } documents { id ... on Note { text } ... on Document { title } } }', {
      ...SIGNED_IN,
      scopes: new Set(['billing']),
    });
    expect(fragment.errors).toEqual([]);
    const refused = run('{ me { id } documents { __typename ... on Document { title } } }', SIGNED_IN);
    expect(refused.data).toEqual({
      me: { id: 'u1' },
      documents: [
        { __typename: 'Note', title: null },
        { __typename: 'Invoice', title: null },
      ],
    });
    expect(refused.errors).toEqual(denied(['documents', '@', '... on Document', 'title']));
  });

  it('every field of the operation refused, fragments included: data is null', () => {
    const result = run('{ documents { ... on Document { title } } }', SIGNED_IN);
    expect(result.data).toBeNull();
    expect(result.errors).toEqual(denied(['documents', '@', '... on Document', 'title']));
  });

  it('a response key both filtered and used by another field is detected (the request is refused)', () => {
    const result = run('{ search { ... on User { label: email } ... on Product { label: name } } }', ANONYMOUS);
    expect(result.ambiguous).toBe(true);
    // So is the key a removed fragment leaves, when the operation uses it too.
    const placeholder = '{ search { _authorizationRemoved: __typename ... on Memo { body } } }';
    expect(run(placeholder, ANONYMOUS).ambiguous).toBe(true);
    expect(run(placeholder, SIGNED_IN).ambiguous).toBe(false);
  });
});

describe('what the rules are read from', () => {
  it('follows an import under another name, and a spec not imported (`prefix__name`)', () => {
    const sdl = `
      extend schema
        @link(url: "https://specs.apollo.dev/authenticated/v0.1", import: [{ name: "@authenticated", as: "@signedIn" }])
        @link(url: "https://specs.apollo.dev/requiresScopes/v0.1", as: "scopes")
      type Query { a: String @signedIn b: String @scopes(scopes: [["x"]]) c: String @authenticated }
    `;
    const read = readAuthorizationRules(sdl);
    expect(read.fields.get('Query.a')).toEqual([{ kind: 'authenticated' }]);
    expect(read.fields.get('Query.b')).toEqual([{ kind: 'scopes', anyOf: [['x']] }]);
    // `@authenticated` is not this supergraph's name for it: an unrelated directive.
    expect(read.fields.has('Query.c')).toBe(false);
  });

  it('a supergraph without the specs has no rules', () => {
    const read = readAuthorizationRules('type Query { a: String @authenticated }');
    expect(read.fields.size + read.types.size).toBe(0);
  });
});

describe('an answer shared by several callers (inbound deduplication)', () => {
  it('is patched per caller without being changed', () => {
    const document = parse('{ me { id nickname } }');
    const operation = document.definitions[0];
    if (operation?.kind !== Kind.OPERATION_DEFINITION) throw new Error('no operation');
    const { denied } = deniedSelections(guardsOf(schema, rules, document, operation), ANONYMOUS);
    const patch = answerPatch(schema, document, operation, new Set(denied));
    const shared = { me: { id: 'u1', nickname: 'User' } };
    const first = patchAnswer(shared, patch);
    const second = patchAnswer(shared, patch);
    expect(shared).toEqual({ me: { id: 'u1', nickname: 'User' } });
    expect([first.data, second.data]).toEqual([
      { me: { id: 'u1', nickname: null } },
      { me: { id: 'u1', nickname: null } },
    ]);
    expect([first.errors.length, second.errors.length]).toEqual([1, 1]);
  });
});
