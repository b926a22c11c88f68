// ADR 020: over real HTTP (127.0.0.1, Apollo Server 5's standalone server), a document over the
// token limit and one with a syntax error: graphql-armor's max-tokens against graphql-js's
// parseOptions.maxTokens (what the gateway sets from MAX_TOKENS). Set up as armor-bench.mjs says, then
//   REPO=<this repository> node armor-http.mjs
import { createRequire } from 'node:module';

const REPO = process.env.REPO ?? '/work/main';
const { ApolloServer } = await import(`${REPO}/node_modules/@apollo/server/dist/esm/index.js`);
const { startStandaloneServer } = await import(`${REPO}/node_modules/@apollo/server/dist/esm/standalone/index.js`);
const { buildSchema } = await import(`${REPO}/node_modules/graphql/index.js`);
const { ApolloArmor } = createRequire(import.meta.url)('@escape.tech/graphql-armor');

const schema = buildSchema('type Query { user(id: ID!): User } type User { id: ID! }');
const quiet = { debug() {}, info() {}, warn() {}, error() {} };
const queries = {
  'over 5,000 tokens': `{ ${'user(id: "1") { id } '.repeat(700)} }`,
  'a syntax error': '{ user(id: "1") { id }',
};
const setups = {
  'parseOptions.maxTokens 5000 (ours)': { parseOptions: { maxTokens: 5000 } },
  'graphql-armor maxTokens 5000': new ApolloArmor({ maxTokens: { n: 5000 } }).protect(),
};
for (const [setup, options] of Object.entries(setups)) {
  const server = new ApolloServer({ schema, logger: quiet, ...options });
  const { url } = await startStandaloneServer(server, { listen: { host: '127.0.0.1', port: 0 } });
  for (const [what, query] of Object.entries(queries)) {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    const error = (await response.json()).errors?.[0];
    console.log(
      `${what} | ${setup} | HTTP ${response.status} | ${error?.extensions?.code}: ${error?.message.split('\n')[0]}`,
    );
  }
  await server.stop();
}
